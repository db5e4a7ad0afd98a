package flash

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/iomark/iomark/internal/testkit/lab"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// cardDev is a lab card used directly as a Device: the probe's algorithm without the kernel.
type cardDev struct {
	c *lab.Card
	// ops counts I/Os; when it reaches cancelAt, cancel is called (an interrupt at that moment).
	ops      atomic.Int64
	cancelAt int64
	cancel   func()
}

func (d *cardDev) tick() {
	if n := d.ops.Add(1); d.cancel != nil && n == d.cancelAt {
		d.cancel()
	}
}

func (d *cardDev) ReadAt(p []byte, off int64) (int, error) {
	d.tick()
	if err := d.c.ReadAt(p, off); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (d *cardDev) WriteAt(p []byte, off int64) (int, error) {
	d.tick()
	if err := d.c.WriteAt(p, off); err != nil {
		return 0, err
	}
	return len(p), nil
}

func newCardDev(t testing.TB, s lab.CardSpec) *cardDev {
	t.Helper()
	if s.Name == "" {
		s.Name = "t"
	}
	if s.Seed == 0 {
		s.Seed = rand.Uint64()
	}
	c, err := lab.NewCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return &cardDev{c: c}
}

// digest is the card's state (lab.Card.Digest): what a verify must leave unchanged.
func digest(t testing.TB, c *lab.Card) [32]byte {
	t.Helper()
	return c.Digest()
}

func probeCard(t testing.TB, d *cardDev, o ProbeOptions) *Result {
	t.Helper()
	o.SizeBytes = d.c.Size()
	if o.MaxFlushBytes == 0 {
		o.MaxFlushBytes = 16 * mib // keep the in-memory card small; the cache tests set their own
	}
	r, err := Probe(context.Background(), d, o)
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	return r
}

// checkFake asserts a fake verdict with the usable size within 1% of real (never above it)
// and the failure kind.
func checkFake(t *testing.T, r *Result, real int64, failure string) {
	t.Helper()
	if r.Verdict != Fake {
		t.Fatalf("verdict %s, want fake (result %+v)", r.Verdict, r)
	}
	if r.UsableBytes > real || float64(real-r.UsableBytes) > 0.01*float64(real) {
		t.Errorf("usable %d bytes, want within 1%% below the real %d", r.UsableBytes, real)
	}
	if r.Failure != failure {
		t.Errorf("failure %q (%s), want %q", r.Failure, r.FailureDetail, failure)
	}
	if r.FirstBadByte == nil || *r.FirstBadByte != r.UsableBytes {
		t.Errorf("first bad byte %v, want the usable size %d", r.FirstBadByte, r.UsableBytes)
	}
	if r.PartitionFix != nil && (r.PartitionFix.StartSector+r.PartitionFix.Sectors)*512 > r.UsableBytes {
		t.Errorf("partition fix %+v ends past the usable size", r.PartitionFix)
	}
}

// Claimed/real pairs: powers of two and odd sizes, small and large fractions real.
var fakePairs = []struct{ claimed, real int64 }{
	{1 * gib, 128 * mib},
	{512 * mib, 100*mib + 4*kib},
	{2 * gib, 1536 * mib},
	{256 * mib, 3*mib + 512*kib},
	{32 * gib, 4*gib - 20*mib},
}

func TestProbeFakes(t *testing.T) {
	for _, kind := range []lab.Failure{lab.FailWrap, lab.FailDropZeros, lab.FailDropOnes, lab.FailDropStale, lab.FailIOError} {
		want := map[lab.Failure]string{lab.FailWrap: FailureWrap, lab.FailIOError: FailureIOError}[kind]
		if want == "" {
			want = FailureDropped
		}
		for _, pair := range fakePairs {
			t.Run(fmt.Sprintf("%s/%s-of-%s", kind, sizeText(pair.real), sizeText(pair.claimed)), func(t *testing.T) {
				d := newCardDev(t, lab.CardSpec{ClaimedBytes: pair.claimed, RealBytes: pair.real, Failure: kind})
				before := digest(t, d.c)
				r := probeCard(t, d, ProbeOptions{})
				checkFake(t, r, pair.real, want)
				if kind == lab.FailWrap && r.WrapBytes != pair.real {
					t.Errorf("wrap distance %d, want %d", r.WrapBytes, pair.real)
				}
				if r.Restore == nil || !r.Restore.Verified || r.Restore.Failed != 0 {
					t.Errorf("restore %+v, want verified", r.Restore)
				}
				if after := digest(t, d.c); after != before {
					t.Error("the card's content changed")
				}
				t.Logf("usable %d of real %d; wrote %s, read %s; %s", r.UsableBytes, pair.real,
					sizeText(r.BytesWritten), sizeText(r.BytesRead), r.FailureDetail)
			})
		}
	}
}

func TestProbeGenuine(t *testing.T) {
	for _, size := range []int64{MinProbeBytes, 100*mib + 12*kib, 1 * gib, 8*gib - 512, 64 * gib} {
		t.Run(sizeText(size), func(t *testing.T) {
			d := newCardDev(t, lab.CardSpec{ClaimedBytes: size})
			before := digest(t, d.c)
			r := probeCard(t, d, ProbeOptions{})
			if r.Verdict != Genuine || r.UsableBytes != size || r.FirstBadByte != nil {
				t.Fatalf("verdict %s usable %d first bad %v, want genuine", r.Verdict, r.UsableBytes, r.FirstBadByte)
			}
			if after := digest(t, d.c); after != before {
				t.Error("the card's content changed")
			}
			t.Logf("wrote %s, read %s", sizeText(r.BytesWritten), sizeText(r.BytesRead))
		})
	}
}

// TestProbeCacheHides: a fake with a write cache reads its latest writes back from the
// cache; the probe must write enough to empty it and still find the real size.
func TestProbeCacheHides(t *testing.T) {
	for _, kind := range []lab.Failure{lab.FailDropZeros, lab.FailWrap, lab.FailDropStale} {
		for _, cache := range []int64{64 * kib, 4 * mib, 32 * mib} {
			t.Run(fmt.Sprintf("%s/cache-%s", kind, sizeText(cache)), func(t *testing.T) {
				const claimed, real = 2 * gib, 200 * mib
				d := newCardDev(t, lab.CardSpec{ClaimedBytes: claimed, RealBytes: real, Failure: kind, CacheBytes: cache})
				before := digest(t, d.c)
				r := probeCard(t, d, ProbeOptions{MaxFlushBytes: 128 * mib})
				want := FailureDropped
				if kind == lab.FailWrap {
					want = FailureWrap
				}
				checkFake(t, r, real, want)
				if after := digest(t, d.c); after != before {
					t.Error("the card's content changed")
				}
				t.Logf("cache seen %s; wrote %s, read %s", sizeText(r.CacheBytes), sizeText(r.BytesWritten), sizeText(r.BytesRead))
			})
		}
	}
}

// A genuine card with a cache is still genuine.
func TestProbeGenuineWithCache(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 1 * gib, CacheBytes: 8 * mib})
	r := probeCard(t, d, ProbeOptions{MaxFlushBytes: 64 * mib})
	if r.Verdict != Genuine {
		t.Fatalf("verdict %s, want genuine", r.Verdict)
	}
}

func TestProbeDamaged(t *testing.T) {
	for _, kind := range []lab.BadKind{lab.BadIOError, lab.BadCorrupt} {
		t.Run(string(kind), func(t *testing.T) {
			// A bad region wider than the survey spacing (sqrt(1 GiB × 64 KiB) = 8 MiB), so
			// a sample is sure to land in it.
			start := 300*mib + 20*kib
			d := newCardDev(t, lab.CardSpec{ClaimedBytes: 1 * gib,
				BadRegions: []lab.BadRegion{{OffsetBytes: start, LengthBytes: 24 * mib, Kind: kind}}})
			r := probeCard(t, d, ProbeOptions{})
			if r.Verdict != Damaged || r.UsableBytes != r.ClaimedBytes {
				t.Fatalf("verdict %s usable %d, want damaged with the whole size", r.Verdict, r.UsableBytes)
			}
			if r.FirstBadByte == nil || *r.FirstBadByte != start/probeBlockBytes*probeBlockBytes {
				t.Errorf("first bad byte %v, want %d", r.FirstBadByte, start)
			}
			if len(r.BadRegions) != 1 || r.BadRegions[0].EndByte <= start+24*mib-mib*10 {
				t.Errorf("bad regions %+v", r.BadRegions)
			}
		})
	}
}

func TestProbeDestructive(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 1 * gib, RealBytes: 300 * mib, Failure: lab.FailWrap})
	r := probeCard(t, d, ProbeOptions{Destructive: true})
	checkFake(t, r, 300*mib, FailureWrap)
	if r.Restore != nil {
		t.Errorf("a destructive probe restored %+v", r.Restore)
	}
}

func TestProbeRefusesTiny(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 512 * kib})
	if _, err := Probe(context.Background(), d, ProbeOptions{SizeBytes: 512 * kib}); err == nil {
		t.Error("a 512 KiB device was probed")
	}
	if _, err := Probe(context.Background(), d, ProbeOptions{SizeBytes: 512 * kib, LogicalBlockBytes: 1000}); err == nil {
		t.Error("a 1000-byte logical block was accepted")
	}
}

// TestProbeInterrupted cancels the probe at random moments: whatever it was doing, the card
// must hold what it held before.
func TestProbeInterrupted(t *testing.T) {
	for _, spec := range []lab.CardSpec{
		{ClaimedBytes: 1 * gib, RealBytes: 100 * mib, Failure: lab.FailWrap},
		{ClaimedBytes: 1 * gib, RealBytes: 100 * mib, Failure: lab.FailDropStale, CacheBytes: mib},
		{ClaimedBytes: 256 * mib},
	} {
		d := newCardDev(t, spec)
		ref := probeCard(t, d, ProbeOptions{})
		total := d.ops.Load()
		for i := 0; i < 8; i++ {
			at := 1 + rand.Int64N(total)
			t.Run(fmt.Sprintf("%s-%s/at-%d-of-%d", spec.Failure, sizeText(spec.ClaimedBytes), at, total), func(t *testing.T) {
				d := newCardDev(t, spec)
				before := digest(t, d.c)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				d.cancelAt, d.cancel = at, cancel
				o := ProbeOptions{SizeBytes: spec.ClaimedBytes, MaxFlushBytes: 16 * mib}
				r, err := Probe(ctx, d, o)
				if err != nil && !errors.Is(err, ErrInterrupted) {
					t.Fatalf("probe: %v", err)
				}
				if err != nil && (!r.Interrupted || r.Restore == nil || !r.Restore.Verified) {
					t.Errorf("interrupted result %+v restore %+v", r, r.Restore)
				}
				if after := digest(t, d.c); after != before {
					t.Error("the card's content changed")
				}
			})
		}
		_ = ref
	}
}

// TestProbeDeviceDies: the card fails every I/O from some point on (pulled out, or dead).
// The probe stops with an error that says what could not be restored, and saves it.
func TestProbeDeviceDies(t *testing.T) {
	spec := lab.CardSpec{ClaimedBytes: 1 * gib, RealBytes: 100 * mib, Failure: lab.FailDropZeros, Seed: 9}
	ref := newCardDev(t, spec)
	probeCard(t, ref, ProbeOptions{})
	ios := ref.c.Counters().Reads + ref.c.Counters().Writes
	d := newCardDev(t, spec)
	d.c.BreakAfter(ios / 2) // half-way through
	file := t.TempDir() + "/journal.bin"
	r, err := Probe(context.Background(), d, ProbeOptions{SizeBytes: gib, MaxFlushBytes: 16 * mib, Journal: file})
	if err == nil {
		t.Fatalf("probe of a dying card: no error; result %+v", r)
	}
	t.Log(err)
	if r.Restore == nil || r.Restore.Failed == 0 || r.Restore.RecoveryFile != file {
		t.Fatalf("restore %+v, want the journal %s kept", r.Restore, file)
	}
	// Once the card is back, the journal puts everything back, and goes — on that disk only.
	d.c.Break(false)
	w := d.c.Counters().Writes
	if _, _, err := RestoreJournal(d, gib/2, "", file); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("a journal restored to a disk of another size: %v", err)
	}
	if d.c.Counters().Writes != w {
		t.Error("the refused restore wrote")
	}
	// The journal names no identity (none was given), so any disk of its size is taken.
	rr, _, err := RestoreJournal(d, gib, "another|disk", file)
	if err != nil || rr.Failed != 0 || rr.Blocks != r.Restore.Blocks || !rr.Verified {
		t.Fatalf("restore from the journal: %+v, %v", rr, err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the journal is still there after a checked restore: %v", err)
	}
	if digest(t, d.c) != digest(t, ref.c) {
		t.Error("after restoring from the journal, the card differs from a fresh one")
	}
}

// A journal names its disk: a restore to another disk of the same size is refused, nothing
// written.
func TestRestoreJournalOtherDisk(t *testing.T) {
	spec := lab.CardSpec{ClaimedBytes: 256 * mib, RealBytes: 64 * mib, Failure: lab.FailWrap, Seed: 4}
	d := newCardDev(t, spec)
	file := t.TempDir() + "/journal.bin"
	d.c.BreakAfter(200)
	if _, err := Probe(context.Background(), d, ProbeOptions{SizeBytes: spec.ClaimedBytes, Journal: file, Identity: "sd:1b:sm:ec2qt|ab12|256", Device: "mmcblk0"}); err == nil {
		t.Fatal("no error from a card that broke")
	}
	d.c.Break(false)
	w := d.c.Counters().Writes
	if _, _, err := RestoreJournal(d, spec.ClaimedBytes, "sd:1b:sm:ec2qt|cd34|256", file); err == nil || !strings.Contains(err.Error(), "another disk") {
		t.Errorf("restore to another card: %v", err)
	}
	if d.c.Counters().Writes != w {
		t.Error("the refused restore wrote")
	}
	rr, _, err := RestoreJournal(d, spec.ClaimedBytes, "sd:1b:sm:ec2qt|ab12|256", file)
	if err != nil || !rr.Verified {
		t.Fatalf("restore to its card: %+v %v", rr, err)
	}
	if digest(t, d.c) != digest(t, newCardDev(t, spec).c) {
		t.Error("the card differs from a fresh one after the restore")
	}
}

// A disk whose first blocks cannot be read is damaged, and nothing is written to it.
func TestProbeUnreadableStart(t *testing.T) {
	d := newCardDev(t, lab.CardSpec{ClaimedBytes: 256 * mib, BadRegions: []lab.BadRegion{{OffsetBytes: 0, LengthBytes: 64 * kib, Kind: lab.BadIOError}}})
	r := probeCard(t, d, ProbeOptions{})
	if r.Verdict != Damaged || r.Failure != FailureIOError || r.FirstBadByte == nil || *r.FirstBadByte != 0 {
		t.Fatalf("result %+v", r)
	}
	if w := d.c.Counters().Writes; w != 0 {
		t.Errorf("%d writes to a disk whose start cannot be read", w)
	}
}
