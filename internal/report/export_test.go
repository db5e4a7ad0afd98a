package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

func export(t *testing.T, format string, runs []*record.Run, opts Options) []byte {
	t.Helper()
	e, err := ByName(format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := e.Export(&buf, runs, opts); err != nil {
		t.Fatalf("%s export: %v", format, err)
	}
	return buf.Bytes()
}

func published(t *testing.T) []refdata.Result {
	t.Helper()
	rows, err := refdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestByName(t *testing.T) {
	for _, f := range []string{"json", "csv", "md", "markdown", "HTML", "png", "svg"} {
		e, err := ByName(f)
		if err != nil {
			t.Errorf("ByName(%q): %v", f, err)
			continue
		}
		if e.Ext() == "" || !strings.EqualFold(e.Name(), f) && f != "markdown" {
			t.Errorf("ByName(%q) = %s/.%s", f, e.Name(), e.Ext())
		}
	}
	if _, err := ByName("pdf"); err == nil || !strings.Contains(err.Error(), "json") {
		t.Errorf("ByName(pdf) error %v should list the formats", err)
	}
}

func TestExportRefusesNoRun(t *testing.T) {
	for _, f := range Formats() {
		e, _ := ByName(f)
		if err := e.Export(&bytes.Buffer{}, nil, Options{}); err == nil {
			t.Errorf("%s: exporting nothing succeeded", f)
		}
		if err := e.Export(&bytes.Buffer{}, []*record.Run{nil}, Options{}); err == nil {
			t.Errorf("%s: exporting a nil run succeeded", f)
		}
	}
}

func TestJSONGoldenAndRoundTrip(t *testing.T) {
	run := sampleRun()
	out := export(t, "json", []*record.Run{run}, Options{})
	golden(t, "quick.json.golden", out)
	back, err := record.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(run, back); d != "" {
		t.Errorf("record changed through the json export (-want +got):\n%s", d)
	}
	two := export(t, "json", []*record.Run{run, sampleSustainedRun()}, Options{})
	if !bytes.HasPrefix(two, []byte("[")) {
		t.Errorf("two runs should export as an array, got %.20q", two)
	}
}

func TestCSVGolden(t *testing.T) {
	out := export(t, "csv", []*record.Run{sampleRun()}, Options{})
	golden(t, "quick.csv.golden", out)
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("csv export is not RFC 4180: %v", err)
	}
	if len(rows) != 1+len(sampleRun().Tests) {
		t.Fatalf("%d rows, want a header and one per test", len(rows))
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	if got := rows[3][col["iops"]]; got != "2460" || rows[3][col["test"]] != "rand-read-4k-qd1" {
		t.Errorf("row 3: test %s iops %s", rows[3][col["test"]], got)
	}
	if rows[6][col["noisy"]] != "true" || rows[1][col["ceiling_pct"]] != "95.8" {
		t.Errorf("noisy/ceiling columns wrong: %v / %v", rows[6], rows[1])
	}
}

func TestCSVQuotesHostileText(t *testing.T) {
	r := sampleRun()
	r.Device.Model = "Fast, \"Pro\"\ncard"
	out := export(t, "csv", []*record.Run{r}, Options{})
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rows[1][5] != r.Device.Model {
		t.Errorf("model came back as %q", rows[1][5])
	}
}

func TestMarkdownGolden(t *testing.T) {
	out := export(t, "md", []*record.Run{sampleRun()}, Options{Published: published(t)})
	golden(t, "quick.md.golden", out)
	for _, want := range []string{"wrote 402.7 MB in 57.4 s", "| rand-read-4k-qd1 |", "Fix: compare this figure", "pidramble-microsd"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	r := sampleRun()
	r.Device.Model = "a|b *c* <d>"
	out := string(export(t, "md", []*record.Run{r}, Options{}))
	if strings.Contains(out, "a|b") || strings.Contains(out, "<d>") || !strings.Contains(out, `a\|b \*c\* &lt;d&gt;`) {
		t.Errorf("model not escaped:\n%s", out[:300])
	}
}

// sbcReviewsRun is the sample as an sbc-reviews run: quick's tests plus 1 MiB random I/O
// (SYNTHETIC figures, as sampleRun).
func sbcReviewsRun() *record.Run {
	r := sampleRun()
	r.Profile = "sbc-reviews"
	r.Tests = append(r.Tests,
		record.Test{Name: "rand-read-1m-qd1", Op: "randread", BS: 1 << 20, QD: 1, Jobs: 1, Direct: true, MBPerS: 41.9, MiBPerS: 39.96, Primary: "mb_per_s", Runs: 3},
		record.Test{Name: "rand-write-1m-qd1", Op: "randwrite", BS: 1 << 20, QD: 1, Jobs: 1, Direct: true, MBPerS: 17.2, Primary: "mb_per_s", Runs: 3})
	r.Scores = record.Scores{}
	return r
}

// TestSBCReviewsTable: each row is in the unit the sbc-reviews tables use — their "MB/s" is
// iozone's kB/s ÷ 1024, so MiB/s with two decimals, labelled MiB/s — and says so under the
// table; a row the run did not measure says so; the JSON record keeps MB/s and MiB/s.
func TestSBCReviewsTable(t *testing.T) {
	r := sbcReviewsRun()
	got := SBCReviewsTable(r)
	golden(t, "sbc-reviews.table.golden", []byte(got))
	for _, want := range []string{
		"| iomark 1M sequential read (seq-read-1m, QD1, O\\_DIRECT) | 41.10 MiB/s |",    // 43.1 MB/s
		"| iomark 1M random write (rand-write-1m-qd1, QD1, O\\_DIRECT) | 16.40 MiB/s |", // from 17.2 MB/s, no MiB/s in the record
		"the unit the sbc-reviews tables print as",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("sbc-reviews table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, " MB/s |") {
		t.Errorf("a row is labelled MB/s:\n%s", got)
	}
	// quick has no 1 MiB random test: the rows must say so, not borrow another figure.
	if q := SBCReviewsTable(sampleRun()); strings.Count(q, "not measured") != 2 {
		t.Errorf("quick run: want two rows not measured:\n%s", q)
	}
	md := export(t, "md", []*record.Run{r}, Options{})
	golden(t, "sbc-reviews.md.golden", md)
	if !strings.Contains(string(md), "## sbc-reviews table") || !strings.Contains(string(md), "the unit the sbc-reviews tables print as") {
		t.Error("an sbc-reviews run's Markdown report lacks the reviewers' table or its unit")
	}
	if html := string(export(t, "html", []*record.Run{r}, Options{})); !strings.Contains(html, "41.10 MiB/s") || !strings.Contains(html, "the unit the sbc-reviews tables print as") {
		t.Error("an sbc-reviews run's HTML report lacks the reviewers' table in MiB/s")
	}
	var back struct {
		Tests []map[string]any `json:"tests"`
	}
	if err := json.Unmarshal(export(t, "json", []*record.Run{r}, Options{}), &back); err != nil {
		t.Fatal(err)
	}
	for _, tst := range back.Tests {
		if _, ok := tst["mb_per_s"]; !ok {
			t.Errorf("%v: JSON lacks mb_per_s", tst["name"])
		}
		if _, ok := tst["mib_per_s"]; !ok {
			t.Errorf("%v: JSON lacks mib_per_s", tst["name"])
		}
	}
}

// A record that says almost nothing (an old or interrupted run) must still export everywhere.
func TestExportSparseRecord(t *testing.T) {
	sparse := &record.Run{ID: "x", Profile: "quick", Interrupted: true,
		Tests: []record.Test{{Name: "seq-read-1m", Op: "read", BS: 1 << 20, MBPerS: 12.5, Runs: 1}}}
	for _, f := range Formats() {
		e, _ := ByName(f)
		var buf bytes.Buffer
		if err := e.Export(&buf, []*record.Run{sparse}, Options{Published: published(t)}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if buf.Len() == 0 {
			t.Errorf("%s: empty output", f)
		}
	}
	var buf bytes.Buffer
	if err := Terminal(&buf, sparse, TermOptions{}); err != nil || !strings.Contains(buf.String(), "link:    not identified") {
		t.Errorf("terminal: %v\n%s", err, buf.String())
	}
	if err := Compare(&buf, sparse, []*record.Run{sparse}, published(t), CompareOptions{}); err != nil {
		t.Errorf("compare: %v", err)
	}
}

func TestCSVSeveralRuns(t *testing.T) {
	out := export(t, "csv", []*record.Run{sampleRun(), sampleSustainedRun()}, Options{})
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+6+1 || rows[7][0] != sampleSustainedRun().ID {
		t.Errorf("%d rows; last run id %q", len(rows), rows[len(rows)-1][0])
	}
}

// TestMarkdownProseCodeSpans: the report's sentences quote commands between backticks; in
// Markdown they are code spans, not escaped backticks, while the rest stays escaped and an
// unpaired backtick stays literal.
func TestMarkdownProseCodeSpans(t *testing.T) {
	for in, want := range map[string]string{
		"run `iomark run --profile quick` again": "run `iomark run --profile quick` again",
		"a *b* `c|d` <e>":                        `a \*b\* ` + "`c|d`" + ` &lt;e&gt;`,
		"one ` alone":                            "one \\` alone",
		"empty `` span":                          "empty \\`\\` span",
	} {
		if got := mdProse(in); got != want {
			t.Errorf("mdProse(%q) = %q, want %q", in, got, want)
		}
	}
	r := sbcReviewsRun()
	out := string(export(t, "md", []*record.Run{r}, Options{}))
	if !strings.Contains(out, "(`iomark run --profile quick` gives the iomark score") || strings.Contains(out, "\\`iomark") {
		t.Errorf("the no-score line does not quote the command as code:\n%s", out)
	}
}

// The sbc-reviews export is only the block the template has: its heading and table laid out
// character for character as .github/ISSUE_TEMPLATE/sbc-board.md of geerlingguy/sbc-reviews
// lays them out, each figure as disk-benchmark.sh prints it (awk "%.2f" of KiB/s / 1024).
func TestSBCReviewsPaste(t *testing.T) {
	out := string(export(t, "sbc-reviews", []*record.Run{sbcReviewsRun()}, Options{}))
	golden(t, "sbc-reviews.paste.golden", []byte(out))
	// The template's table head, then its six row names padded to its 26 characters.
	want := "#### SanDisk SC32G 32GB\n\n" +
		"| Benchmark                  | Result |\n" +
		"| -------------------------- | ------ |\n" +
		"| iozone 4K random read      | 9.61 MB/s |\n" + // 10.08 MB/s = 9.61 MiB/s
		"| iozone 4K random write     | 2.74 MB/s |\n" +
		"| iozone 1M random read      | 39.96 MB/s |\n" +
		"| iozone 1M random write     | 16.40 MB/s |\n" + // 17.2 MB/s × 10^6 / 2^20 = 16.403
		"| iozone 1M sequential read  | 41.10 MB/s |\n" +
		"| iozone 1M sequential write | 18.88 MB/s |\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("sbc-reviews block:\n%s\nwant it to start:\n%s", out, want)
	}
	if !strings.Contains(out, `"MB/s" is MiB/s`) || strings.Count(out, "\n") > 13 {
		t.Errorf("the block has no unit note, or more than the template's block:\n%s", out)
	}
}
