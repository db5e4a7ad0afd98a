package flash

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit/lab"
)

// timedCard serves reads from a lab card on a virtual clock: each read takes what the card's
// Schedule says plus jitter, and now and then a long stall (another process on the CPU).
type timedCard struct {
	c      *lab.Card
	now    time.Time
	rng    *rand.Rand
	jitter time.Duration
}

func (d *timedCard) clock() time.Time { return d.now }

func (d *timedCard) ReadAt(p []byte, off int64) (int, error) {
	d.now = d.c.Schedule(lab.OpRead, off, int64(len(p)), d.now.Add(time.Millisecond)) // idle between reads
	d.now = d.now.Add(time.Duration(d.rng.Int64N(int64(d.jitter) + 1)))
	if d.rng.IntN(50) == 0 {
		d.now = d.now.Add(time.Duration(d.rng.Int64N(int64(5 * time.Millisecond))))
	}
	return len(p), d.c.ReadAt(p, off)
}

func (d *timedCard) WriteAt(p []byte, off int64) (int, error) { return 0, fmt.Errorf("read-only") }

func newTimedCard(t *testing.T, s lab.CardSpec, jitter time.Duration, seed uint64) *timedCard {
	t.Helper()
	s.Name = "geo"
	c, err := lab.NewCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return &timedCard{c: c, now: time.Unix(0, 0), rng: rand.New(rand.NewPCG(seed, 1)), jitter: jitter}
}

func TestEstimateEraseBlock(t *testing.T) {
	for _, au := range []int64{1 << 20, 4 << 20, 8 << 20, 32 << 10, 64 << 20} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed-%d", sizeText(au), seed), func(t *testing.T) {
				d := newTimedCard(t, lab.CardSpec{ClaimedBytes: 8 << 30, ReadLatency: 400 * time.Microsecond, ReadMBps: 20,
					EraseBlockBytes: au, BoundaryLatency: 300 * time.Microsecond}, 200*time.Microsecond, seed)
				g, err := EstimateEraseBlock(context.Background(), d, GeometryOptions{SizeBytes: 8 << 30, Now: d.clock, Seed: seed,
					Registers: []RegisterHint{{Name: "SD AU_SIZE (SSR)", Bytes: 4 << 20}}})
				if err != nil {
					t.Fatal(err)
				}
				if g.EraseBlockBytes != au || g.Confidence == "unknown" {
					for _, c := range g.Candidates {
						t.Logf("%9d: pre %.0f on %.0f post %.0f diff %.1f ± %.1f", c.AlignBytes, c.PreUS, c.OnUS, c.PostUS, c.DiffUS, c.SEUS)
					}
					t.Fatalf("estimate %d (%s: %s), want %d", g.EraseBlockBytes, g.Confidence, g.Reason, au)
				}
				if agrees := g.Registers[0].Agrees; agrees == nil || *agrees != (au == 4<<20) {
					t.Errorf("register agreement %v for an estimate of %d", agrees, g.EraseBlockBytes)
				}
			})
		}
	}
}

// TestEstimateEraseBlockUnknown: no boundary effect, or one that only grows with the size,
// gives "unknown", never a number.
func TestEstimateEraseBlockUnknown(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprintf("flat/seed-%d", seed), func(t *testing.T) {
			d := newTimedCard(t, lab.CardSpec{ClaimedBytes: 8 << 30, ReadLatency: 400 * time.Microsecond, ReadMBps: 20}, 300*time.Microsecond, seed)
			g, err := EstimateEraseBlock(context.Background(), d, GeometryOptions{SizeBytes: 8 << 30, Now: d.clock, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			if g.EraseBlockBytes != 0 || g.Confidence != "unknown" {
				t.Fatalf("estimate %d (%s) on a device without a boundary effect", g.EraseBlockBytes, g.Reason)
			}
			t.Log(g.Reason)
		})
	}
	d := newTimedCard(t, lab.CardSpec{ClaimedBytes: 1 << 20}, 0, 1)
	if _, err := EstimateEraseBlock(context.Background(), d, GeometryOptions{SizeBytes: 1 << 20, Now: d.clock}); err == nil {
		t.Error("a 1 MiB device was timed")
	}
}
