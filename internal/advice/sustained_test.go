package advice

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

func TestSustainedSlow(t *testing.T) {
	v30, u3, c10 := 30, 3, 10
	card := &probe.SD{SpeedClass: &c10, UHSClass: &u3, VideoClass: &v30}
	cliff := &record.Sustained{CliffFound: true, CliffAtBytes: 2e9, BeforeMBPerS: 40, SteadyState: true}
	noCliff := &record.Sustained{SteadyState: true}
	for _, c := range []struct {
		name    string
		mbPerS  float64
		s       *record.Sustained
		sd      *probe.SD
		ceiling float64
		want    []string // ids, and words each message must hold
	}{
		// 2 GB at 40 MB/s (50 s), 8 GB at 3 MB/s (2667 s): 45 min.
		{"after a cliff, slow", 3, cliff, nil, 0, []string{"sustained-slow", "45 min", "the first 2.0 GB at 40.0 MB/s"}},
		{"fast enough, no card", 20, noCliff, nil, 0, nil},
		// 10 GB at 20 MB/s is 500 s; the card promises V30's 30 MB/s.
		{"short of V30", 20, noCliff, card, 0, []string{"below-speed-class", "V30", "8 min", "30 MB/s promised"}},
		{"short of V30 behind a slow link", 20, noCliff, card, 25, []string{"below-speed-class", "at most 25 MB/s"}},
		{"meets V30", 31, noCliff, card, 0, nil},
		{"slow and short", 3, cliff, card, 0, []string{"sustained-slow", "below-speed-class"}},
	} {
		r := &record.Run{Tests: []record.Test{{Name: "sustained-write-1m", MBPerS: c.mbPerS, Sustained: c.s}}, CeilingMBPerS: c.ceiling}
		r.SD = c.sd
		got := sustainedSlow(r)
		var text strings.Builder
		for _, f := range got {
			text.WriteString(f.ID + ": " + f.Message + "\n")
		}
		if len(c.want) == 0 && len(got) > 0 {
			t.Errorf("%s: findings %s, want none", c.name, text.String())
		}
		for _, w := range c.want {
			if !strings.Contains(text.String(), w) {
				t.Errorf("%s: findings %q lack %q", c.name, text.String(), w)
			}
		}
	}
}
