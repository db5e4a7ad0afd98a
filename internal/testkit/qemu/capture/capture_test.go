package capture

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iomark/iomark/internal/probe"
)

// TestCaptureFixtures captures each hand-made fixture tree into a new one: probe must read
// the same report and the same list from the copy, which proves the copy holds everything
// probe reads and that its links resolve inside it.
func TestCaptureFixtures(t *testing.T) {
	base := filepath.Join("..", "..", "..", "probe", "testdata")
	ents, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			src, _ := filepath.Abs(filepath.Join(base, e.Name()))
			dst := t.TempDir()
			tree, err := Capture(src, dst)
			if err != nil {
				t.Fatal(err)
			}
			if tree.Files == 0 {
				t.Fatal("nothing copied")
			}
			want, err := probe.List(probe.Options{Root: src})
			if err != nil {
				t.Fatal(err)
			}
			got, err := probe.List(probe.Options{Root: dst})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("list differs (-fixture +capture):\n%s", d)
			}
			for _, l := range want {
				a, errA := probe.Probe("/dev/"+l.Name, probe.Options{Root: src})
				b, errB := probe.Probe("/dev/"+l.Name, probe.Options{Root: dst})
				if errA != nil || errB != nil {
					t.Fatalf("probe %s: %v / %v", l.Name, errA, errB)
				}
				ja, _ := json.MarshalIndent(a, "", " ")
				jb, _ := json.MarshalIndent(b, "", " ")
				if d := cmp.Diff(string(ja), string(jb)); d != "" {
					t.Errorf("%s: report differs (-fixture +capture):\n%s", l.Name, d)
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no fixtures found")
	}
}

func TestCaptureNoSysfs(t *testing.T) {
	if _, err := Capture(t.TempDir(), t.TempDir()); err == nil {
		t.Error("a root without /sys/block must be an error")
	}
}
