package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/runner"
)

// TestSustainedProgressOffATerminal: where stderr is no terminal, a sustained write prints a
// line every 10 s (not one a second, not none for ten minutes) with the bytes written of its
// bound, the current rate, the temperatures and the cliff once it shows.
func TestSustainedProgressOffATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newRunProgress(&buf)
	drive, soc := 47.0, 55.0
	for s := 1; s <= 25; s++ {
		ls := &runner.LiveSustained{Bytes: int64(s) * 40e6, BoundBytes: 10 << 30, DriveTempC: &drive, SoCTempC: &soc}
		if s > 15 {
			ls.Cliff, ls.CliffAtS, ls.CliffAtBytes, ls.BeforeMBPerS, ls.AfterMBPerS = true, 12, 480e6, 40, 8
		}
		p.event(runner.Event{Test: "sustained-write-1m", Index: 1, Total: 1, Phase: "measure", Run: 1,
			Elapsed: time.Duration(s) * time.Second, MBPerS: 40, ETA: time.Minute, Sustained: ls})
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2 (at 10 s and 20 s):\n%s", len(lines), buf.String())
	}
	for _, want := range []string{"sustained-write-1m", "400.0 MB of 10.7 GB", "40.0 MB/s", "drive 47 °C", "SoC 55 °C"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("first line %q lacks %q", lines[0], want)
		}
	}
	if strings.Contains(lines[0], "cliff") || !strings.Contains(lines[1], "cliff at 12 s after 480.0 MB: 40.0 -> 8.0 MB/s") {
		t.Errorf("the cliff should show once seen:\n%s", buf.String())
	}
}
