package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// messagesReach says which commands can print the messages (errors, warnings, findings, help)
// written in each package: the commands that call into it, and those that print the records
// it leaves its words in (a run's warnings and findings are printed again by show, export and
// compare). internal/cli's own files are attributed by file (TestMessagesNameOnlyFlagsTheCommandHas).
var messagesReach = map[string][]string{
	"advice": {"run", "info", "job", "show", "export", "compare"},
	// compare: the comparison model's words reach every command that compares and the site.
	"compare": {"run", "history", "show", "export", "compare", "serve"},
	// engine's errors end a run or a job; the notes it leaves in records (EngineNote) name no flag.
	"engine": {"run", "job"},
	// flash: verify, and info --geometry's erase block estimate.
	"flash":    {"verify", "info"},
	"probe":    {"run", "info", "list", "job", "show", "export", "compare"},
	"profile":  {"run", "show", "export", "compare"},
	"record":   {"run", "show", "export", "compare", "submit"},
	"refdata":  {"run", "export", "compare", "serve"},
	"report":   {"run", "info", "list", "job", "show", "export", "compare"},
	"runner":   {"run", "show", "export", "compare"},
	"runstore": {"run", "history", "show", "export", "compare", "submit"},
	"server":   {"serve"},
	"stats":    {"run", "job", "show", "export", "compare"},
	"store":    {"run", "history", "show", "export", "compare", "submit", "serve"},
	"upload":   {"run", "submit"},
	// health's notes are printed by info and list, and kept in run records; the one naming a
	// flag (--no-ioctl) is made only when that flag was given, which only info and list have.
	"health": {"info", "list"},
	// Test infrastructure: its messages reach tests, never a command.
	"testkit": nil,
}

// flagToken is a long flag in a message: "--size", "--confirm", not "---" or "a--b".
var flagToken = regexp.MustCompile(`(^|[^A-Za-z0-9_-])--([a-z][a-z0-9-]*)`)

// iomarkCommand is "iomark SUB" in a message; a flag after it is SUB's.
var iomarkCommand = regexp.MustCompile(`\biomark ([a-z]+)\b`)

// otherTool is another program named in a message (a peer's command line, a lab helper): a
// flag after it is that program's, not iomark's.
var otherTool = regexp.MustCompile(`\b(fio|hdparm|iozone|dd|losetup|initdb|smartctl|f3probe|f3write|f3read|flashbench|curl|mkfs|mke2fs|fdisk|cp|chromium)\b`)

// commandFlags lists each subcommand's flags, with the ones cobra adds.
func commandFlags(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for _, c := range newRoot(io.Discard, io.Discard).Commands() {
		c.InitDefaultHelpFlag()
		set := map[string]bool{}
		add := func(f *pflag.Flag) { set[f.Name] = true }
		c.Flags().VisitAll(add)
		c.InheritedFlags().VisitAll(add)
		out[c.Name()] = set
	}
	return out
}

// flagMention is one --flag in a string literal, and the commands it must exist on.
type flagMention struct {
	pos      token.Position
	flag     string
	commands []string
	text     string
}

// mentions finds the flags named in the string literals of one Go file; commands are the
// commands that can print them unless the literal names another ("iomark show --json") or a
// peer tool ("fio --size=80M").
func mentions(fset *token.FileSet, f *ast.File, commands []string, subcommands map[string]map[string]bool) []flagMention {
	var out []flagMention
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			if n.Tag != nil {
				return false // struct tags are not messages
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return true
			}
			for _, m := range flagToken.FindAllStringSubmatchIndex(s, -1) {
				before := s[:m[4]]
				cmds := commands
				cmdAt, toolAt := -1, -1
				var named string
				for _, at := range iomarkCommand.FindAllStringSubmatchIndex(before, -1) {
					// "iomark did not create it" names no command.
					if sub := before[at[2]:at[3]]; subcommands[sub] != nil {
						cmdAt, named = at[0], sub
					}
				}
				if all := otherTool.FindAllStringIndex(before, -1); len(all) > 0 {
					toolAt = all[len(all)-1][0]
				}
				switch {
				case toolAt > cmdAt:
					continue
				case cmdAt >= 0:
					cmds = []string{named}
				}
				out = append(out, flagMention{fset.Position(n.Pos()), s[m[4]:m[5]], cmds, s})
			}
		}
		return true
	})
	return out
}

// cliFileCommands attributes each file of internal/cli to commands: a file named for a
// subcommand (run.go) to that command, and a helper file (db.go) to every command whose file
// calls a function it declares.
func cliFileCommands(t *testing.T, fset *token.FileSet, files map[string]*ast.File, subcommands map[string]map[string]bool) map[string][]string {
	t.Helper()
	declares := map[string][]string{} // file: top-level funcs
	for name, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				declares[name] = append(declares[name], fd.Name.Name)
			}
		}
	}
	uses := func(f *ast.File, fn string) bool {
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == fn {
				found = true
			}
			return !found
		})
		return found
	}
	out := map[string][]string{}
	for name := range files {
		cmd := strings.TrimSuffix(name, ".go")
		if _, ok := subcommands[cmd]; ok {
			out[name] = []string{cmd}
			continue
		}
		for other, f := range files {
			c := strings.TrimSuffix(other, ".go")
			if _, ok := subcommands[c]; !ok {
				continue
			}
			for _, fn := range declares[name] {
				if uses(f, fn) && !slices.Contains(out[name], c) {
					out[name] = append(out[name], c)
				}
			}
		}
		slices.Sort(out[name])
	}
	return out
}

func parseDir(t *testing.T, fset *token.FileSet, dir string) map[string]*ast.File {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	return files
}

// TestMessagesNameOnlyFlagsTheCommandHas: every --flag a message names exists on each command
// that can print that message — `iomark run` once said "give a smaller --size", a flag it does
// not have. A message about another command names it ("`iomark run --profile sustained`").
func TestMessagesNameOnlyFlagsTheCommandHas(t *testing.T) {
	flags := commandFlags(t)
	fset := token.NewFileSet()
	var all []flagMention

	cliFiles := parseDir(t, fset, ".")
	cliCommands := cliFileCommands(t, fset, cliFiles, flags)
	for name, cmds := range cliCommands {
		all = append(all, mentions(fset, cliFiles[name], cmds, flags)...)
	}
	pkgs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if !p.IsDir() || p.Name() == "cli" {
			continue
		}
		reach, known := messagesReach[p.Name()]
		if !known {
			// A package this table does not know yet (a branch that adds one need not edit
			// it): its messages reach the commands whose files import it. Words it leaves in
			// records, printed again by show, export and compare, need an entry above.
			reach = importers(cliFiles, cliCommands, "internal/"+p.Name())
			t.Logf("internal/%s is not in messagesReach: its messages are checked against the commands that import it, %v", p.Name(), reach)
		}
		var found []flagMention
		err := filepath.WalkDir(filepath.Join("..", p.Name()), func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() || d.Name() == "testdata" {
				if d != nil && d.IsDir() && d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return err
			}
			for _, f := range parseDir(t, fset, path) {
				found = append(found, mentions(fset, f, reach, flags)...)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if known && reach == nil {
			continue
		}
		all = append(all, found...)
	}
	if len(all) == 0 {
		t.Fatal("no flag found in any message: the scan is broken")
	}
	for _, m := range all {
		for _, c := range m.commands {
			set, ok := flags[c]
			if !ok {
				t.Errorf("%s: %q names `iomark %s`, which is no command", m.pos, m.text, c)
				continue
			}
			if !set[m.flag] {
				t.Errorf("%s: --%s is named in a message `iomark %s` can print, but %s has no --%s:\n\t%q", m.pos, m.flag, c, c, m.flag, m.text)
			}
		}
	}
}

// importers are the commands whose internal/cli files import the package at path suffix pkg.
func importers(files map[string]*ast.File, commands map[string][]string, pkg string) []string {
	var out []string
	for name, f := range files {
		for _, imp := range f.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && strings.HasSuffix(p, "/"+pkg) {
				for _, c := range commands[name] {
					if !slices.Contains(out, c) {
						out = append(out, c)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestFlagAuditFindsAMissingFlag: the audit's own check, on a message naming a flag its
// command lacks.
func TestFlagAuditFindsAMissingFlag(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", `package x
var _ = "the run reads and writes; for reads only give --rw read"
var _ = "retry with `+"`iomark submit RUN --server URL`"+`"
var _ = "fio --size=80M --iodepth=64"
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := mentions(fset, f, []string{"run"}, commandFlags(t))
	if len(got) != 2 || got[0].flag != "rw" || !slices.Equal(got[0].commands, []string{"run"}) ||
		got[1].flag != "server" || !slices.Equal(got[1].commands, []string{"submit"}) {
		t.Errorf("mentions = %+v", got)
	}
	// A package messagesReach does not list is checked against the commands importing it.
	cliFiles := parseDir(t, fset, ".")
	if got := importers(cliFiles, cliFileCommands(t, fset, cliFiles, commandFlags(t)), "internal/upload"); !slices.Contains(got, "submit") || !slices.Contains(got, "run") || slices.Contains(got, "list") {
		t.Errorf("commands importing internal/upload: %v", got)
	}
	if flags := commandFlags(t); flags["run"]["rw"] || !flags["submit"]["server"] || !flags["run"]["help"] {
		t.Errorf("run has --rw %v, submit --server %v", flags["run"]["rw"], flags["submit"]["server"])
	}
}
