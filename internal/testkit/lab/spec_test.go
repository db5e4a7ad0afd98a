package lab

import (
	"strings"
	"testing"
)

func TestSpecWithDefaults(t *testing.T) {
	tests := []struct {
		name    string
		spec    Spec
		wantErr string // substring; "" means valid
		wantMB  int
	}{
		{"defaults", Spec{Name: "d"}, "", defaultSizeMB},
		{"ext4 with limits", Spec{Name: "sd-card_1", SizeMB: 64, ReadIOPS: 2600, WriteMBps: 20, FS: "ext4"}, "", 64},
		{"no name", Spec{}, "drive name", 0},
		{"slash in name", Spec{Name: "../x"}, "drive name", 0},
		{"negative size", Spec{Name: "d", SizeMB: -1}, "size", 0},
		{"too big", Spec{Name: "d", SizeMB: maxSizeMB + 1}, "size", 0},
		{"ext4 too small", Spec{Name: "d", SizeMB: 8, FS: "ext4"}, "at least 16", 0},
		{"unknown fs", Spec{Name: "d", FS: "btrfs"}, "not supported", 0},
		{"negative iops", Spec{Name: "d", WriteIOPS: -5}, "write IOPS", 0},
		{"negative bandwidth", Spec{Name: "d", ReadMBps: -1}, "read MB/s", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.spec.withDefaults()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("withDefaults: %v", err)
				}
				if got.SizeMB != tt.wantMB {
					t.Errorf("SizeMB = %d, want %d", got.SizeMB, tt.wantMB)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("withDefaults error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseThrottleRules(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    map[string]uint64
		wantErr bool
	}{
		{"empty", "", map[string]uint64{}, false},
		{"two rules", "7:0 2600\n259:3 40000000\n", map[string]uint64{"7:0": 2600, "259:3": 40000000}, false},
		{"no value", "7:0\n", nil, true},
		{"bad number", "7:0 lots\n", nil, true},
		{"bad device", "loop0 5\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseThrottleRules(tt.content)
			if (err != nil) != tt.wantErr {
				t.Fatalf("parseThrottleRules error = %v, want error %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("rule %s = %d, want %d", k, got[k], v)
				}
			}
		})
	}
}

func TestLimitsToValues(t *testing.T) {
	got := limitsToValues(2600, 700, 40, 20)
	want := throttleValues{2600, 700, 40_000_000, 20_000_000}
	if got != want {
		t.Errorf("limitsToValues = %v, want %v", got, want)
	}
}
