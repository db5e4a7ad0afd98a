package profile

import (
	"fmt"
	"math"

	"github.com/iomark/iomark/internal/record"
)

// iomarkScoreReference is the drive that scores 100: a good microSD card in a Raspberry Pi 4,
// the limits the lab's microSD card emulates (40 MB/s read, 20 MB/s write, 2600 read and 700 write IOPS at
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

// IomarkScoreInputs are the tests the iomark score is computed from.
func IomarkScoreInputs() []string {
	out := make([]string, len(iomarkScoreReference))
	for i, ref := range iomarkScoreReference {
		out[i] = ref.test
	}
	return out
}

// quickScores gives the quick profile its iomark score.
func quickScores(tests []record.Test) record.Scores {
	if s, ok := IomarkScore(tests); ok {
		return record.Scores{Iomark: &s}
	}
	return record.Scores{}
}

// IomarkScoreMeaning says in one line what an iomark score means, for reports: its scale and
// its reference, read from the table the score is computed with.
func IomarkScoreMeaning() string {
	ref := map[string]float64{}
	for _, r := range iomarkScoreReference {
		ref[r.test] = r.mbPerS + r.iops
	}
	return fmt.Sprintf("100 is a good microSD card in a Raspberry Pi 4 (%.0f/%.0f MB/s sequential read/write, "+
		"%.0f/%.0f IOPS 4K random read/write), 200 twice as fast across the board",
		ref["seq-read-1m"], ref["seq-write-1m"], ref["rand-read-4k-qd1"], ref["rand-write-4k-qd1"])
}

// PibReferenceScore is the Storage.sh score of the iomark score's reference card (a card at
// iomarkScoreReference's limits, whatever the pattern or queue depth: 4 KiB at 2600 read and
// 700 write IOPS is 10400 and 2800 KiB/s for iozone): the anchor PibScoreMeaning gives.
func PibReferenceScore() int {
	var in PibInputs
	for _, r := range iomarkScoreReference {
		switch r.test {
		case "seq-write-1m":
			in.DDWriteMBPerS = r.mbPerS
		case "rand-read-4k-qd1":
			in.FioRandReadIOPS = r.iops
			in.IozoneReadKBps, in.IozoneRandReadKBps = r.iops*4, r.iops*4
		case "rand-write-4k-qd1":
			in.FioRandWrIOPS = r.iops
			in.IozoneWriteKBps, in.IozoneRandWriteKBps = r.iops*4, r.iops*4
		}
	}
	return PibScore(in)
}

// PibScoreMeaning says in one line what a pibenchmarks score means, for reports.
func PibScoreMeaning() string {
	return fmt.Sprintf("PiBenchmarks' Storage.sh formula, the scale of pibenchmarks.com (higher is faster; "+
		"the iomark score's reference card, a good Pi 4 microSD, scores %d)", PibReferenceScore())
}
