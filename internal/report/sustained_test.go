package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// The cliff (where, rates before and after, drop) and the thermal verdict are in
// the terminal and Markdown output, not only in JSON, HTML and the charts.
func TestSustainedCliffAndHeatInTerminalAndMarkdown(t *testing.T) {
	cool := sampleSustainedRun() // the SoC warms from 50 to 60 °C: no heat suspected
	hot := sampleSustainedRun()
	hot.Tests[0].Sustained.ThermalSuspect = true
	blind := sampleSustainedRun()
	blind.Sensors = nil
	flat := sampleSustainedRun()
	flat.Tests[0].Sustained = &record.Sustained{SteadyState: true, SteadyMBPerS: 28.4, WrittenBytes: 8e9}
	cases := []struct {
		name string
		run  *record.Run
		want []string
	}{
		{"cliff, cool", cool, []string{"cliff after 40.5 s and 1.1 GB", "28.4 MB/s before", "9.40 MB/s after", "67% drop",
			"settled at 9.40 MB/s", "heat: not suspected: the SoC stayed at 50-60 °C"}},
		{"cliff, hot", hot, []string{"heat: suspected: the SoC was at 50-60 °C", "thermal-drop"}},
		{"cliff, no temperatures", blind, []string{"heat: not judged: no drive or SoC temperature"}},
		{"no cliff", flat, []string{"wrote 8.0 GB", "no cliff", "steady at 28.4 MB/s"}},
	}
	md, _ := ByName("md")
	for _, c := range cases {
		var term, mark bytes.Buffer
		if err := Terminal(&term, c.run, TermOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := md.Export(&mark, []*record.Run{c.run}, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, out := range []struct{ format, text string }{{"terminal", term.String()}, {"markdown", mark.String()}} {
			text := strings.ReplaceAll(out.text, `\`, "")
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("%s, %s output lacks %q:\n%s", c.name, out.format, w, out.text)
				}
			}
		}
	}
	// A run without a sustained write gets no such section.
	var term bytes.Buffer
	if err := Terminal(&term, sampleRun(), TermOptions{}); err != nil || strings.Contains(term.String(), "sustained write:") {
		t.Errorf("a quick run shows a sustained section (%v):\n%s", err, term.String())
	}
}
