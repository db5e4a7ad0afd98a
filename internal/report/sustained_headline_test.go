package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// TestSustainedHeadlineEverywhere: every output leads a sustained write with the rate a
// long copy keeps (9.4 MB/s settled in the sample), never the whole write's average (15.4),
// which stays beside it in the sustained text; the HTML says what the terminal says about the
// write: the cliff and the bytes before it, the rates before and settled, why it stopped.
func TestSustainedHeadlineEverywhere(t *testing.T) {
	r := sampleSustainedRun()
	runs := []*record.Run{r}

	var term bytes.Buffer
	if err := Terminal(&term, r, TermOptions{}); err != nil {
		t.Fatal(err)
	}
	row := lineWith(term.String(), "sustained-write-1m ")
	if !strings.Contains(row, "9.4") || strings.Contains(row, "15.4") {
		t.Errorf("terminal test row %q: want 9.4 MB/s, not the 15.4 average", row)
	}

	var js struct {
		Tests []struct {
			MBPerS float64 `json:"mb_per_s"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(export(t, "json", runs, Options{}), &js); err != nil || len(js.Tests) != 1 || js.Tests[0].MBPerS != 9.4 {
		t.Errorf("json tests %+v (%v): want mb_per_s 9.4", js.Tests, err)
	}

	rows, err := csv.NewReader(bytes.NewReader(export(t, "csv", runs, Options{}))).ReadAll()
	if err != nil || len(rows) != 2 || rows[1][colIndex(rows[0], "mb_per_s")] != "9.4" {
		t.Errorf("csv %v (%v): want mb_per_s 9.4", rows, err)
	}

	bars := svgText(t, export(t, "svg", runs, Options{Chart: ChartBars}))
	if !strings.Contains(bars, "9.4") || strings.Contains(bars, "15.4") {
		t.Errorf("bars chart text %q: want 9.4, not 15.4", bars)
	}
	line := svgText(t, export(t, "svg", runs, Options{Chart: ChartSustained}))
	if !strings.Contains(line, "9.40 MB/s: the rate a long copy keeps") {
		t.Errorf("sustained chart text %q: want the settled rate drawn and named", line)
	}

	html := string(export(t, "html", runs, Options{}))
	for _, want := range []string{"<h2>Sustained write</h2>", "cliff after 40.5 s and 1.1 GB", "28.4 MB/s before",
		"settled at 9.40 MB/s", "15.4 MB/s averaged over the whole write", "stopped: the rate after the cliff had settled"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
}

func lineWith(text, sub string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func colIndex(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	return 0
}

// TestExportHint: a saved sbc-reviews run names the paste block's export, a saved sustained
// run the chart's; other runs and unsaved ones name none.
func TestExportHint(t *testing.T) {
	saved := &Saved{ShortID: "019a4f40", Where: "/tmp/results.db"}
	sbc := sbcReviewsRun()
	for _, c := range []struct {
		name string
		r    *record.Run
		s    *Saved
		want string
	}{
		{"sbc-reviews", sbc, saved, "`iomark export 019a4f40 --format sbc-reviews`"},
		{"sustained", sampleSustainedRun(), saved, "`iomark export 019a4f40 --format png`"},
		{"quick", sampleRun(), saved, ""},
		{"not saved", sbc, &Saved{Why: "--no-save was given"}, ""},
	} {
		got := ExportHint(c.r, c.s)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: hint %q, want %q", c.name, got, c.want)
		}
	}
}
