package advice

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

func ids(fs []record.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID+":"+string(f.Severity))
	}
	return out
}

// check runs one rule and compares "id:severity" lists; every finding must say how to fix it.
func check(t *testing.T, name string, rl rule, r *probe.Report, want ...string) {
	t.Helper()
	got := rl(r)
	if strings.Join(ids(got), " ") != strings.Join(want, " ") {
		t.Errorf("%s: got %v, want %v", name, ids(got), want)
	}
	for _, f := range got {
		if f.Message == "" || f.Fix == "" || f.Evidence == "" {
			t.Errorf("%s: finding %s lacks message, fix or evidence: %+v", name, f.ID, f)
		}
	}
}

func TestEvaluateNilAndEmpty(t *testing.T) {
	if got := Evaluate(nil); got == nil || len(got) != 0 {
		t.Errorf("Evaluate(nil) = %#v, want an empty non-nil slice", got)
	}
	if got := Evaluate(&probe.Report{}); got == nil || len(got) != 0 {
		t.Errorf("Evaluate(empty) = %v", got)
	}
}

// TestEvaluateFixtures runs every rule on the probe fixtures: each configuration shows exactly
// the findings its hardware deserves, worst first.
func TestEvaluateFixtures(t *testing.T) {
	tests := []struct {
		fixture, target string
		want            []string
	}{
		{"pi4-usb3-ssd-uas", "/", nil},
		{"pi4-usb3-ssd-in-usb2-port", "/", []string{"usb-port-usb2:bad"}},
		{"pi3bplus-flash-usb-storage", "/media/pi/USBDATA", []string{"undervoltage:warn", "throttled:warn"}},
		{"pi4-microsd", "/", nil},
		{"pi5-nvme-gen2", "/", nil},
		{"pi5-nvme-gen3", "/", nil},
		{"x86-sata-nvme", "/", nil}, // intel_pstate's powersave is dynamic: no governor finding
		{"x86-sata-nvme", "/srv/data", nil},
		{"pi4-flash-sector63", "/media/usb0", []string{"mount-sync:bad", "partition-misaligned:warn", "fs-fat:warn"}},
	}
	for _, tc := range tests {
		r, err := probe.Probe(tc.target, probe.Options{Root: filepath.Join("..", "probe", "testdata", tc.fixture)})
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		got := ids(Evaluate(r))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: findings %v, want %v", tc.fixture, tc.target, got, tc.want)
		}
	}
}
