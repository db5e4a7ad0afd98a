package profile

import (
	"math"
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
