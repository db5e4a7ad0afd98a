package profile

import (
	"math"

	"github.com/iomark/iomark/internal/record"
)

// iomarkScoreReference is the drive that scores 100: a good microSD card in a Raspberry Pi 4,
// the limits issue 4 emulates (40 MB/s read, 20 MB/s write, 2600 read and 700 write IOPS at
// 4 KiB, whatever the queue depth: a card has one queue).
var iomarkScoreReference = []struct {
	test   string
	mbPerS float64 // for sequential tests
	iops   float64 // for random tests
}{
	{"seq-read-1m", 40, 0},
	{"seq-write-1m", 20, 0},
	{"rand-read-4k-qd1", 0, 2600},
	{"rand-write-4k-qd1", 0, 700},
	{"rand-read-4k-qd32", 0, 2600},
	{"rand-write-4k-qd32", 0, 700},
}

// IomarkScore is the iomark score of a run that measured the six quick tests: 100 times the
// geometric mean of each figure over the reference card's (so 100 is a good Pi 4 microSD
// card, 200 twice as fast across the board, and no single figure can dominate). ok is false
// when a test is missing or measured nothing.
func IomarkScore(tests []record.Test) (score float64, ok bool) {
	byName := map[string]record.Test{}
	for _, t := range tests {
		byName[t.Name] = t
	}
	logSum := 0.0
	for _, ref := range iomarkScoreReference {
		t, found := byName[ref.test]
		if !found {
			return 0, false
		}
		ratio := t.IOPS / ref.iops
		if ref.mbPerS > 0 {
			ratio = t.MBPerS / ref.mbPerS
		}
		if !(ratio > 0) || math.IsInf(ratio, 0) {
			return 0, false
		}
		logSum += math.Log(ratio)
	}
	s := 100 * math.Exp(logSum/float64(len(iomarkScoreReference)))
	return math.Round(s*10) / 10, true
}

// quickScores gives the quick profile its iomark score.
func quickScores(tests []record.Test) record.Scores {
	if s, ok := IomarkScore(tests); ok {
		return record.Scores{Iomark: &s}
	}
	return record.Scores{}
}
