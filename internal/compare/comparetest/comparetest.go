// Package comparetest holds the SYNTHETIC records the tests of compare and report share: the
// `quick` run on a Raspberry Pi 4 with a 32 GB SanDisk microSD card in DDR50 mode, earlier
// runs of the same card, and a run of any profile on it. Nothing in them was measured; the
// figures are made up to be plausible for such a card (compare pidramble's Pi 4 table in
// internal/refdata), and the ceiling follows linkdb's SD formula (50 MHz DDR on 4 bits =
// 50 MB/s, 90% usable). Only tests import this package.
package comparetest

import (
	_ "embed"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

//go:embed quick-pi4-microsd.json
var quickJSON []byte

// Sample is the quick run, decoded afresh on each call so a test may change its copy.
func Sample() *record.Run {
	r, err := record.Decode(quickJSON)
	if err != nil {
		panic(err) // the embedded fixture is this package's own
	}
	return r
}

// EarlierRuns are earlier runs of the sample's card, plus one of another card and the
// sample itself (a history skips the run it is shown with, by id).
func EarlierRuns() []*record.Run {
	a, b, other := Sample(), Sample(), Sample()
	a.ID, a.CreatedAt = "019a0000-0000-7000-8000-00000000000a", time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	b.ID, b.CreatedAt = "019a0000-0000-7000-8000-00000000000b", time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i := range a.Tests {
		a.Tests[i].IOPS *= 0.9
		a.Tests[i].MBPerS *= 0.9
		b.Tests[i].IOPS *= 1.1
		b.Tests[i].MBPerS *= 1.1
	}
	other.ID = "019a0000-0000-7000-8000-00000000000c"
	other.SD = &probe.SD{ManfID: 0x1b, OEMID: "SM", Name: "EB1QT"}
	other.Tests[0].MBPerS = 999
	return []*record.Run{b, other, a, Sample()}
}

// ProfileRun is a run of the named profile on the sample's card: each test of the profile as
// the runner records it (op, block size, queue depth, jobs, O_DIRECT or buffered, the
// sustained analysis), with placeholder figures.
func ProfileRun(t testing.TB, name string) *record.Run {
	t.Helper()
	p, err := profile.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	r := Sample()
	r.Profile, r.Tests, r.Scores = name, nil, record.Scores{}
	for _, pt := range p.Tests {
		rt := record.Test{Name: pt.Name, Op: string(pt.Pattern), BS: pt.BlockSize, QD: pt.QD, Jobs: max(pt.Jobs, 1),
			Direct: !pt.Buffered, Primary: pt.Primary, MBPerS: 10, MiBPerS: 10 / 1.048576, IOPS: 10e6 / float64(pt.BlockSize), Runs: 3}
		if name == "sustained" {
			rt.Sustained = &record.Sustained{WrittenBytes: 1 << 30}
		}
		r.Tests = append(r.Tests, rt)
	}
	if p.Score != nil {
		r.Scores = p.Score(r.Tests)
	}
	return r
}
