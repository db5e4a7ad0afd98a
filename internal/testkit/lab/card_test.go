package lab

import (
	"bytes"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

const mib = 1 << 20

func newCard(t *testing.T, s CardSpec) *Card {
	t.Helper()
	if s.Name == "" {
		s.Name = "t"
	}
	c, err := NewCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func pattern(n int, b byte) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = b + byte(i*7)
	}
	return p
}

func read(t *testing.T, c *Card, off int64, n int) []byte {
	t.Helper()
	p := make([]byte, n)
	if err := c.ReadAt(p, off); err != nil {
		t.Fatalf("read %d at %d: %v", n, off, err)
	}
	return p
}

func write(t *testing.T, c *Card, off int64, p []byte) {
	t.Helper()
	if err := c.WriteAt(p, off); err != nil {
		t.Fatalf("write %d at %d: %v", len(p), off, err)
	}
}

func TestCardSpecCheck(t *testing.T) {
	tests := []struct {
		spec    CardSpec
		wantErr string
	}{
		{CardSpec{Name: "ok", ClaimedBytes: 64 * mib}, ""},
		{CardSpec{Name: "fake", ClaimedBytes: 64 * mib, RealBytes: 8 * mib, Failure: FailWrap}, ""},
		{CardSpec{Name: "../x", ClaimedBytes: 64 * mib}, "card name"},
		{CardSpec{Name: "odd", ClaimedBytes: 1000}, "multiple of 512"},
		{CardSpec{Name: "big", ClaimedBytes: 32 << 40}, "16 TiB"},
		{CardSpec{Name: "real", ClaimedBytes: 64 * mib, RealBytes: 128 * mib}, "real size"},
		{CardSpec{Name: "nokind", ClaimedBytes: 64 * mib, RealBytes: 8 * mib}, "failure kind"},
		{CardSpec{Name: "neg", ClaimedBytes: 64 * mib, WriteMBps: -1}, "negative"},
		{CardSpec{Name: "slc", ClaimedBytes: 64 * mib, SLCBytes: mib}, "SLC"},
		{CardSpec{Name: "bad", ClaimedBytes: 64 * mib, BadRegions: []BadRegion{{OffsetBytes: 63 * mib, LengthBytes: 2 * mib, Kind: BadIOError}}}, "inside"},
		{CardSpec{Name: "badkind", ClaimedBytes: 64 * mib, BadRegions: []BadRegion{{OffsetBytes: 0, LengthBytes: mib, Kind: "melted"}}}, "kind"},
	}
	for _, tt := range tests {
		_, err := NewCard(tt.spec)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: err %v, want %q", tt.spec.Name, err, tt.wantErr)
		}
	}
}

func TestCardHonest(t *testing.T) {
	c := newCard(t, CardSpec{ClaimedBytes: 16 * mib, Seed: 7})
	before := read(t, c, 3*mib, 4096)
	if bytes.Equal(before, make([]byte, 4096)) {
		t.Fatal("initial content is zeros: want pseudo-random bytes")
	}
	if again := read(t, newCard(t, CardSpec{ClaimedBytes: 16 * mib, Seed: 7}), 3*mib, 4096); !bytes.Equal(before, again) {
		t.Error("two cards with one seed start different")
	}
	p := pattern(8192, 1)
	write(t, c, 3*mib-4096, p) // across a chunk boundary
	if got := read(t, c, 3*mib-4096, 8192); !bytes.Equal(got, p) {
		t.Error("read back differs from what was written")
	}
	if err := c.ReadAt(make([]byte, 512), 16*mib); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("read past the end: %v, want EINVAL", err)
	}
	if err := c.WriteAt(make([]byte, 100), 0); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("write of 100 bytes: %v, want EINVAL", err)
	}
	if got := c.Counters(); got.Writes != 1 || got.BytesWritten != 8192 || got.Reads != 2 {
		t.Errorf("counters %+v", got)
	}
}

func TestCardFailures(t *testing.T) {
	const claimed, real = 64 * mib, 8 * mib
	p := pattern(4096, 9)
	t.Run("wrap", func(t *testing.T) {
		c := newCard(t, CardSpec{ClaimedBytes: claimed, RealBytes: real, Failure: FailWrap})
		write(t, c, 3*real+mib, p)
		if got := read(t, c, mib, 4096); !bytes.Equal(got, p) {
			t.Error("a write past the real size did not land at address mod real size")
		}
		if got := read(t, c, 5*real+mib, 4096); !bytes.Equal(got, p) {
			t.Error("another alias does not read the same slot")
		}
	})
	for _, tt := range []struct {
		kind Failure
		want func(c *Card, off int64) []byte
	}{
		{FailDropZeros, func(*Card, int64) []byte { return make([]byte, 4096) }},
		{FailDropOnes, func(*Card, int64) []byte { return bytes.Repeat([]byte{0xff}, 4096) }},
		{FailDropStale, func(c *Card, off int64) []byte { p := make([]byte, 4096); fillInitial(p, off, c.spec.Seed); return p }},
	} {
		t.Run(string(tt.kind), func(t *testing.T) {
			c := newCard(t, CardSpec{ClaimedBytes: claimed, RealBytes: real, Failure: tt.kind, Seed: 3})
			off := int64(real + 5*mib)
			write(t, c, off, p)
			if got := read(t, c, off, 4096); !bytes.Equal(got, tt.want(c, off)) {
				t.Errorf("read past the real size: got %x…", got[:16])
			}
			write(t, c, real-4096, p)
			if got := read(t, c, real-4096, 4096); !bytes.Equal(got, p) {
				t.Error("the last real block lost its data")
			}
		})
	}
	t.Run("io-error", func(t *testing.T) {
		c := newCard(t, CardSpec{ClaimedBytes: claimed, RealBytes: real, Failure: FailIOError})
		if err := c.WriteAt(p, real-2048); !errors.Is(err, syscall.EIO) {
			t.Errorf("write straddling the real size: %v, want EIO", err)
		}
		if err := c.ReadAt(p, real+mib); !errors.Is(err, syscall.EIO) {
			t.Errorf("read past the real size: %v, want EIO", err)
		}
		write(t, c, real-4096, p)
	})
}

func TestCardCacheHidesDroppedWrites(t *testing.T) {
	c := newCard(t, CardSpec{ClaimedBytes: 64 * mib, RealBytes: 8 * mib, Failure: FailDropZeros, CacheBytes: mib})
	p := pattern(4096, 5)
	off := int64(40 * mib)
	write(t, c, off, p)
	if got := read(t, c, off, 4096); !bytes.Equal(got, p) {
		t.Fatal("a recent write is not served from the cache")
	}
	write(t, c, 0, make([]byte, mib)) // evicts it
	if got := read(t, c, off, 4096); !bytes.Equal(got, make([]byte, 4096)) {
		t.Error("an evicted dropped write still reads back")
	}
	c2 := newCard(t, CardSpec{ClaimedBytes: 64 * mib, RealBytes: 8 * mib, Failure: FailWrap, CacheBytes: mib})
	write(t, c2, 8*mib+4096, p)
	if got := read(t, c2, 4096, 4096); bytes.Equal(got, p) {
		t.Error("a cached wrapped write reached its slot before eviction")
	}
	c2.FlushCache()
	if got := read(t, c2, 4096, 4096); !bytes.Equal(got, p) {
		t.Error("a flushed wrapped write did not reach its slot")
	}
}

func TestCardDigest(t *testing.T) {
	c := newCard(t, CardSpec{ClaimedBytes: 64 * mib, RealBytes: 8 * mib, Failure: FailWrap, CacheBytes: mib, Seed: 4})
	fresh := c.Digest()
	old := read(t, c, 3*mib, 4096)
	write(t, c, 3*mib, pattern(4096, 1))
	if c.Digest() == fresh {
		t.Error("a changed card digests as fresh")
	}
	write(t, c, 8*mib+3*mib, old) // through the alias
	if c.Digest() != fresh {
		t.Error("a card written back to its initial content digests differently")
	}
}

func TestCardBadRegionsAndBreak(t *testing.T) {
	c := newCard(t, CardSpec{ClaimedBytes: 16 * mib, BadRegions: []BadRegion{
		{OffsetBytes: 2 * mib, LengthBytes: 64 << 10, Kind: BadIOError},
		{OffsetBytes: 4 * mib, LengthBytes: 64 << 10, Kind: BadCorrupt},
	}})
	if err := c.ReadAt(make([]byte, 4096), 2*mib+8192); !errors.Is(err, syscall.EIO) {
		t.Errorf("read in an io-error region: %v", err)
	}
	p := pattern(4096, 2)
	write(t, c, 4*mib, p)
	got := read(t, c, 4*mib, 4096)
	if bytes.Equal(got, p) {
		t.Error("a corrupt region read back intact")
	}
	diff := 0
	for i := range got {
		if got[i] != p[i] {
			diff++
		}
	}
	if diff != 4096/64 {
		t.Errorf("%d bytes differ in a corrupt block, want one every 64", diff)
	}
	c.BreakAfter(2)
	read(t, c, 0, 512)
	read(t, c, 0, 512)
	if err := c.ReadAt(make([]byte, 512), 0); !errors.Is(err, syscall.EIO) {
		t.Errorf("third I/O after BreakAfter(2): %v, want EIO", err)
	}
	c.Break(false)
	read(t, c, 0, 512)
}

func TestCardSchedule(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := newCard(t, CardSpec{ClaimedBytes: 64 * mib, WriteMBps: 20, ReadLatency: 500 * time.Microsecond,
		EraseBlockBytes: 4 * mib, BoundaryLatency: time.Millisecond})
	// 20 MB/s: 1 MB takes 50 ms; a second write queues behind the first.
	if d := c.Schedule(OpWrite, 0, 1e6, t0).Sub(t0); d != 50*time.Millisecond {
		t.Errorf("1 MB write at 20 MB/s took %v", d)
	}
	if d := c.Schedule(OpWrite, 0, 1e6, t0).Sub(t0); d != 100*time.Millisecond {
		t.Errorf("queued write done at %v, want 100ms", d)
	}
	t1 := t0.Add(time.Second)
	if d := c.Schedule(OpRead, 4*mib-4096, 4096, t1).Sub(t1); d != 500*time.Microsecond {
		t.Errorf("read ending on a boundary took %v, want the latency only", d)
	}
	t2 := t1.Add(time.Second)
	if d := c.Schedule(OpRead, 4*mib-2048, 4096, t2).Sub(t2); d != 1500*time.Microsecond {
		t.Errorf("read across a boundary took %v, want latency + 1 ms", d)
	}
}

func TestCardScheduleSLC(t *testing.T) {
	c := newCard(t, CardSpec{ClaimedBytes: 64 * mib, WriteMBps: 100, SLCBytes: 10e6, SLCSlowMBps: 10, SLCRecover: 10 * time.Second})
	now := time.Unix(1000, 0)
	var took []time.Duration
	for i := 0; i < 4; i++ {
		done := c.Schedule(OpWrite, 0, 5e6, now)
		took = append(took, done.Sub(now))
		now = done
	}
	want := []time.Duration{50 * time.Millisecond, 50 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond}
	for i := range want {
		if took[i] != want[i] {
			t.Errorf("write %d took %v, want %v (fast until 10 MB, then 10 MB/s)", i, took[i], want[i])
		}
	}
	now = now.Add(10 * time.Second) // idle long enough to empty the cache
	// The idle time also banks maxCredit of turnaround credit, taken off this transfer.
	if d := c.Schedule(OpWrite, 0, 5e6, now).Sub(now); d != 50*time.Millisecond-maxCredit {
		t.Errorf("after idle, write took %v, want the fast rate again", d)
	}
}

// HoldWrites stops writes at an exact point; released, a held write lands or, dropped, fails
// and changes nothing.
func TestCardHoldWrites(t *testing.T) {
	c := newCard(t, CardSpec{ClaimedBytes: 4 * mib, Seed: 3})
	before := read(t, c, 8192, 4096)
	c.HoldWrites(1)
	write(t, c, 0, pattern(4096, 1)) // let through
	for _, drop := range []bool{true, false} {
		done := make(chan error, 1)
		go func() { done <- c.WriteAt(pattern(4096, 2), 8192) }()
		for c.WritesHeld() == 0 {
			time.Sleep(time.Millisecond)
		}
		select {
		case err := <-done:
			t.Fatalf("a held write returned: %v", err)
		default:
		}
		if !bytes.Equal(read(t, c, 8192, 4096), before) {
			t.Fatal("a held write changed the card")
		}
		c.ReleaseWrites(drop)
		err := <-done
		switch got := read(t, c, 8192, 4096); {
		case drop && (!errors.Is(err, syscall.EIO) || !bytes.Equal(got, before)):
			t.Errorf("dropped write: %v, card changed %v", err, !bytes.Equal(got, before))
		case !drop && (err != nil || !bytes.Equal(got, pattern(4096, 2))):
			t.Errorf("released write: %v", err)
		}
		c.HoldWrites(0)
	}
	c.ReleaseWrites(false)
	write(t, c, 0, pattern(4096, 3))
}

// TestCardScheduleSlowZone: the bytes of an I/O inside a slow zone go at the zone's rate, the
// rest at the card's, and the zone's reads do not slow its writes when it gives no write rate.
func TestCardScheduleSlowZone(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, tc := range []struct {
		op        Op
		off, n    int64
		want      time.Duration
		situation string
	}{
		{OpRead, 0, 1e6, 10 * time.Millisecond, "outside the zone at 100 MB/s"},
		{OpRead, 8e6, 1e6, 100 * time.Millisecond, "inside the zone at 10 MB/s"},
		{OpRead, 7.5e6, 1e6, 5*time.Millisecond + 50*time.Millisecond, "half in, half out"},
		{OpWrite, 8e6, 1e6, 20 * time.Millisecond, "a write in a zone with no write rate at the card's"},
	} {
		// A fresh card each time: no queue, no turnaround credit.
		c := newCard(t, CardSpec{ClaimedBytes: 64 * mib, ReadMBps: 100, WriteMBps: 50,
			SlowZones: []SlowZone{{OffsetBytes: 8e6, LengthBytes: 4e6, ReadMBps: 10}}})
		if d := c.Schedule(tc.op, tc.off, tc.n, now).Sub(now); d != tc.want {
			t.Errorf("%s: took %v, want %v", tc.situation, d, tc.want)
		}
	}
	if _, err := NewCard(CardSpec{Name: "z", ClaimedBytes: 16 * mib, SlowZones: []SlowZone{{OffsetBytes: 15 * mib, LengthBytes: 2 * mib, ReadMBps: 1}}}); err == nil {
		t.Error("a slow zone past the card's end was accepted")
	}
}
