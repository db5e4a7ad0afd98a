package profile

import (
	"math"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestIomarkScore(t *testing.T) {
	ref := []record.Test{
		{Name: "seq-read-1m", MBPerS: 40}, {Name: "seq-write-1m", MBPerS: 20},
		{Name: "rand-read-4k-qd1", IOPS: 2600}, {Name: "rand-write-4k-qd1", IOPS: 700},
		{Name: "rand-read-4k-qd32", IOPS: 2600}, {Name: "rand-write-4k-qd32", IOPS: 700},
	}
	if s, ok := IomarkScore(ref); !ok || s != 100 {
		t.Fatalf("the reference card scores %v (%v), want 100", s, ok)
	}
	double := append([]record.Test(nil), ref...)
	for i := range double {
		double[i].MBPerS *= 2
		double[i].IOPS *= 2
	}
	if s, _ := IomarkScore(double); s != 200 {
		t.Errorf("twice the reference scores %v, want 200", s)
	}
	// One figure 64× better moves the geometric mean by 64^(1/6) = 2×, not 64×.
	one := append([]record.Test(nil), ref...)
	one[4].IOPS *= 64
	if s, _ := IomarkScore(one); math.Abs(s-200) > 0.1 {
		t.Errorf("one figure 64× better scores %v, want 200", s)
	}
	if _, ok := IomarkScore(ref[:5]); ok {
		t.Error("a run missing a quick test got a score")
	}
	zero := append([]record.Test(nil), ref...)
	zero[0].MBPerS = 0
	if _, ok := IomarkScore(zero); ok {
		t.Error("a run with a zero figure got a score")
	}
	if got := quickScores(ref); got.Iomark == nil || *got.Iomark != 100 || got.Pibenchmarks != nil {
		t.Errorf("quick's scores = %+v", got)
	}
}

// TestScoreMeanings: the one-line meanings printed beside each score name their reference,
// read from the formula's own table (a changed reference changes the sentence).
func TestScoreMeanings(t *testing.T) {
	if got := IomarkScoreMeaning(); !strings.Contains(got, "100 is a good microSD card in a Raspberry Pi 4 (40/20 MB/s sequential read/write, 2600/700 IOPS 4K random read/write)") {
		t.Errorf("iomark score meaning %q", got)
	}
	// By hand: int((20×1024 + 2600×4 + 700×10 + 10400 + 2800 + 10400×4 + 2800×10) / 100).
	if got := PibReferenceScore(); got != 1206 {
		t.Errorf("reference card's Storage.sh score %d, want 1206", got)
	}
	if got := PibScoreMeaning(); !strings.Contains(got, "scores 1206") || !strings.Contains(got, "pibenchmarks.com") {
		t.Errorf("pibenchmarks score meaning %q", got)
	}
}
