package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the module's root, two directories above this package.
const repoRoot = "../.."

// archPath is a repository path as ARCHITECTURE.md writes one: in backticks, starting with a
// top-level directory of the repository, or a top-level Markdown file.
var archPath = regexp.MustCompile("`((?:cmd|internal|bench|docs|scripts)/[^` ]+|[A-Z]+\\.md)`")

// TestArchitecturePathsExist keeps the map true: every file or package ARCHITECTURE.md names
// exists, so a move or rename that forgets the map fails here.
func TestArchitecturePathsExist(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatalf("ARCHITECTURE.md: %v", err)
	}
	seen := 0
	for _, m := range archPath.FindAllStringSubmatch(string(data), -1) {
		for _, p := range strings.Split(m[1], ", ") {
			p = strings.TrimRight(p, ".,:;")
			seen++
			if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
				t.Errorf("ARCHITECTURE.md names %s, which does not exist", p)
			}
		}
	}
	if seen < 30 {
		t.Errorf("found only %d paths in ARCHITECTURE.md: the pattern no longer matches how it writes them", seen)
	}
}
