package probe

import (
	"path/filepath"
	"testing"
)

func TestSamplerReadsFixtureSensors(t *testing.T) {
	for _, c := range []struct {
		fixture, target string
		soc, drive      bool
	}{
		{"pi5-nvme-gen3", "/", true, true},
		{"x86-sata-nvme", "/", true, true},
		{"pi4-microsd", "/", true, false},
	} {
		o := Options{Root: filepath.Join("testdata", c.fixture)}
		rep, err := Probe(c.target, o)
		if err != nil {
			t.Fatalf("%s: %v", c.fixture, err)
		}
		r := NewSampler(rep, o).Read()
		if (r.SoCTempC != nil) != c.soc || (r.DriveTempC != nil) != c.drive {
			t.Errorf("%s: soc %v drive %v; want soc %v drive %v", c.fixture, r.SoCTempC, r.DriveTempC, c.soc, c.drive)
		}
		if rep.NVMe != nil && rep.NVMe.TempC != nil && r.DriveTempC != nil && *r.DriveTempC != *rep.NVMe.TempC {
			t.Errorf("%s: sampled drive %.1f °C, probe said %.1f °C", c.fixture, *r.DriveTempC, *rep.NVMe.TempC)
		}
	}
	// Nothing to read: no panic, nothing invented.
	if r := NewSampler(nil, Options{Root: t.TempDir()}).Read(); r.SoCTempC != nil || r.DriveTempC != nil || r.Throttled != "" {
		t.Errorf("empty root gave %+v", r)
	}
}
