package engine

import (
	"strings"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"512", 512, false}, {"4k", 4096, false}, {"4K", 4096, false}, {"4KiB", 4096, false},
		{"128k", 128 << 10, false}, {"1m", 1 << 20, false}, {"16M", 16 << 20, false},
		{"2g", 2 << 30, false}, {"1t", 1 << 40, false}, {"1kb", 1024, false},
		{"", 0, true}, {"k", 0, true}, {"-4k", 0, true}, {"4x", 0, true}, {"1.5m", 0, true},
		{"99999999999999999999", 0, true}, {"9999999999999t", 0, true},
	} {
		got, err := ParseSize(c.in)
		if c.bad != (err != nil) || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, error %v", c.in, got, err, c.want, c.bad)
		}
	}
	for _, n := range []int64{512, 4096, 1 << 20, 3 << 30, 1000} {
		back, err := ParseSize(FormatSize(n))
		if err != nil || back != n {
			t.Errorf("FormatSize(%d) = %q does not parse back", n, FormatSize(n))
		}
	}
}

func TestValidate(t *testing.T) {
	ok := func() Spec {
		return Spec{Target: ".", Pattern: RandRead, BlockSize: 4096, QD: 1, Jobs: 1, Direct: true}
	}
	s := ok()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Engine != EngineAuto || s.Runtime != DefaultRuntime || s.SeriesInterval != 100*time.Millisecond {
		t.Errorf("defaults: engine %q runtime %v interval %v", s.Engine, s.Runtime, s.SeriesInterval)
	}
	for name, c := range map[string]struct {
		mod  func(*Spec)
		want string
	}{
		"no target":   {func(s *Spec) { s.Target = "" }, "no target"},
		"pattern":     {func(s *Spec) { s.Pattern = "randomread" }, "unknown pattern"},
		"bs small":    {func(s *Spec) { s.BlockSize = 256 }, "out of range"},
		"bs big":      {func(s *Spec) { s.BlockSize = 32 << 20 }, "out of range"},
		"bs odd":      {func(s *Spec) { s.BlockSize = 1000 }, "multiple of 512"},
		"qd":          {func(s *Spec) { s.QD = 0 }, "queue depth"},
		"qd big":      {func(s *Spec) { s.QD = 2000 }, "queue depth"},
		"jobs":        {func(s *Spec) { s.Jobs = 0 }, "jobs"},
		"engine":      {func(s *Spec) { s.Engine = "libaio" }, "unknown engine"},
		"mix":         {func(s *Spec) { s.Pattern, s.RWMixRead = RandRW, 101 }, "0 to 100"},
		"size<block":  {func(s *Spec) { s.WorkingSetBytes = 1024 }, "smaller than one block"},
		"negative":    {func(s *Spec) { s.Runtime = -time.Second }, "negative"},
		"fsync-every": {func(s *Spec) { s.FsyncEvery = -1 }, "negative"},
	} {
		s := ok()
		c.mod(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", name, err, c.want)
		}
	}
}

func TestSeriesInterval(t *testing.T) {
	for _, c := range []struct{ runtime, want time.Duration }{
		{time.Second, 100 * time.Millisecond}, {10 * time.Second, 100 * time.Millisecond},
		{30 * time.Second, 300 * time.Millisecond}, {10 * time.Minute, time.Second}, {0, 500 * time.Millisecond},
	} {
		if got := seriesIntervalFor(c.runtime); got != c.want {
			t.Errorf("interval for %v = %v, want %v", c.runtime, got, c.want)
		}
	}
}
