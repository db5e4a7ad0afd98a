package stats

import "math"

// Outlier rule: the modified Z-score of B. Iglewicz and D. Hoaglin, How to Detect and Handle
// Outliers (ASQC 1993), as hyperfine uses it:
//
//	M_i = 0.6745 · (x_i - median) / MAD,  MAD = median(|x_i - median|)
//
// (0.6745 makes MAD a consistent estimate of the standard deviation of normal data). A value
// is an outlier when |M_i| > outlierModifiedZ (3.5, Iglewicz and Hoaglin's recommendation;
// hyperfine uses a looser 10 standard deviations because it times thousands of runs, iomark
// has 3-10) and it lies more than outlierMinDeviationPct from the median: with a handful of
// close runs MAD is tiny and would flag a run 1% off, which is well inside the ±5% precision
// iomark aims at and says nothing to a user. When more than half the runs are equal MAD is 0;
// Iglewicz and Hoaglin then scale by the mean absolute deviation instead, M_i = (x_i - median)
// / (1.253314 · meanAD), and so does iomark.
const (
	outlierModifiedZ       = 3.5
	outlierMinDeviationPct = 5
	outlierMinN            = 3 // with two runs neither can be told to be the odd one
	madToSigma             = 0.6745
	meanADToSigma          = 1.253314
)

// Outliers flags values by the modified Z-score (median absolute deviation), as hyperfine
// does; see outlierModifiedZ for the threshold. It returns indexes into xs in increasing
// order, nil when there are none or fewer than 3 finite values. Non-finite values are
// ignored.
func Outliers(xs []float64) []int {
	vals, idx := finiteValues(xs)
	if len(vals) < outlierMinN {
		return nil
	}
	scale := scaleOf(vals)
	z := scaled(vals, scale)
	med := Median(z)
	dev := make([]float64, len(z))
	meanAD := 0.0
	for i, v := range z {
		dev[i] = math.Abs(v - med)
		meanAD += dev[i] / float64(len(z))
	}
	sigma := Median(dev) / madToSigma
	if sigma == 0 {
		sigma = meanAD * meanADToSigma
	}
	if sigma == 0 {
		return nil // all equal
	}
	var out []int
	for i, d := range dev {
		farFromMedian := med == 0 || d/math.Abs(med)*100 > outlierMinDeviationPct
		if d/sigma > outlierModifiedZ && farFromMedian {
			out = append(out, idx[i])
		}
	}
	return out
}
