package compare

import (
	"os"
	"testing"

	"github.com/iomark/iomark/internal/compare/comparetest"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// sampleRun is comparetest's SYNTHETIC quick run of a Pi 4 microSD card.
func sampleRun() *record.Run { return comparetest.Sample() }

// sampleSustainedRun is a sustained-profile record of the same card
// (testdata/sustained-pi4-microsd.json). SYNTHETIC.
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

func earlierRuns() []*record.Run { return comparetest.EarlierRuns() }
