package cli

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

// A disk's identity for its journal follows the card, not its /dev name: the same SD card in
// mmcblk0 and mmcblk1 is one disk, another card of the same product is another.
func TestDiskIdentity(t *testing.T) {
	sd := func(dev, serial string) *probe.Report {
		return &probe.Report{Device: &probe.Device{Name: dev, Path: "/dev/" + dev, Class: "sd", CapacityBytes: 32e9},
			SD: &probe.SD{ManfID: 0x1b, OEMID: "SM", Name: "EC2QT", SerialHash: serial}}
	}
	loop := func(dev, file string) *probe.Report {
		return &probe.Report{Device: &probe.Device{Name: dev, Path: "/dev/" + dev, Class: "loop", CapacityBytes: 1 << 30},
			Loop: &probe.Loop{BackingFile: file}}
	}
	for _, tc := range []struct {
		name string
		a, b *probe.Report
		same bool
	}{
		{"one card, replugged", sd("mmcblk0", "ab12"), sd("mmcblk1", "ab12"), true},
		{"two cards of one product", sd("mmcblk0", "ab12"), sd("mmcblk0", "cd34"), false},
		{"one loop file, another loop device", loop("loop3", "/srv/card.img"), loop("loop7", "/srv/card.img (deleted)"), true},
		{"two loop files", loop("loop3", "/srv/a.img"), loop("loop3", "/srv/b.img"), false},
		{"unidentified, same size", nil, nil, true},
	} {
		a, b := diskIdentity(tc.a, 8e9), diskIdentity(tc.b, 8e9)
		if (a == b) != tc.same {
			t.Errorf("%s: %q and %q", tc.name, a, b)
		}
	}
	if diskIdentity(nil, 8e9) == diskIdentity(nil, 16e9) {
		t.Error("two unidentified disks of different sizes share an identity")
	}
}
