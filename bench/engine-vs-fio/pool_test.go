package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/testkit"
)

// TestPool writes two raw files the way the bench does and judges their pairs together: a row
// ahead in every pair, a row split around 1.0, and a row only one file has. The older file has
// no CPU witness, so its pairs are compared on the tools' own CPU figures, the newer one's on
// all their threads'.
func TestPool(t *testing.T) {
	dir := t.TempDir()
	witness := false
	pair := func(iomarkIOPS, fioIOPS float64) (sample, sample) {
		a, f := sample{IOPS: iomarkIOPS, IOs: 1e6, OwnCPUS: 2}, sample{IOPS: fioIOPS, IOs: 1e6, OwnCPUS: 3}
		if witness {
			a, f = witnessed(a, 1.5, iomarkIOPS), witnessed(f, 4, fioIOPS)
		}
		return a, f
	}
	write := func(name string, e env, rows map[string][][2]float64) string {
		var rr []rowResult
		for _, w := range workloads {
			ps, ok := rows[w.name]
			if !ok {
				continue
			}
			r := rowResult{workload: w}
			for _, p := range ps {
				a, f := pair(p[0], p[1])
				r.iomark, r.fio = append(r.iomark, a), append(r.fio, f)
			}
			rr = append(rr, r)
		}
		path := filepath.Join(dir, name)
		if err := writeRaw(path, e, rr); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ahead := [][2]float64{{110, 100}, {105, 100}, {108, 100}, {112, 100}}
	split := [][2]float64{{95, 100}, {105, 100}, {97, 100}, {103, 100}}
	// a is a run from before the bench recorded CPUs and idle polling, b one after.
	a := write("a.json", env{Autogroup: "off"}, map[string][][2]float64{"4K randread QD32 io_uring": ahead, "4K randread 2 jobs × QD16 io_uring": split})
	witness = true
	b := write("b.json", env{Autogroup: "off", CPUs: "split", Idle: "poll"}, map[string][][2]float64{"4K randread QD32 io_uring": ahead, "4K randread 2 jobs × QD16 io_uring": split,
		"128K read QD8 io_uring": {{90, 100}}})
	rows, envs, err := poolRaw([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(envs) != 2 || len(rows) != 3 || rows[0].pairs != 8 || rows[1].pairs != 8 || rows[2].pairs != 1 || rows[0].cheaper != 8 {
		t.Fatalf("pooled %d files into %+v", len(envs), rows)
	}
	out := renderPool([]string{a, b}, rows, envs)
	testkit.Contains(t, "pooled table", out,
		"| 4K randread QD32 io_uring | 8 | 1.090 | ",
		"| 1.75 | 3.50 | 8 | ahead |",
		"| 4K randread 2 jobs × QD16 io_uring | 8 | 1.000 | ",
		"| level |",
		"| 128K read QD8 io_uring | 1 | 0.900 | 0.900–0.900 | 0 | 1.50 | 4.00 | 1 | — |",
		"(pairs on own figures: 4K randread QD32 io_uring 4 of 8; 4K randread 2 jobs × QD16 io_uring 4 of 8).\n",
		"a.json: —, —, autogroup off, load — → —\n",
		"b.json: —, —, autogroup off, CPUs: split, idle CPUs: poll, load — → —\n",
	)
	if _, _, err := poolRaw([]string{filepath.Join(dir, "missing.json")}); err == nil {
		t.Error("a missing file was pooled")
	}
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := poolRaw([]string{junk}); err == nil {
		t.Error("a file that is not a raw file was pooled")
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"results": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := poolRaw([]string{a, other}); err == nil || !strings.Contains(err.Error(), "holds no rows") {
		t.Errorf("a JSON file with no rows was pooled (err %v)", err)
	}
}
