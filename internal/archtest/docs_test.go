package archtest

// The docs are references a newcomer reads in minutes: each long file has a budget, no
// document points at a file the repository lacks, and code comments say why, not when or
// for which issue (git and the issue tracker hold that).

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// firstProjectYear is the year the repository began. A date before it in a comment dates an
// outside source (a price, a post, a datasheet), which stays; a date from it on is the
// project's own history, which belongs in git.
const firstProjectYear = 2026

func TestDocBudgets(t *testing.T) {
	for _, c := range []struct {
		path     string
		maxLines int
		optional bool
	}{
		{"BENCHMARKS.md", 500, false},
		{"docs/decisions.md", 400, false},
		{"ARCHITECTURE.md", 150, true},
	} {
		b, err := os.ReadFile(filepath.Join(root, c.path))
		if os.IsNotExist(err) && c.optional {
			continue
		}
		if err != nil {
			t.Fatalf("read %s: %v", c.path, err)
		}
		if n := bytes.Count(b, []byte("\n")); n > c.maxLines {
			t.Errorf("%s has %d lines, over its budget of %d: replace entries rather than add history (git keeps it)", c.path, n, c.maxLines)
		}
	}
}

// BENCHMARKS.md holds commands a reader can run again, so no path of a scratch directory:
// such a path names one machine's leftovers, not anything the reader has.
func TestBenchmarksNameNoScratchPaths(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := regexp.MustCompile(`/tmp\b`)
	for i, line := range strings.Split(string(b), "\n") {
		if tmp.MatchString(line) {
			t.Errorf("BENCHMARKS.md:%d names a /tmp path (use a placeholder such as raw.json or DIR): %s", i+1, line)
		}
	}
}

// The design, stack and style notes live outside the repository, so a citation of them
// sends a reader nowhere: what is cited belongs in docs/decisions.md or ARCHITECTURE.md.
func TestNoCitationOfNotesOutsideTheRepo(t *testing.T) {
	var names [][]byte
	for _, n := range []string{"DESIGN", "STACK", "STYLE"} {
		names = append(names, []byte(n+".md"))
	}
	walkRepo(t, func(rel string, d fs.DirEntry) {
		if d.IsDir() {
			return
		}
		info, err := d.Info()
		if err != nil || info.Size() > 4<<20 {
			return
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Errorf("read %s: %v", rel, err)
			return
		}
		for _, n := range names {
			if i := bytes.Index(b, n); i >= 0 {
				line := bytes.Count(b[:i], []byte("\n")) + 1
				t.Errorf("%s:%d cites %s, which the repository does not contain", rel, line, n)
			}
		}
	})
}

var (
	// The project's own issues: the word issue (or issues) and a number, or a bare hash and a number.
	// An outside tracker's issue is cited as owner/repo#N or repo#N, which this leaves alone.
	issueRe   = regexp.MustCompile(`(?i)\bissues? #?\d+`)
	bareHash  = regexp.MustCompile(`(^|[\s(\[,;])#\d+\b`)
	isoDateRe = regexp.MustCompile(`\b(20\d\d)-[01]\d-[0-3]\d\b`)
	monthRe   = regexp.MustCompile(`\b(?:January|February|March|April|May|June|July|August|September|October|November|December),? (20\d\d)\b`)
	asOfRe    = regexp.MustCompile(`(?i)\bas of (?:January|February|March|April|May|June|July|August|September|October|November|December|today|now)\b`)
)

// Comments say why the code is as it is. Which issue asked for it, and when, is history:
// it goes stale and git log already has it.
func TestGoCommentsNameNoIssueOrDate(t *testing.T) {
	fset := token.NewFileSet()
	walkRepo(t, func(rel string, d fs.DirEntry) {
		// Generated templ code repeats its .templ source's comments; the source is checked
		// by hand when regenerated, and the generated file is not edited.
		if d.IsDir() || !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_templ.go") {
			return
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("parse %s: %v", rel, err)
			return
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if why := commentProblem(c.Text); why != "" {
					t.Errorf("%s: comment %s: %q", fset.Position(c.Pos()), why, c.Text)
				}
			}
		}
		if strings.HasSuffix(rel, "_test.go") {
			return
		}
		// What the programs print: a user has no access to the project's issues.
		eachString(f, func(lit *ast.BasicLit, s string) {
			if m := issueRe.FindString(s); m != "" {
				t.Errorf("%s: string names an issue (%s): %q", fset.Position(lit.Pos()), m, s)
			}
		})
	})
}

func commentProblem(text string) string {
	if m := issueRe.FindString(text); m != "" {
		return "names an issue (" + m + ")"
	}
	if m := bareHash.FindString(text); m != "" {
		return "names an issue (" + strings.TrimSpace(m) + ")"
	}
	for _, re := range []*regexp.Regexp{isoDateRe, monthRe} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if y, _ := strconv.Atoi(m[1]); y >= firstProjectYear {
				return "carries a date of the project's history (" + m[0] + ")"
			}
		}
	}
	if m := asOfRe.FindString(text); m != "" {
		return "says when (" + m + ")"
	}
	return ""
}

var (
	backtickSpan = regexp.MustCompile("`([^`\n]+)`")
	mdLink       = regexp.MustCompile(`\]\(([^)\s#]+)`)
	otherRepo    = regexp.MustCompile(`(?:[\w-]+\.[a-z]{2,}/[\w./-]+|(?:^|\s)[\w.-]+/[\w.-]+)\s*\(?$`)
	repoPath     = regexp.MustCompile(`(?:^|[\s(="'])(?:\./)?((?:docs|internal|bench|scripts|cmd)/[A-Za-z0-9_./-]*[A-Za-z0-9_/-])`)
)

// Every repository path a document names in backticks or a link exists, so a reader who
// follows one finds it. A backticked path is read from the repository root (or, in a
// nested README, from its own directory); a link from the document's directory, as a
// Markdown viewer follows it.
func TestDocPathsExist(t *testing.T) {
	walkRepo(t, func(rel string, d fs.DirEntry) {
		if d.IsDir() || !strings.HasSuffix(rel, ".md") {
			return
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Errorf("read %s: %v", rel, err)
			return
		}
		dir := filepath.Dir(rel)
		for i, line := range strings.Split(string(b), "\n") {
			for _, loc := range backtickSpan.FindAllStringSubmatchIndex(line, -1) {
				// A path right after another repository's address or owner/name is that repository's.
				if otherRepo.MatchString(line[:loc[0]]) {
					continue
				}
				for _, m := range repoPath.FindAllStringSubmatch(line[loc[2]:loc[3]], -1) {
					p := m[1]
					if placeholder(p) || exists(p) || exists(filepath.Join(dir, p)) {
						continue
					}
					t.Errorf("%s:%d names `%s`, which does not exist", rel, i+1, p)
				}
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				p := m[1]
				if strings.Contains(p, "://") || strings.HasPrefix(p, "mailto:") {
					continue
				}
				target := filepath.Clean(filepath.Join(dir, p))
				if !strings.HasPrefix(target, "..") && !exists(target) {
					t.Errorf("%s:%d links %s, which does not exist", rel, i+1, p)
				}
			}
		}
	})
}

// placeholder reports a path written as a pattern rather than a file: a glob or a name
// part in capitals that stands for any name (scripts/lab/DRIVE, internal/probe/testdata/NAME).
func placeholder(p string) bool {
	if strings.ContainsAny(p, "*{}<>") {
		return true
	}
	for _, part := range strings.Split(p, "/") {
		base := strings.TrimSuffix(part, filepath.Ext(part))
		if base == "README" || base == "SOURCES" || base == "LICENSE" {
			continue
		}
		if len(base) > 1 && strings.ToUpper(base) == base && strings.ContainsAny(base, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && !strings.ContainsAny(base, "0123456789") {
			return true
		}
	}
	return false
}

func exists(rel string) bool {
	_, err := os.Stat(filepath.Join(root, rel))
	return err == nil
}

// walkRepo calls fn for every file and directory of the repository but git's own.
func walkRepo(t *testing.T, fn func(rel string, d fs.DirEntry)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.Name() == ".git" || d.Name() == "node_modules" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		// Test fixtures mirror sysfs, whose links point anywhere; a link is not a file of its own.
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if rel != "." {
			fn(filepath.ToSlash(rel), d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
