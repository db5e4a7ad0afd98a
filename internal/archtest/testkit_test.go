package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// The test kit (internal/testkit) is test support: emulated drives, QEMU guests, a throwaway
// PostgreSQL, and testkit.Require, the one rule that skips a test on a developer machine and
// fails it in CI. These checks keep the rule in one place and the kit out of the product.

// kitThisFile is this file: it names the CI variable to look for it, the one file outside the
// kit that may.
const kitThisFile = "internal/archtest/testkit_test.go"

// kitGoFiles parses every .go file of the repository (parseGoFiles).
func kitGoFiles(t *testing.T) []goFile {
	t.Helper()
	out, _ := parseGoFiles(t, root)
	if len(out) < 100 {
		t.Fatalf("found only %d .go files under %s: the walk is broken", len(out), root)
	}
	return out
}

// under reports whether slash path p is dir or inside it.
func kitUnder(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// kitCINames are the string literals by which Go code reads or sets the CI environment
// variable: "CI" (os.Getenv, os.LookupEnv, t.Setenv) and "CI=..." (an environment entry).
func kitCINames(f *ast.File) []token.Pos {
	var at []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && (s == "CI" || strings.HasPrefix(s, "CI=")) {
			at = append(at, lit.Pos())
		}
		return true
	})
	return at
}

// TestCIRuleOnlyInTestKit: whether a test skips or fails where something it needs is missing
// is decided by testkit.Require alone, so no code outside internal/testkit reads (or sets) the
// CI environment variable. A second copy of the rule would drift: a skip that CI lets pass
// hides a machine that lost a tool.
func TestCIRuleOnlyInTestKit(t *testing.T) {
	kitHasIt := false
	for _, f := range kitGoFiles(t) {
		at := kitCINames(f.file)
		if kitUnder(f.path, "internal/testkit") {
			kitHasIt = kitHasIt || f.path == "internal/testkit/testkit.go" && len(at) > 0
			continue
		}
		if f.path == kitThisFile {
			continue
		}
		for range at {
			t.Errorf("%s names the CI environment variable: call testkit.Require(t, what) instead of deciding skip-or-fail here", f.path)
		}
	}
	if !kitHasIt {
		t.Error("internal/testkit/testkit.go does not name the CI variable: the rule moved, or this scan no longer finds it")
	}
}

// TestCIRuleFinder pins what the scan flags, so a change to it cannot make the check pass
// vacuously.
func TestCIRuleFinder(t *testing.T) {
	for src, want := range map[string]int{
		`package x; import "os"; var _ = os.Getenv("CI") != ""`:             1,
		`package x; import "os"; func f() { _, _ = os.LookupEnv("CI") }`:    1,
		`package x; var env = []string{"CI=1", "HOME=/root"}`:               1,
		`package x; import "os"; var _ = os.Getenv("CIRCLE") + "CI is set"`: 0,
		`package x; import "os"; var _ = os.Getenv("IOMARK_SCHEMATHESIS")`:  0,
		"package x; import \"os\"; var _ = os.Getenv(`CI`)":                 1,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(kitCINames(f)); got != want {
			t.Errorf("%s: %d mentions found, want %d", src, got, want)
		}
	}
}

// TestProductDoesNotImportTestKit: no product code imports the test kit, nor the bench
// programs' and scripts' packages that may link it. Product code is every non-test .go file
// outside bench/, scripts/ and internal/testkit, whatever its build constraints, so a package
// built only for another system is checked too. Since nothing else imports the kit, no product
// package can link it through another. cmd/iomark's TestBinaryLinksNoTestKit checks the
// binary's real dependency list as well.
func TestProductDoesNotImportTestKit(t *testing.T) {
	mod := modulePath(t)
	fenced := []string{"internal/testkit", "bench", "scripts"}
	kitImporters := 0
	for _, f := range kitGoFiles(t) {
		product := !strings.HasSuffix(f.path, "_test.go")
		for _, dir := range fenced {
			product = product && !kitUnder(f.path, dir)
		}
		for _, imp := range f.file.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil || !kitUnder(p, mod) {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, mod), "/")
			if kitUnder(rel, "internal/testkit") {
				kitImporters++
			}
			if !product {
				continue
			}
			for _, dir := range fenced {
				if kitUnder(rel, dir) {
					t.Errorf("%s imports %s: product code must not import the test kit, bench/ or scripts/", f.path, p)
				}
			}
		}
	}
	if kitImporters == 0 {
		t.Error("no file imports internal/testkit: the scan of imports is broken")
	}
}
