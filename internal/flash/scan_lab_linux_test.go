package flash

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit/lab"
)

// fullDevice runs Full on an emulated card's loop device, through the kernel.
func fullDevice(t *testing.T, dev string, o FullOptions) (*Result, error) {
	t.Helper()
	b, err := OpenBlock(dev, !o.ReadOnly, "")
	if err != nil {
		t.Fatalf("open %s: %v", dev, err)
	}
	defer b.Close()
	o.Probe.SizeBytes, o.Probe.LogicalBlockBytes = b.SizeBytes, b.LogicalBlockBytes
	o.Scan.SizeBytes, o.Scan.LogicalBlockBytes = b.SizeBytes, b.LogicalBlockBytes
	if o.Probe.MaxFlushBytes == 0 {
		o.Probe.MaxFlushBytes = 16 * mib
	}
	return Full(context.Background(), b, o)
}

// TestFullEmulatedCards runs the full verify through the kernel (O_DIRECT on a loop device on
// a FUSE card): an unreadable stretch is damage, found within a few MiB of where it is, with
// every readable byte as it was; a slow zone is in the series and slow_zones and is not
// damage; a fake keeps the probe's verdict; an honest card is genuine with nothing found.
func TestFullEmulatedCards(t *testing.T) {
	t.Run("unreadable", func(t *testing.T) {
		badAt, badLen := 100*mib+12*kib, 3*mib
		d := upCard(t, lab.CardSpec{ClaimedBytes: 256 * mib, ReadMBps: 400, WriteMBps: 200,
			BadRegions: []lab.BadRegion{{OffsetBytes: badAt, LengthBytes: badLen, Kind: lab.BadIOError}}}, lab.CardAttach{})
		state := d.Card.Digest()
		r, err := fullDevice(t, d.Dev, FullOptions{})
		if err != nil {
			t.Fatalf("full: %v", err)
		}
		if r.Verdict != Damaged || r.Mode != ModeFull {
			t.Fatalf("verdict %s mode %s, want damaged full", r.Verdict, r.Mode)
		}
		found := false
		for _, g := range r.BadRegions {
			if g.Kind == FailureIOError && abs(g.StartByte-badAt) <= 2*mib && abs(g.EndByte-(badAt+badLen)) <= 2*mib {
				found = true
			}
		}
		if !found {
			t.Errorf("bad regions %+v, want one within 2 MiB of [%d, %d)", r.BadRegions, badAt, badAt+badLen)
		}
		if d.Card.Digest() != state {
			t.Error("the card's readable content changed")
		}
		t.Logf("bad regions %+v; %.1f MB/s; %.2f s", r.BadRegions, r.Surface.ReadMBPerS, r.DurationS)
	})
	t.Run("slow-zone", func(t *testing.T) {
		zoneAt, zoneLen := 64*mib, 32*mib
		d := upCard(t, lab.CardSpec{ClaimedBytes: 256 * mib, ReadMBps: 200,
			SlowZones: []lab.SlowZone{{OffsetBytes: zoneAt, LengthBytes: zoneLen, ReadMBps: 20}}}, lab.CardAttach{})
		r, err := fullDevice(t, d.Dev, FullOptions{ReadOnly: true})
		if err != nil {
			t.Fatalf("full: %v", err)
		}
		if r.Verdict != Readable || len(r.BadRegions) > 0 {
			t.Fatalf("verdict %s bad %+v, want readable with no damage", r.Verdict, r.BadRegions)
		}
		found := false
		for _, z := range r.SlowZones {
			if abs(z.StartByte-zoneAt) <= 8*mib && abs(z.EndByte-(zoneAt+zoneLen)) <= 8*mib {
				found = true
			}
		}
		if !found {
			t.Errorf("slow zones %+v, want one within 8 MiB of [%d, %d)", r.SlowZones, zoneAt, zoneAt+zoneLen)
		}
		var in, out []float64
		for _, p := range r.Surface.Series {
			if p.OffsetBytes >= zoneAt && p.OffsetBytes+p.Bytes <= zoneAt+zoneLen {
				in = append(in, p.ReadMBPerS)
			} else if p.OffsetBytes+p.Bytes <= zoneAt || p.OffsetBytes >= zoneAt+zoneLen {
				out = append(out, p.ReadMBPerS)
			}
		}
		if len(in) == 0 || len(out) == 0 || median(in) > median(out)/2 {
			t.Errorf("series inside the zone %v, outside %v: the zone does not show", in, out)
		}
		t.Logf("slow zones %+v; median %.1f MB/s", r.SlowZones, r.Surface.MedianMBPerS)
	})
	t.Run("fake", func(t *testing.T) {
		d := upCard(t, lab.CardSpec{ClaimedBytes: 256 * mib, RealBytes: 64 * mib, Failure: lab.FailWrap}, lab.CardAttach{})
		state := d.Card.Digest()
		r, err := fullDevice(t, d.Dev, FullOptions{})
		if err != nil {
			t.Fatalf("full: %v", err)
		}
		checkFake(t, r, 64*mib, FailureWrap)
		if r.Surface == nil || r.Surface.ScannedBytes != r.UsableBytes {
			t.Errorf("surface %+v, want the usable %d scanned", r.Surface, r.UsableBytes)
		}
		if d.Card.Digest() != state {
			t.Error("the card's content changed")
		}
	})
	t.Run("honest", func(t *testing.T) {
		d := upCard(t, lab.CardSpec{ClaimedBytes: 128 * mib}, lab.CardAttach{})
		state := d.Card.Digest()
		sum := deviceSHA(t, d.Dev)
		r, err := fullDevice(t, d.Dev, FullOptions{})
		if err != nil {
			t.Fatalf("full: %v", err)
		}
		if r.Verdict != Genuine || len(r.BadRegions) > 0 || r.Surface.OKBytes != 128*mib || r.Surface.Stopped != "" {
			t.Fatalf("verdict %s bad %+v surface %+v, want genuine, all read", r.Verdict, r.BadRegions, r.Surface)
		}
		if n := len(r.Surface.Series); n < 16 || n > 2*seriesPoints {
			t.Errorf("series of %d points", n)
		}
		if d.Card.Digest() != state || deviceSHA(t, d.Dev) != sum {
			t.Error("the card's content changed")
		}
	})
	t.Run("vanishes", func(t *testing.T) {
		d := upCard(t, lab.CardSpec{ClaimedBytes: 256 * mib, ReadMBps: 200}, lab.CardAttach{})
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for d.Card.Counters().BytesRead < 100*mib {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
			d.Card.Break(true)
		}()
		r, err := fullDevice(t, d.Dev, FullOptions{ReadOnly: true})
		d.Card.Break(false)
		if !errors.Is(err, ErrDeviceGone) {
			t.Fatalf("err %v, want the device gone", err)
		}
		if r.Verdict != Unknown || r.Surface.Stopped != StopDeviceGone || r.Surface.OKBytes < 64*mib || r.Surface.UnreadBytes == 0 {
			t.Errorf("verdict %s surface %+v, want unknown with the map so far", r.Verdict, r.Surface)
		}
	})
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
