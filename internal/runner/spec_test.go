package runner

import (
	"testing"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/profile"
)

// A write run bounded by bytes hands the engine a ramp bounded by bytes too, so what the run
// writes is known before it starts (a ramp bounded by time alone overdrew
// pibenchmarks' budget on a fast drive under load); a read run's ramp stays bounded by time.
func TestSpecBoundsTheRampOfAByteBoundWrite(t *testing.T) {
	r := &runner{target: "/mnt/x/test-file", destructive: true}
	write := profile.Test{Name: "rand-write-4k-qd1", Pattern: engine.RandWrite, BlockSize: 4 * profile.KiB,
		QD: 1, Jobs: 1, Ramp: 250 * time.Millisecond}
	read := write
	read.Name, read.Pattern = "rand-read-4k-qd1", engine.RandRead

	s := r.spec(write, 64*profile.MiB, 20*profile.MiB, 5*time.Second, 10*time.Millisecond, nil)
	if s.IOBudgetBytes != 20*profile.MiB || s.RampBytes != 5*profile.MiB {
		t.Errorf("write run: budget %d, ramp bytes %d; want 20 MiB and a quarter of it", s.IOBudgetBytes, s.RampBytes)
	}
	if most := s.IOBudgetBytes + s.RampBytes; most > 25*profile.MiB {
		t.Errorf("a 20 MiB write run may write %d bytes", most)
	}
	if s := r.spec(read, 64*profile.MiB, 20*profile.MiB, 5*time.Second, 250*time.Millisecond, nil); s.RampBytes != 0 {
		t.Errorf("read run: ramp bytes %d, want 0 (time alone)", s.RampBytes)
	}
}
