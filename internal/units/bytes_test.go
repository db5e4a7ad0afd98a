package units

import "testing"

func TestSI(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"},
		{999, "999 B"},
		{1000, "1.0 kB"},
		{388_400_000, "388.4 MB"},
		{64_000_000_000, "64.0 GB"},
		{2_000_398_934_016, "2.00 TB"},
	}
	for _, tt := range tests {
		if got := SI(tt.n); got != tt.want {
			t.Errorf("SI(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := SI(uint64(1500)); got != "1.5 kB" {
		t.Errorf("SI(uint64 1500) = %q, want 1.5 kB", got)
	}
}

func TestBinary(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{4096, "4096 bytes"},
		{512 * MiB, "512 MiB"},
		{920*MiB + MiB/2, "920.5 MiB"},
		{6 * GiB, "6 GiB"},
		{3 * GiB / 2, "1.5 GiB"},
	}
	for _, tt := range tests {
		if got := Binary(tt.n); got != tt.want {
			t.Errorf("Binary(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
