package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTypedDriveTemps: readings typed on stdin and lines a logger appends to a file arrive,
// each taken once by the next sensor sample; what holds no reading is said and skipped;
// lines already in the file before the run are not taken as this run's.
func TestTypedDriveTemps(t *testing.T) {
	var mu sync.Mutex
	var warned []string
	warn := func(s string) { mu.Lock(); warned = append(warned, s); mu.Unlock() }

	typed, err := startTypedTemps("-", strings.NewReader("41\n\n# a note\n47.5 °C\n470\n"), warn)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return typed.count() == 2 })
	if c := typed.take(); c == nil || *c != 47.5 {
		t.Errorf("take = %v, want the latest reading, 47.5", c)
	}
	if c := typed.take(); c != nil {
		t.Errorf("second take = %v, want nil: a reading belongs to one sample", *c)
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(warned) == 1 })
	if !strings.Contains(warned[0], `"470" is no drive temperature`) {
		t.Errorf("warning %q", warned[0])
	}

	path := filepath.Join(t.TempDir(), "temps.log")
	if err := os.WriteFile(path, []byte("99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logged, err := startTypedTemps(path, nil, warn)
	if err != nil {
		t.Fatal(err)
	}
	defer logged.stop()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("52\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return logged.count() == 1 })
	if c := logged.take(); c == nil || *c != 52 {
		t.Errorf("file take = %v, want 52 (the 99 was there before the run)", c)
	}

	if _, err := startTypedTemps(filepath.Join(t.TempDir(), "missing"), nil, warn); err == nil || !strings.Contains(err.Error(), "create it first") {
		t.Errorf("missing file: err = %v", err)
	}
}

// waitFor polls cond for up to 10 s (a goroutine reads the readings).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not met within 10 s")
}
