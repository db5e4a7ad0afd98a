package report

import (
	"bytes"
	"encoding/csv"
	"github.com/iomark/iomark/internal/compare"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// pricedRun is the sample run bought for $12.50 (SYNTHETIC, as sampleRun), with its
// sequential write measured once and the two warnings a record of schema 1 carried
// for that (single-run and few-runs).
func pricedRun() *record.Run {
	r := sampleRun()
	r.PriceUSD = ptr(12.5)
	w := &r.Tests[1]
	w.Runs, w.CI95Pct, w.RunValues = 1, 0, []float64{w.MBPerS}
	r.Warnings = []record.Warning{
		{Code: "single-run", Message: "seq-write-1m: measured once: no confidence interval, so its precision is unknown"},
		{Code: "few-runs", Message: "seq-write-1m: measured 1 times (wanted at least 3) within its 11s budget"},
		{Code: "engine-note", Message: "io_uring unavailable, psync used (rand-read-4k-qd32)"},
		{Code: "engine-note", Message: "io_uring unavailable, psync used (rand-read-4k-qd32)"},
	}
	return r
}

func TestPriceOf(t *testing.T) {
	p, ok := compare.PriceOf(pricedRun())
	if !ok || p.SeqRead == nil || p.SeqRead.Name != "seq-read-1m" || p.RandRead == nil || p.RandRead.Name != "rand-read-4k-qd1" {
		t.Fatalf("price of the sample: %+v %v", p, ok)
	}
	// $12.50 / 43.1 MB/s and / 2460 IOPS.
	if p.USDPerMBPerS < 0.2900 || p.USDPerMBPerS > 0.2901 || p.USDPerIOPS < 0.005081 || p.USDPerIOPS > 0.005082 {
		t.Errorf("$/MB/s %v, $/IOPS %v", p.USDPerMBPerS, p.USDPerIOPS)
	}
	if _, ok := compare.PriceOf(sampleRun()); ok {
		t.Error("a run without a price has a price per performance")
	}
	// pibenchmarks: the sequential read is hdparm-read (2 MiB, buffered), not iozone's 4 KiB
	// reads; the random read is iozone's QD1 4 KiB, not fio's QD64.
	pib := &record.Run{PriceUSD: ptr(30.0), Tests: []record.Test{
		{Name: "hdparm-read", Op: "read", BS: 2 << 20, QD: 1, Jobs: 1, MBPerS: 40, IOPS: 19},
		{Name: "fio-rand-read-4k-qd64", Op: "randread", BS: 4096, QD: 64, Jobs: 1, Direct: true, IOPS: 3000, MBPerS: 12},
		{Name: "iozone-read-4k", Op: "read", BS: 4096, QD: 1, Jobs: 1, Direct: true, MBPerS: 9, IOPS: 2200},
		{Name: "iozone-rand-read-4k", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Direct: true, IOPS: 2400, MBPerS: 9.8},
	}}
	if p, _ := compare.PriceOf(pib); p.SeqRead.Name != "hdparm-read" || p.RandRead.Name != "iozone-rand-read-4k" {
		t.Errorf("pibenchmarks run priced on %s and %s", p.SeqRead.Name, p.RandRead.Name)
	}
	// A sustained-write run has neither: the line says so rather than dividing by a write.
	s := sampleSustainedRun()
	s.PriceUSD = ptr(9.0)
	if l := PriceLine(s); !strings.Contains(l, "no sequential read measured") || !strings.Contains(l, "no 4K random read measured") {
		t.Errorf("sustained run's price line %q", l)
	}
}

func TestFmtUSD(t *testing.T) {
	for v, want := range map[float64]string{12.5: "$12.50", 1: "$1.00", 0.29: "$0.290", 0.005081: "$0.00508", 0.0000123: "$0.0000123", 0: "$0"} {
		if got := fmtUSD(v); got != want {
			t.Errorf("fmtUSD(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestPricedOutputs: --price is used in every report — terminal, Markdown, HTML and CSV — and
// a test measured once reads "1 run, no CI" with one warning, never "±0.0%" or "measured 1
// times" beside "measured once".
func TestPricedOutputs(t *testing.T) {
	r := pricedRun()
	var term bytes.Buffer
	saved := &Saved{Where: "/home/pi/.local/share/iomark/results.db", ShortID: "3f5a2b6c8d01"}
	if err := Terminal(&term, r, TermOptions{Saved: saved}); err != nil {
		t.Fatal(err)
	}
	golden(t, "quick.priced.terminal.golden", term.Bytes())
	md := export(t, "md", []*record.Run{r}, Options{})
	golden(t, "quick.priced.md.golden", md)
	csvOut := export(t, "csv", []*record.Run{r}, Options{})
	golden(t, "quick.priced.csv.golden", csvOut)
	html := export(t, "html", []*record.Run{r}, Options{})
	var cmpOut bytes.Buffer
	if err := Compare(&cmpOut, r, earlierRuns(), published(t), CompareOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "quick.priced.compare.golden", cmpOut.Bytes())
	if !strings.Contains(cmpOut.String(), "price $12.50: $0.290 per MB/s of sequential read") {
		t.Errorf("compare does not use the price:\n%s", cmpOut.String())
	}

	outs := map[string]string{"terminal": term.String(), "md": string(md), "html": string(html)}
	for name, out := range outs {
		for _, want := range []string{"$12.50", "$0.290 per MB/s of sequential read (seq-read-1m, 43.1 MB/s)",
			"$0.00508 per IOPS of 4K random read (rand-read-4k-qd1, 2460 IOPS)", "1 run, no CI"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
		if strings.Contains(out, "±0.0%") || strings.Contains(out, "measured 1 times") {
			t.Errorf("%s: a test measured once reads as an interval or is warned about twice", name)
		}
		cause := "io_uring unavailable, psync used"
		if name == "md" {
			cause = mdEscape(cause)
		}
		if n := strings.Count(out, cause); n != 1 {
			t.Errorf("%s: one cause warned about %d times", name, n)
		}
	}
	if !strings.Contains(term.String(), "run 019a4f2e-7c00-7a3b-9d1e-3f5a2b6c8d01 saved in /home/pi/.local/share/iomark/results.db (`iomark show 3f5a2b6c8d01`") {
		t.Errorf("terminal does not say where the run was saved:\n%s", term.String())
	}
	rows, err := csv.NewReader(bytes.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	// Row 2 is seq-write-1m, measured once: no interval. Row 3 is rand-read-4k-qd1.
	if rows[2][col["ci95_pct"]] != "" || rows[2][col["runs"]] != "1" {
		t.Errorf("a test measured once has ci95_pct %q", rows[2][col["ci95_pct"]])
	}
	if rows[3][col["price_usd"]] != "12.5" || rows[3][col["usd_per_iops"]] != "0.005081" || rows[1][col["usd_per_mb_per_s"]] != "0.29" {
		t.Errorf("price columns: %v / %v", rows[1], rows[3])
	}
}

// TestScoreSaysWhatItMeans: each score is printed with its scale and reference; a profile
// without one says so and names the command that gives one.
func TestScoreSaysWhatItMeans(t *testing.T) {
	r := sampleRun()
	pib := 1151
	r.Scores = record.Scores{Pibenchmarks: &pib}
	lines := strings.Join(scoreLines(r), "\n")
	if !strings.Contains(lines, "pibenchmarks score: 1151 points — PiBenchmarks' Storage.sh formula") || !strings.Contains(lines, "scores 1206") {
		t.Errorf("pibenchmarks score line %q", lines)
	}
	if l := strings.Join(scoreLines(sampleRun()), ""); !strings.Contains(l, "100 is a good microSD card in a Raspberry Pi 4") {
		t.Errorf("iomark score line %q", l)
	}
	cdm := sampleRun()
	cdm.Profile, cdm.Scores = "cdm", record.Scores{}
	if l := strings.Join(scoreLines(cdm), ""); !strings.Contains(l, "the cdm profile has none") || !strings.Contains(l, "iomark run --profile quick") {
		t.Errorf("no-score line %q", l)
	}
}
