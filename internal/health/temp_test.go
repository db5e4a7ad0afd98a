package health

import (
	"errors"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
)

// TestTempReader: only a drive that reported a temperature before the run is asked again,
// never from a fixture root, and no sooner than its interval allows.
func TestTempReader(t *testing.T) {
	c := 48.0
	rep := &probe.Report{Device: &probe.Device{Path: "/dev/nvme0n1"}}
	for _, tc := range []struct {
		name string
		h    *Health
		o    probe.Options
		want bool
	}{
		{"no temperature before", &Health{Source: SourceNVMe}, probe.Options{}, false},
		{"a fixture root", &Health{Source: SourceNVMe, TemperatureC: &c}, probe.Options{Root: t.TempDir()}, false},
		{"eMMC has none to ask", &Health{Source: SourceEMMC, TemperatureC: &c}, probe.Options{}, false},
		{"NVMe", &Health{Source: SourceNVMe, TemperatureC: &c}, probe.Options{}, true},
	} {
		if got := NewTempReader(rep, tc.o, tc.h) != nil; got != tc.want {
			t.Errorf("%s: reader %v, want %v", tc.name, got, tc.want)
		}
	}

	calls := 0
	r := &TempReader{Every: 10 * time.Second, read: func() (*Health, error) {
		calls++
		if calls == 2 {
			return nil, errors.New("bridge stalled")
		}
		return &Health{TemperatureC: &c}, nil
	}}
	t0 := time.Unix(1000, 0)
	if !r.Due(t0) || r.Read(t0) == nil {
		t.Fatal("first ask: want due and a temperature")
	}
	if r.Due(t0.Add(9 * time.Second)) {
		t.Error("due again after 9 s, want 10 s apart")
	}
	if !r.Due(t0.Add(10*time.Second)) || r.Read(t0.Add(10*time.Second)) != nil {
		t.Error("a failed ask must give nil")
	}
}
