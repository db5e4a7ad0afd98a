package probe

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixtureIntegrity: every fixture says where it comes from, and every symlink in it
// resolves inside the fixture (driver links excepted: they point at /sys/bus, which the
// fixtures leave out, and only their last element is read).
func TestFixtureIntegrity(t *testing.T) {
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		n++
		root, _ := filepath.Abs(filepath.Join("testdata", e.Name()))
		if b, err := os.ReadFile(filepath.Join(root, "SOURCES.md")); err != nil || len(b) < 200 {
			t.Errorf("%s: SOURCES.md missing or empty", e.Name())
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink == 0 || d.Name() == "driver" {
				return err
			}
			target, err := os.Readlink(p)
			if err != nil || filepath.IsAbs(target) {
				t.Errorf("%s: absolute or unreadable link -> %q", p, target)
				return nil
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil || !strings.HasPrefix(real, root+"/") {
				t.Errorf("%s -> %s does not resolve inside the fixture (%v)", p, target, err)
			}
			return nil
		})
	}
	if n < 7 {
		t.Errorf("%d fixtures, the issue asks for at least 7 configurations", n)
	}
}
