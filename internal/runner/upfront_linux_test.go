package runner

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/profile"
)

// TestEveryProfileSaysTimeAndBytesUpFront: before a run starts, every profile says the most
// it writes and the most its tests take, not only the profiles with an overall time bound.
func TestEveryProfileSaysTimeAndBytesUpFront(t *testing.T) {
	dir := t.TempDir()
	for _, name := range profile.Names() {
		p, err := profile.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decide(*p, Env{Target: dir})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		line := d.budgetLine()
		t.Logf("%s: %s", name, line)
		if !strings.Contains(line, "writes ") || !strings.Contains(line, "at most") || !(strings.Contains(line, "takes at most") || strings.Contains(line, "take at most")) {
			t.Errorf("%s: the budget line does not give both bytes and time: %q", name, line)
		}
	}
}
