package flash

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit/lab"
)

func full(t *testing.T, d *cardDev, o FullOptions) (*Result, error) {
	t.Helper()
	o.Scan.SizeBytes = d.c.Size()
	o.Probe.SizeBytes = d.c.Size()
	if o.Probe.MaxFlushBytes == 0 {
		o.Probe.MaxFlushBytes = 16 * mib
	}
	return Full(context.Background(), d, o)
}

// TestScanUnreadableStretches: stretches that fail every read, at a request boundary, inside
// one, and one long enough to make the first pass skip (doubling), are found with their
// edges exact to the block; every other byte reads, and the card is left as it was.
func TestScanUnreadableStretches(t *testing.T) {
	bad := []lab.BadRegion{
		{OffsetBytes: 8 * mib, LengthBytes: 4 * kib, Kind: lab.BadIOError},                // one block at a request's start
		{OffsetBytes: 21*mib + 12*kib, LengthBytes: 300 * kib, Kind: lab.BadIOError},      // inside a request
		{OffsetBytes: 64*mib - 8*kib, LengthBytes: 40*mib + 20*kib, Kind: lab.BadIOError}, // many requests
	}
	for _, mode := range []string{ScanRead, ScanRewrite, ScanDestructive} {
		t.Run(mode, func(t *testing.T) {
			d := newCardDev(t, lab.CardSpec{ClaimedBytes: 160 * mib, BadRegions: bad})
			state := digest(t, d.c)
			o := FullOptions{ReadOnly: mode == ScanRead, Scan: ScanOptions{Mode: mode}}
			if mode == ScanRewrite {
				o.Scan.Journal = filepath.Join(t.TempDir(), "journal")
			}
			if mode == ScanDestructive {
				o.Probe.Destructive = true
			}
			r, err := full(t, d, o)
			if err != nil {
				t.Fatalf("full: %v", err)
			}
			if r.Verdict != Damaged || r.Mode != ModeFull {
				t.Fatalf("verdict %s mode %s, want damaged full (%+v)", r.Verdict, r.Mode, r.Surface)
			}
			var io []Region
			for _, g := range r.BadRegions {
				if g.Kind == FailureIOError {
					io = append(io, g)
				}
			}
			if len(io) != len(bad) {
				t.Fatalf("bad regions %+v, want %d", r.BadRegions, len(bad))
			}
			for i, b := range bad {
				if io[i].StartByte != b.OffsetBytes || io[i].EndByte != b.OffsetBytes+b.LengthBytes || !io[i].Exact {
					t.Errorf("region %d: %+v, want [%d, %d) exact", i, io[i], b.OffsetBytes, b.OffsetBytes+b.LengthBytes)
				}
			}
			sf := r.Surface
			var badBytes int64
			for _, b := range bad {
				badBytes += b.LengthBytes
			}
			if sf.BadBytes != badBytes || sf.UnreadBytes != 0 || sf.OKBytes != 160*mib-badBytes || sf.Stopped != "" {
				t.Errorf("surface ok %d bad %d unread %d stopped %q, want ok %d bad %d", sf.OKBytes, sf.BadBytes, sf.UnreadBytes, sf.Stopped, 160*mib-badBytes, badBytes)
			}
			if mode != ScanDestructive && digest(t, d.c) != state {
				t.Error("the card's content changed")
			}
			if mode == ScanRewrite && !fileGone(o.Scan.Journal) {
				t.Error("the journal was left behind")
			}
			t.Logf("%s: %d bad regions, error time %.3f s, read %s, wrote %s", mode, len(r.BadRegions), sf.ErrorS, sizeText(r.BytesRead), sizeText(r.BytesWritten))
		})
	}
}

// TestScanErrorBudget: with no time for errors, the failed requests are bad (not exact) and
// what was skipped is unread, not bad.
func TestScanErrorBudget(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 128 * mib, BadRegions: []lab.BadRegion{{OffsetBytes: 40 * mib, LengthBytes: 30 * mib, Kind: lab.BadIOError}}})
	r, err := full(t, d, FullOptions{ReadOnly: true, Scan: ScanOptions{ErrorBudget: 1}})
	if err != nil {
		t.Fatal(err)
	}
	sf := r.Surface
	if r.Verdict != Damaged || sf.Stopped != StopErrorBudget {
		t.Fatalf("verdict %s stopped %q, want damaged, error-budget", r.Verdict, sf.Stopped)
	}
	if sf.UnreadBytes == 0 || len(sf.Unread) == 0 || sf.Unread[0].Kind != RegionUnread {
		t.Errorf("unread %d %+v, want the skipped stretches", sf.UnreadBytes, sf.Unread)
	}
	for _, g := range r.BadRegions {
		if g.Exact {
			t.Errorf("region %+v exact without trimming", g)
		}
		if g.StartByte < 40*mib-DefaultScanRequestBytes || g.EndByte > 70*mib+DefaultScanRequestBytes {
			t.Errorf("region %+v outside the bad stretch", g)
		}
	}
	if sf.OKBytes+sf.BadBytes+sf.UnreadBytes != 128*mib {
		t.Errorf("ok %d + bad %d + unread %d != the disk", sf.OKBytes, sf.BadBytes, sf.UnreadBytes)
	}
}

// TestScanDeviceGone: a card that stops answering half-way ends the scan with no verdict, the
// map so far and the rest unread.
func TestScanDeviceGone(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 128 * mib})
	d.c.BreakAfter(10)
	r, err := full(t, d, FullOptions{ReadOnly: true})
	if !errors.Is(err, ErrDeviceGone) {
		t.Fatalf("err %v, want ErrDeviceGone", err)
	}
	sf := r.Surface
	if r.Verdict != Unknown || sf.Stopped != StopDeviceGone || sf.OKBytes != 10*DefaultScanRequestBytes || sf.UnreadBytes == 0 {
		t.Errorf("verdict %s stopped %q ok %d unread %d, want unknown, device-gone, 10 requests read", r.Verdict, sf.Stopped, sf.OKBytes, sf.UnreadBytes)
	}
}

// TestScanInterrupted: cancelled, the scan stops with the map so far; rewrite mode leaves
// nothing overwritten and no journal.
func TestScanInterrupted(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 64 * mib})
	state := digest(t, d.c)
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel, d.cancelAt = cancel, 20
	jp := filepath.Join(t.TempDir(), "journal")
	sr, err := Scan(ctx, d, ScanOptions{SizeBytes: 64 * mib, Mode: ScanRewrite, Journal: jp})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err %v, want ErrInterrupted", err)
	}
	if sr.Surface.Stopped != StopInterrupted || sr.Surface.OKBytes == 0 || sr.Surface.UnreadBytes == 0 {
		t.Errorf("surface %+v, want interrupted part way", sr.Surface)
	}
	if digest(t, d.c) != state || !fileGone(jp) || sr.RecoveryFile != "" {
		t.Error("an interrupted rewrite left the card changed or its journal behind")
	}
}

// TestScanRewriteCorrupt: a stretch that returns data with bits changed reads without error;
// the rewrite scan's pattern shows it, exact to the block.
func TestScanRewriteCorrupt(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 64 * mib, BadRegions: []lab.BadRegion{{OffsetBytes: 30 * mib, LengthBytes: 64 * kib, Kind: lab.BadCorrupt}}})
	jp := filepath.Join(t.TempDir(), "journal")
	sr, err := Scan(context.Background(), d, ScanOptions{SizeBytes: 64 * mib, Mode: ScanRewrite, Journal: jp})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.BadRegions) != 1 || sr.BadRegions[0].StartByte != 30*mib || sr.BadRegions[0].EndByte != 30*mib+64*kib || sr.BadRegions[0].Kind != FailureCorrupt {
		t.Errorf("bad regions %+v, want the corrupt 64 KiB at 30 MiB", sr.BadRegions)
	}
}

func fileGone(p string) bool {
	_, err := os.Stat(p)
	return errors.Is(err, os.ErrNotExist)
}

// TestScanRewriteKeepsJournal: when a request's original cannot be written back (the card
// died between the pattern and the write-back), the scan stops, the journal keeps that one
// request, and RestoreJournal puts the card back as it was.
func TestScanRewriteKeepsJournal(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 64 * mib})
	state := digest(t, d.c)
	d.c.HoldWrites(2*5 + 1) // five requests done, the sixth's pattern written; its write-back held
	go func() {
		for d.c.WritesHeld() == 0 {
			time.Sleep(time.Millisecond)
		}
		d.c.Break(true)
		d.c.ReleaseWrites(true)
	}()
	jp := filepath.Join(t.TempDir(), "journal")
	sr, err := Scan(context.Background(), d, ScanOptions{SizeBytes: 64 * mib, Mode: ScanRewrite, Journal: jp})
	if err == nil || sr == nil || sr.RecoveryFile != jp || fileGone(jp) {
		t.Fatalf("err %v, recovery %q: want the scan stopped with its journal kept", err, sr.RecoveryFile)
	}
	if digest(t, d.c) == state {
		t.Fatal("the card holds what it held: the test did not leave a pattern behind")
	}
	d.c.Break(false)
	r, c, err := RestoreJournal(d, 64*mib, "", jp)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if c.Blocks() != DefaultScanRequestBytes/maxJournalEntryBytes || r.Bytes != DefaultScanRequestBytes {
		t.Errorf("the journal held %d entries, %d bytes: want one request", c.Blocks(), r.Bytes)
	}
	if digest(t, d.c) != state {
		t.Error("after --restore the card differs from before the scan")
	}
}

// TestScanRewriteWriteRefused: a stretch that reads but refuses every write is bad, the scan
// goes on past it, and the card holds what it held.
func TestScanRewriteWriteRefused(t *testing.T) {
	d := &refusingDev{cardDev: newCardDev(t, lab.CardSpec{ClaimedBytes: 32 * mib}), from: 12 * mib, to: 13 * mib}
	state := digest(t, d.c)
	jp := filepath.Join(t.TempDir(), "journal")
	sr, err := Scan(context.Background(), d, ScanOptions{SizeBytes: 32 * mib, Mode: ScanRewrite, Journal: jp})
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	if len(sr.BadRegions) != 1 || sr.BadRegions[0].StartByte != 12*mib || sr.BadRegions[0].EndByte != 13*mib || sr.Surface.OKBytes != 31*mib {
		t.Errorf("bad %+v ok %d, want [12 MiB, 13 MiB) bad and the rest good", sr.BadRegions, sr.Surface.OKBytes)
	}
	if digest(t, d.c) != state || !fileGone(jp) {
		t.Error("the card changed or the journal was left")
	}
}

// refusingDev fails every write touching [from, to) with EIO; reads succeed.
type refusingDev struct {
	*cardDev
	from, to int64
}

func (d *refusingDev) WriteAt(p []byte, off int64) (int, error) {
	if off < d.to && off+int64(len(p)) > d.from {
		return 0, syscall.EIO
	}
	return d.cardDev.WriteAt(p, off)
}
