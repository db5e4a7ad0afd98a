package report

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// TestVerifyGolden prints `iomark verify` for a fake found by the probe, a damaged drive and
// a genuine one found by a fill.
func TestVerifyGolden(t *testing.T) {
	fb := int64(4273995776)
	fake := &flash.Result{Verdict: flash.Fake, Mode: flash.ModeProbe, ClaimedBytes: 32000000000, UsableBytes: fb, FirstBadByte: &fb,
		Failure: flash.FailureWrap, FailureDetail: "writes at and past 3.98 GiB land 3.98 GiB earlier, on data near the start",
		WrapBytes: fb, GranularityBytes: 4096, BytesWritten: 8200000, BytesRead: 149800000, DurationS: 16.2, VerdictS: 11.2,
		Restore:      &flash.Restore{Blocks: 1100, Bytes: 4505600, Verified: true},
		PartitionFix: &flash.PartitionFix{StartSector: 8192, Sectors: 8339456}}
	bad := int64(314593280)
	damaged := &flash.Result{Verdict: flash.Damaged, Mode: flash.ModeProbe, ClaimedBytes: 1073741824, UsableBytes: 1073741824,
		FirstBadByte: &bad, Failure: flash.FailureIOError, FailureDetail: "reads or writes fail with I/O errors",
		BadRegions:   []flash.Region{{StartByte: bad, EndByte: 343937024, Kind: flash.FailureIOError}},
		BytesWritten: 2600000, BytesRead: 21000000, DurationS: 0.9,
		Restore: &flash.Restore{Blocks: 600, Bytes: 2457600, Failed: 3, RecoveryFile: "/root/.local/share/iomark/verify-restore-sdb.bin"}}
	fill := &flash.Result{Verdict: flash.Genuine, Mode: flash.ModeFill, ClaimedBytes: 897581056, UsableBytes: 897581056,
		BytesWritten: 897581056, BytesRead: 897581056, DurationS: 77.7, Notes: []string{"the filesystem ran out of room after 897.6 MB"},
		Fill: &flash.FillReport{Files: 1, OKBytes: 897581056, WriteMBPerS: 17.9, ReadMBPerS: 32.7, Series: []flash.SeriesPoint{
			{OffsetBytes: 0, Bytes: 300e6, WriteMBPerS: 60}, {OffsetBytes: 300e6, Bytes: 300e6, WriteMBPerS: 12},
			{OffsetBytes: 600e6, Bytes: 200e6, WriteMBPerS: 12.5}, {OffsetBytes: 800e6, Bytes: 97581056, WriteMBPerS: 12.1}}}}
	var b bytes.Buffer
	for _, c := range []struct {
		res    *flash.Result
		target string
		id     string
	}{{fake, "/dev/sdb", "0e99b4904b96"}, {damaged, "/dev/sdc", ""}, {fill, "/media/pi/CARD", "1a2b3c4d5e6f"}, {fullSample(), "/dev/sdd", "77aa00bb11cc"}} {
		if err := Verify(&b, c.res, c.target, c.id); err != nil {
			t.Fatal(err)
		}
		b.WriteString("----\n")
	}
	golden(t, "verify.golden", b.Bytes())
	if err := Verify(&b, nil, "/dev/sdb", ""); err == nil {
		t.Error("a nil result printed")
	}
}

func TestGeometryGolden(t *testing.T) {
	g := &flash.Geometry{EraseBlockBytes: 4 << 20, Confidence: "high", StepUS: 408, NoiseUS: 5.9, ReadBytes: 8192,
		Reason: "reads across a 4.0 MiB boundary cost 408 µs more (69 standard errors), across smaller ones nothing comparable"}
	for i, a := 0, int64(16<<10); a <= 128<<20; i, a = i+1, a*2 {
		c := flash.AlignTiming{AlignBytes: a, PreUS: 390, OnUS: 395, PostUS: 388, DiffUS: 6, SEUS: 5}
		if a >= 4<<20 {
			c.OnUS, c.DiffUS = 798, 410
		}
		g.Candidates = append(g.Candidates, c)
	}
	yes, no := true, false
	g.Registers = []flash.RegisterHint{{Name: "SD AU_SIZE (status register)", Bytes: 4 << 20, Agrees: &yes}, {Name: "preferred_erase_size (kernel)", Bytes: 8 << 20, Agrees: &no}}
	parts := []probe.Partition{{Name: "mmcblk0p1", StartBytes: 8192 * 512}, {Name: "mmcblk0p2", StartBytes: 63 * 512}}
	findings := []record.Finding{{ID: "partition-erase-block", Severity: record.SeverityWarn, Message: "partition mmcblk0p2 starts at byte 32256", Fix: "recreate it at sector 8192", Evidence: "start 32256"}}
	var b bytes.Buffer
	if err := Geometry(&b, "/dev/mmcblk0", 63864569856, g, parts, findings); err != nil {
		t.Fatal(err)
	}
	unknown := &flash.Geometry{Confidence: "unknown", Reason: "no size from which every boundary costs extra", ReadBytes: 8192,
		Candidates: []flash.AlignTiming{{AlignBytes: 16 << 10, PreUS: 400, OnUS: 401, PostUS: 399, DiffUS: 1, SEUS: 6}}}
	b.WriteString("----\n")
	if err := Geometry(&b, "/dev/sda", 32e9, unknown, nil, nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "geometry.golden", b.Bytes())
}

// TestVerifyFillSaysWhatItChecked: a fill limited by --size is genuine only as far as it
// checked, and says which bytes it did not; a fill that found bad bytes counts them all, so
// its read-back never contradicts its verdict.
func TestVerifyFillSaysWhatItChecked(t *testing.T) {
	partial := &flash.Result{Verdict: flash.Genuine, Mode: flash.ModeFill, ClaimedBytes: 64 << 20, UsableBytes: 64 << 20,
		BytesWritten: 64 << 20, BytesRead: 64 << 20, DurationS: 5,
		Fill: &flash.FillReport{Files: 1, OKBytes: 64 << 20, FreeBytes: 900 << 20}}
	failed := &flash.Result{Verdict: flash.Damaged, Mode: flash.ModeFill, ClaimedBytes: 512 << 20, UsableBytes: 300 << 20,
		BytesWritten: 300 << 20, BytesRead: 300 << 20, DurationS: 9, Failure: flash.FailureIOError, FailureDetail: "reads or writes fail with I/O errors",
		Fill: &flash.FillReport{Files: 2, OKBytes: 300 << 20, FreeBytes: 600 << 20}}
	for _, c := range []struct {
		name          string
		res           *flash.Result
		want, notWant []string
	}{
		{"--size 64M", partial, []string{"GENUINE as far as checked — the 67.1 MB written and read back", "not checked: the other 876.6 MB of the 943.7 MB that were free and the space files already use"}, []string{"all 67.1 MB it claims"}},
		{"write errors", failed, []string{"DAMAGED", "of the 536.9 MB tested in 2 files: 314.6 MB intact, 0 B corrupted, 0 B overwritten, 0 B changed, 222.3 MB could not be written or read"}, []string{"GENUINE"}},
	} {
		var b bytes.Buffer
		if err := Verify(&b, c.res, "/media/pi/CARD", ""); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s:\n%s", c.name, b.String())
		for _, w := range c.want {
			if !bytes.Contains(b.Bytes(), []byte(w)) {
				t.Errorf("%s: lacks %q", c.name, w)
			}
		}
		for _, w := range c.notWant {
			if bytes.Contains(b.Bytes(), []byte(w)) {
				t.Errorf("%s: says %q", c.name, w)
			}
		}
	}
}

// fullSample is a full verify of a damaged 16 GB card: an unreadable stretch found exactly,
// one left untrimmed, a slow zone and a stretch not read.
func fullSample() *flash.Result {
	bad := int64(5_000_000_000)
	series := make([]flash.SeriesPoint, 0, 100)
	for i := int64(0); i < 100; i++ {
		rate := 42.0 + float64(i%7)/3
		if i >= 70 && i < 74 {
			rate = 9.5
		}
		series = append(series, flash.SeriesPoint{OffsetBytes: i * 160e6, Bytes: 160e6, ReadMBPerS: rate})
	}
	return &flash.Result{Verdict: flash.Damaged, Mode: flash.ModeFull, ClaimedBytes: 16e9, UsableBytes: 16e9,
		FirstBadByte: &bad, Failure: flash.FailureIOError, FailureDetail: "reads fail with I/O errors",
		BadRegions: []flash.Region{{StartByte: bad, EndByte: bad + 9_437_184, Kind: flash.FailureIOError, Exact: true},
			{StartByte: 9_000_000_000, EndByte: 9_004_194_304, Kind: flash.FailureIOError}},
		SlowZones: []flash.SlowZone{{StartByte: 11_200_000_000, EndByte: 11_840_000_000, ReadMBPerS: 9.5, MedianMBPerS: 43.1}},
		Surface: &flash.Surface{Mode: flash.ScanRead, RequestBytes: 4 << 20, ScannedBytes: 16e9, OKBytes: 16e9 - 13_631_488 - 64e6,
			BadBytes: 13_631_488, UnreadBytes: 64e6, ReadMBPerS: 41.8, MedianMBPerS: 43.1, Series: series,
			Unread: []flash.Region{{StartByte: 9_004_194_304, EndByte: 9_068_194_304, Kind: flash.RegionUnread}},
			ErrorS: 300.2, ErrorBudgetS: 300, DurationS: 410, Stopped: flash.StopErrorBudget},
		BytesWritten: 268e6, BytesRead: 16.3e9, DurationS: 430, VerdictS: 428,
		Restore: &flash.Restore{Blocks: 33000, Bytes: 135e6, Verified: true}}
}

// TestVerifyChart draws a full verify and a fill as PNG and SVG: an image of the chart's size,
// the shaded stretches named in the legend; a probe alone has nothing to draw.
func TestVerifyChart(t *testing.T) {
	for _, format := range []string{"png", "svg"} {
		var b bytes.Buffer
		if err := VerifyChart(&b, fullSample(), "/dev/sdd", format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		switch format {
		case "png":
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatalf("png: %v", err)
			}
			if w := img.Bounds().Dx(); w < 800 || w > 2000 {
				t.Errorf("png %d px wide", w)
			}
		case "svg":
			for _, want := range []string{"slow zone", "bad: unreadable", "not read", "median read", "DAMAGED"} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("svg lacks %q", want)
				}
			}
		}
		if format == "png" {
			if err := os.WriteFile(filepath.Join(t.TempDir(), "full.png"), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	probeOnly := &flash.Result{Verdict: flash.Genuine, Mode: flash.ModeProbe, ClaimedBytes: 1e9}
	if err := VerifyChart(io.Discard, probeOnly, "/dev/sdb", "png"); err == nil {
		t.Error("a probe without a surface was drawn")
	}
}
