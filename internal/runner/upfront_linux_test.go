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

// TestUpFrontLineStatesTheClassCap: quick's line says the cap of the drive's class and why:
// 512 MiB on flash and on a drive the probe cannot tell, more on a declared USB SSD.
func TestUpFrontLineStatesTheClassCap(t *testing.T) {
	dir := t.TempDir()
	q := profile.Quick()
	for _, c := range []struct {
		class, want string
	}{
		{"", "writes at most 512 MiB"},
		{"usb-flash", "writes at most 512 MiB"},
		{"usb-ssd", "writes at most " + fmtBytes(q.WriteBudget(profile.DriveClass{Class: "usb-ssd"}).Bytes)},
	} {
		d, err := Decide(*q, Env{Target: dir, Class: c.class})
		if err != nil {
			t.Fatal(err)
		}
		line := d.budgetLine()
		t.Logf("%q: %s", c.class, line)
		if !strings.Contains(line, c.want) || !strings.Contains(line, "takes at most 45s") || d.BudgetWhy == "" || !strings.Contains(line, d.BudgetWhy) {
			t.Errorf("class %q: %q, want %q, 45 s and the reason", c.class, line, c.want)
		}
	}
}
