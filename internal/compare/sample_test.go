package compare

import (
	"os"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// sampleRun is a SYNTHETIC record: the `quick` run on a Raspberry Pi 4 with a 32 GB SanDisk
// microSD card in DDR50 mode that internal/report's tests build as sampleRun, written out as
// testdata/quick-pi4-microsd.json. Nothing in it was measured.
func sampleRun() *record.Run { return loadRecord("testdata/quick-pi4-microsd.json") }

// sampleSustainedRun is the sustained-profile record of the same card, as report's
// sampleSustainedRun builds it (testdata/sustained-pi4-microsd.json). SYNTHETIC.
func sampleSustainedRun() *record.Run { return loadRecord("testdata/sustained-pi4-microsd.json") }

func loadRecord(path string) *record.Run {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err) // a test fixture missing from the repository
	}
	r, err := record.Decode(b)
	if err != nil {
		panic(err)
	}
	return r
}

func loadPublished(t *testing.T) []refdata.Result {
	t.Helper()
	pub, err := refdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// earlierRuns are SYNTHETIC earlier runs of the sample's card, plus one of another card.
func earlierRuns() []*record.Run {
	a, b, other := sampleRun(), sampleRun(), sampleRun()
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
	return []*record.Run{b, other, a, sampleRun()} // the run itself is skipped by id
}
