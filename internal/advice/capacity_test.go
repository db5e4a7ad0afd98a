package advice

import (
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
)

func TestVerifyFindings(t *testing.T) {
	fb := int64(4 << 30)
	fake := &flash.Result{Verdict: flash.Fake, Mode: flash.ModeProbe, ClaimedBytes: 64e9, UsableBytes: fb, FirstBadByte: &fb,
		Failure: flash.FailureWrap, FailureDetail: "writes land earlier", PartitionFix: &flash.PartitionFix{StartSector: 8192, Sectors: 8380416}}
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	got := VerifyFindings(&Verified{ID: "0193abc", At: at, Result: fake}, "/dev/sdb")
	if strings.Join(ids(got), " ") != "fake-capacity:bad" {
		t.Fatalf("fake: %v", ids(got))
	}
	f := got[0]
	for _, want := range []string{"64.0 GB", "4.3 GB"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if !strings.Contains(f.Fix, "sfdisk /dev/sdb") || !strings.Contains(f.Evidence, "0193abc") {
		t.Errorf("fix %q / evidence %q", f.Fix, f.Evidence)
	}
	damaged := &flash.Result{Verdict: flash.Damaged, Mode: flash.ModeFill, ClaimedBytes: 1e9, UsableBytes: 1e9, Failure: flash.FailureIOError}
	if got := VerifyFindings(&Verified{ID: "x", At: at, Result: damaged}, ""); strings.Join(ids(got), " ") != "flash-damaged:bad" {
		t.Errorf("damaged: %v", ids(got))
	}
	for _, v := range []*Verified{nil, {ID: "y", At: at}, {ID: "z", At: at, Result: &flash.Result{Verdict: flash.Genuine}}} {
		if got := VerifyFindings(v, "/dev/sdb"); len(got) != 0 {
			t.Errorf("%+v: %v, want none", v, ids(got))
		}
	}
}

func TestEraseBlockAlignment(t *testing.T) {
	g := &flash.Geometry{EraseBlockBytes: 4 << 20, Confidence: "high", Reason: "step"}
	parts := []probe.Partition{{Name: "mmcblk0p1", StartBytes: 8192 * 512}, {Name: "mmcblk0p2", StartBytes: 1056768 * 512}, {Name: "mmcblk0p3", StartBytes: 63 * 512}}
	got := EraseBlockAlignment(parts, g, "/dev/mmcblk0")
	// p1 at 4 MiB and p2 at 516 MiB (129 × 4 MiB) are aligned; p3 at sector 63 is not.
	if strings.Join(ids(got), " ") != "partition-erase-block:warn" || !strings.Contains(got[0].Message, "mmcblk0p3") {
		t.Fatalf("got %v", got)
	}
	if !strings.Contains(got[0].Fix, "sector 8192") {
		t.Errorf("fix %q does not give the next 4 MiB boundary (sector 8192)", got[0].Fix)
	}
	for _, f := range got {
		if !strings.Contains(f.Fix, "stride=1024,stripe-width=1024") {
			t.Errorf("fix %q lacks the ext4 values for 4 MiB", f.Fix)
		}
	}
	if got := EraseBlockAlignment(parts, &flash.Geometry{Confidence: "unknown"}, "/dev/mmcblk0"); len(got) != 0 {
		t.Errorf("unknown estimate gave %v", ids(got))
	}
}

func TestUSBCapacitySuspect(t *testing.T) {
	rep := func(class string, size uint64, maxMbps int) *probe.Report {
		return &probe.Report{Device: &probe.Device{Path: "/dev/sdb", Class: class, CapacityBytes: size},
			USB: &probe.USB{VID: "048d", PID: "1234", MaxSpeedMbps: maxMbps, MaxSpeedSource: "bcdUSB"}}
	}
	check(t, "2TB USB 2.0 stick", usbCapacitySuspect, rep(probe.ClassUSBFlash, 2e12, 480), "usb-capacity-suspect:warn")
	check(t, "2TB USB 3 stick", usbCapacitySuspect, rep(probe.ClassUSBFlash, 2e12, 5000))
	check(t, "64GB USB 2.0 stick", usbCapacitySuspect, rep(probe.ClassUSBFlash, 64e9, 480))
	check(t, "2TB USB 2.0 SSD enclosure", usbCapacitySuspect, rep(probe.ClassUSBSSD, 2e12, 480))
	check(t, "speed unknown", usbCapacitySuspect, rep(probe.ClassUSBFlash, 2e12, 0))
}
