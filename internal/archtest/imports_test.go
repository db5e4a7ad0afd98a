package archtest

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// leafImports are the packages of the module each leaf package may reach, itself excepted:
// a leaf's shape moves only when it does.
var leafImports = map[string][]string{
	// The result record: the JSON of every run, store and export (docs/result-record.md).
	"internal/record": {"internal/units"},
}

// TestLeafPackages: the packages of this module that a leaf's non-test files reach, however
// indirectly, are the ones leafImports allows. Files for every platform are read, whatever
// the build tags, so a file that builds only elsewhere cannot slip an import in.
func TestLeafPackages(t *testing.T) {
	root := filepath.Join("..", "..")
	module := modulePath(t)
	for leaf, allowed := range leafImports {
		reached := map[string]string{} // package → the package that imports it
		queue := []string{leaf}
		for len(queue) > 0 {
			pkg := queue[0]
			queue = queue[1:]
			for _, imp := range leafPackageImports(t, root, pkg) {
				rel, ok := strings.CutPrefix(imp, module+"/")
				if !ok || rel == leaf {
					continue
				}
				if _, seen := reached[rel]; !seen {
					reached[rel] = pkg
					queue = append(queue, rel)
				}
			}
		}
		for pkg, by := range reached {
			if !slices.Contains(allowed, pkg) {
				t.Errorf("%s reaches %s (imported by %s): it may import no package of this module but %s",
					leaf, pkg, by, strings.Join(allowed, ", "))
			}
		}
	}
}

// leafPackageImports are the import paths of the non-test Go files of the package in dir pkg.
func leafPackageImports(t *testing.T, root, pkg string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", pkg, err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("parsing %s: %v", f, err)
		}
		for _, imp := range file.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", f, imp.Path.Value, err)
			}
			out = append(out, path)
		}
	}
	return out
}
