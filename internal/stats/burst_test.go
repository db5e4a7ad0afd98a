package stats

import "testing"

func TestFindBurst(t *testing.T) {
	cache := []Sample{{0.1, 60}, {0.2, 61}, {0.3, 59}, {0.4, 21}, {0.5, 20}, {0.6, 19.5}}
	b, ok := FindBurst(cache, 20)
	if !ok || b.S != 0.3 || b.X < 2.9 || b.X > 3.1 {
		t.Errorf("a 0.3 s burst at 3×: got %+v %v", b, ok)
	}
	for name, c := range map[string]struct {
		series    []Sample
		sustained float64
	}{
		"flat":                      {[]Sample{{0.1, 20.5}, {0.2, 19.8}, {0.3, 20}}, 20},
		"one fast interval":         {[]Sample{{0.1, 40}, {0.2, 20}, {0.3, 20}}, 20},
		"noise of a loaded machine": {[]Sample{{0.1, 23}, {0.2, 22}, {0.3, 17}}, 20},
		"no sustained rate":         {cache, 0},
		"empty":                     {nil, 20},
	} {
		if b, ok := FindBurst(c.series, c.sustained); ok {
			t.Errorf("%s: burst %+v", name, b)
		}
	}
}

func TestLeadingFastRuns(t *testing.T) {
	for _, c := range []struct {
		values []float64
		want   int
	}{
		{[]float64{20, 20.1, 19.9}, 0},
		{[]float64{45, 20, 20.1}, 1},
		{[]float64{60, 31, 20, 20.1}, 2},
		{[]float64{45, 20}, 0},             // nothing to hold it to
		{[]float64{22, 20, 20.1, 19.9}, 0}, // within noise
		{[]float64{20, 45, 20, 20}, 0},     // a fast run in the middle is not a head
		{[]float64{19900, 5000, 17230}, 0}, // a stalled run after the first is no burst
	} {
		if got := LeadingFastRuns(c.values); got != c.want {
			t.Errorf("%v: %d leading fast runs, want %d", c.values, got, c.want)
		}
	}
}
