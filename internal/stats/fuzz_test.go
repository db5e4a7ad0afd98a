package stats

import (
	"encoding/binary"
	"math"
	"testing"
)

// floats decodes b as little-endian float64s, 8 bytes each (any bit pattern: NaN, ±Inf,
// subnormals, extremes), and reports whether all are finite.
func floats(b []byte) (xs []float64, allFinite bool) {
	allFinite = true
	for len(b) >= 8 {
		x := math.Float64frombits(binary.LittleEndian.Uint64(b))
		xs = append(xs, x)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			allFinite = false
		}
		b = b[8:]
	}
	return xs, allFinite
}

func bytesOf(xs ...float64) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func seedCorpus(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytesOf(42))
	f.Add(bytesOf(10, 12, 11))
	f.Add(bytesOf(100, 101, 99, 100, 150, 100, 101))
	f.Add(bytesOf(math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0))
	f.Add(bytesOf(math.NaN(), math.Inf(1), 1, 2))
	f.Add(bytesOf(concat(level(6, 400), level(6, 100))...))
	f.Add(bytesOf(concat(level(6, 4e300), level(6, -1e300))...))
}

func FuzzSummarize(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		xs, _ := floats(b)
		s := Summarize(xs)
		for name, v := range map[string]float64{"median": s.Median, "mean": s.Mean,
			"stddev": s.Stddev, "min": s.Min, "max": s.Max, "ci low": s.CI95Low,
			"ci high": s.CI95High, "ci pct": s.CI95Pct, "coverage": s.CICoverage} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s = %v for %v", name, v, xs)
			}
		}
		if s.N == 0 {
			return
		}
		if !(s.Min <= s.Median && s.Median <= s.Max && s.CI95Low <= s.CI95High) {
			t.Fatalf("order broken: %+v for %v", s, xs)
		}
		if s.CI95Pct < 0 || s.CI95Pct > maxCI95Pct || s.Stddev < 0 {
			t.Fatalf("out of range: %+v", s)
		}
		prev := -1
		for _, i := range s.Outliers {
			if i <= prev || i >= len(xs) {
				t.Fatalf("bad outlier index %d in %v (len %d)", i, s.Outliers, len(xs))
			}
			prev = i
		}
		_ = Warnings(s, 5)
		_, _ = StopRule{TargetCI95Pct: 5, MinRuns: 3, MaxRuns: 10}.Done(xs, 0, 0)
	})
}

func FuzzFindCliff(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		xs, _ := floats(b)
		c := FindCliff(xs)
		_, m, _ := SteadyState(xs, 5)
		for name, v := range map[string]float64{"before": c.Before, "after": c.After,
			"drop": c.DropPct, "steady mean": m} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s = %v for %v", name, v, xs)
			}
		}
		if !c.Found {
			if c != (Cliff{}) {
				t.Fatalf("not found but fields set: %+v", c)
			}
			return
		}
		if c.Index < cliffMinSide || c.Index > len(xs)-cliffMinSide {
			t.Fatalf("index %d out of range for %d samples", c.Index, len(xs))
		}
		if c.DropPct < 100*(1-cliffFraction)-1e-9 || c.Before <= 0 {
			t.Fatalf("not a cliff by the rule: %+v", c)
		}
	})
}
