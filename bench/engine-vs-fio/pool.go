package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/iomark/iomark/internal/stats"
)

// -pool reads the raw files (-raw) of several benches and judges each row on all their pairs
// together. One bench's 7 pairs leave a row's median ratio within a few percent of where it
// landed by chance on a shared VM (single pairs ranged 0.5-1.3 here); pooled, the
// distribution-free 95% interval of the median (internal/stats, order statistics) says
// whether iomark is ahead of fio, level with it, or behind. Pairs are formed within each file
// (iomark[i] with fio[i]), never across files.

// rawFile is what writeRaw writes.
type rawFile struct {
	Env  env `json:"env"`
	Rows []struct {
		Workload string   `json:"workload"`
		Iomark   []sample `json:"iomark"`
		Fio      []sample `json:"fio"`
	} `json:"rows"`
}

// pooledRow is one workload over every file that has it.
type pooledRow struct {
	name           string
	ratios         []float64 // iomark/fio IOPS per pair
	cpuI, cpuF     []float64 // CPU µs per I/O of each pair's runs, on the goal's basis (goalCPU)
	cheaper, pairs int       // pairs whose CPU per I/O was ≤ fio's, and all pairs
	ownOnly        int       // pairs compared on the tools' own figures: a run without a CPU reading
}

// poolRaw reads the files and pools each row's pairs, in first-seen order.
func poolRaw(paths []string) ([]pooledRow, []env, error) {
	var rows []pooledRow
	var envs []env
	at := map[string]int{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		var f rawFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, nil, fmt.Errorf("%s: not a raw file of this bench: %w", p, err)
		}
		if len(f.Rows) == 0 {
			return nil, nil, fmt.Errorf("%s holds no rows: not a raw file of this bench (-raw)", p)
		}
		envs = append(envs, f.Env)
		for _, r := range f.Rows {
			i, ok := at[r.Workload]
			if !ok {
				i = len(rows)
				at[r.Workload] = i
				rows = append(rows, pooledRow{name: r.Workload})
			}
			for k := range min(len(r.Iomark), len(r.Fio)) {
				a, f := r.Iomark[k], r.Fio[k]
				if f.IOPS <= 0 {
					continue
				}
				rows[i].ratios = append(rows[i].ratios, a.IOPS/f.IOPS)
				ci, cf, threads := goalCPU(a, f)
				rows[i].cpuI = append(rows[i].cpuI, ci)
				rows[i].cpuF = append(rows[i].cpuF, cf)
				rows[i].pairs++
				if !threads {
					rows[i].ownOnly++
				}
				if ci <= cf {
					rows[i].cheaper++
				}
			}
		}
	}
	return rows, envs, nil
}

// verdict places 1.0 against the interval of the median ratio.
func verdict(s stats.Summary) string {
	switch {
	case s.CIMethod == stats.CIMethodNone:
		return "—"
	case s.CI95Low > 1:
		return "ahead"
	case s.CI95High < 1:
		return "behind"
	}
	return "level"
}

// renderPool is the pooled table, with the files it read.
func renderPool(paths []string, rows []pooledRow, envs []env) string {
	var b strings.Builder
	b.WriteString("engine-vs-fio, pooled: every pair of these runs together\n\n")
	for i, e := range envs {
		fmt.Fprintf(&b, "- %s: %s, %s, autogroup %s", paths[i], orDash(e.Date), orDash(e.IomarkVersion), orDash(e.Autogroup))
		// Runs from before -split-cpus and -halt-poll existed did not record them.
		if e.CPUs != "" {
			fmt.Fprintf(&b, ", CPUs: %s", e.CPUs)
		}
		if e.Idle != "" {
			fmt.Fprintf(&b, ", idle CPUs: %s", e.Idle)
		}
		fmt.Fprintf(&b, ", load %s → %s\n", orDash(e.LoadStart), orDash(e.LoadEnd))
	}
	b.WriteString("\n| workload | pairs | median iomark/fio | 95% interval of the median | iomark ahead in | CPU µs/IO: iomark | fio | ≤ fio's in | verdict |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|:-:|\n")
	for _, r := range rows {
		s := stats.Summarize(r.ratios)
		ahead := 0
		for _, x := range r.ratios {
			if x > 1 {
				ahead++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f–%.3f | %d | %.2f | %.2f | %d | %s |\n", r.name, r.pairs, s.Median,
			s.CI95Low, s.CI95High, ahead, stats.Median(r.cpuI), stats.Median(r.cpuF), r.cheaper, verdict(s))
	}
	b.WriteString("\nThe interval is the distribution-free one of internal/stats (order statistics; Student's t " +
		"below 6 pairs). verdict: ahead when the whole interval lies above 1.0, behind when below it, level " +
		"when it holds 1.0. CPU: medians over the pooled runs, and the pairs in which iomark's was no more than fio's; " +
		"every thread of each tool's processes where both runs of a pair have a CPU reading, else each tool's own figure")
	var own []string
	for _, r := range rows {
		if r.ownOnly > 0 {
			own = append(own, fmt.Sprintf("%s %d of %d", r.name, r.ownOnly, r.pairs))
		}
	}
	if len(own) > 0 {
		fmt.Fprintf(&b, " (pairs on own figures: %s)", strings.Join(own, "; "))
	}
	b.WriteString(".\n")
	return b.String()
}
