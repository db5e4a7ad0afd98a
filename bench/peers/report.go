package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/iomark/iomark/bench/internal/benchkit"
)

// env describes where and how the bench ran, for the report header.
type env struct {
	benchkit.Machine
	FioVersion    string `json:"fio_version"`
	HdparmVersion string `json:"hdparm_version"`
	DDVersion     string `json:"dd_version"`
	IomarkVersion string `json:"iomark_version"`
	CommandLine   string `json:"command_line"`
	// The 1-minute load average before and after: other work competes for the CPU, which
	// moves QD1 figures most.
	LoadStart string `json:"load_start"`
	LoadEnd   string `json:"load_end"`
}

func describeEnv(ctx context.Context, iomark *iomarkTool, loadStart string) env {
	e := env{Machine: benchkit.ReadMachine(), LoadStart: loadStart, LoadEnd: benchkit.LoadAvg(),
		CommandLine: "go run ./bench/peers " + strings.Join(os.Args[1:], " ")}
	version := func(name string, args ...string) string {
		out, _ := exec.CommandContext(ctx, name, args...).CombinedOutput()
		return benchkit.FirstLine(out)
	}
	e.FioVersion = version("fio", "--version")
	e.HdparmVersion = version("hdparm", "-V")
	e.DDVersion = version("dd", "--version")
	if iomark != nil {
		e.IomarkVersion = iomark.Version
	}
	return e
}

// comparison is one row of the side-by-side table.
type comparison struct {
	Peer       peer
	PeerValue  float64
	PeerErr    string
	Iomark     float64
	IomarkErr  string
	Ratio      float64
	HaveRatio  bool
	LimitRatio float64 // peer / what the drive allows
}

func compare(p peer, pr peerRun, rec *runRecord) comparison {
	c := comparison{Peer: p, PeerValue: pr.Value, PeerErr: pr.Err}
	switch {
	case rec == nil:
		c.IomarkErr = "profile " + p.Profile + " not run"
	default:
		t, ok := rec.test(p.Test)
		if !ok {
			c.IomarkErr = "no test " + p.Test + " in the record"
			break
		}
		v, err := t.field(p.Field)
		if err != nil {
			c.IomarkErr = err.Error()
			break
		}
		c.Iomark = v
	}
	if c.PeerErr == "" && c.IomarkErr == "" {
		c.Ratio, c.HaveRatio = ratio(c.Iomark, c.PeerValue)
	}
	return c
}

func verdict(c comparison) string {
	switch {
	case !c.HaveRatio:
		return "—"
	case agrees(c.Ratio):
		return "yes"
	}
	return "**no**"
}

func renderReport(res results, o options) string {
	var b strings.Builder
	e := res.Env
	fmt.Fprintf(&b, "peers, %s — %s, %d cores, Linux %s; %s; %s; %s; %s\n\n",
		e.Date, orDash(e.CPU), e.Cores, orDash(e.Kernel), orDash(e.FioVersion), orDash(e.HdparmVersion),
		orDash(e.DDVersion), orDash(e.IomarkVersion))
	fmt.Fprintf(&b, "Drive: %d MiB emulated microSD card (internal/testkit/lab: RAM-backed loop device, blk-throttle "+
		"%d/%d IOPS, %d/%d MB/s read/write), ext4. Load average (1 min) %s at the start, %s at the end.\n\n",
		o.sizeMB, readIOPS, writeIOPS, readMBps, writeMBps, orDash(e.LoadStart), orDash(e.LoadEnd))

	b.WriteString("#### Peers side by side\n\n")
	b.WriteString("| peer line | peer | iomark test (profile) | iomark | iomark/peer | agree ±5% | drive limit | peer/limit |\n")
	b.WriteString("|---|--:|---|--:|--:|:-:|--:|--:|\n")
	for i, p := range peers {
		c := compare(p, res.Peers[i], res.Records[p.Profile])
		peerCell := fmt.Sprintf("%.2f %s", c.PeerValue, p.Unit)
		if c.PeerErr != "" {
			peerCell = "failed"
		}
		iomarkCell := fmt.Sprintf("%.2f %s", c.Iomark, p.Unit)
		if c.IomarkErr != "" {
			iomarkCell = c.IomarkErr
		}
		ratioCell := "—"
		if c.HaveRatio {
			ratioCell = fmt.Sprintf("%.3f", c.Ratio)
		}
		limitRatio := "—"
		if c.PeerErr == "" && p.LimitInUnit > 0 {
			limitRatio = fmt.Sprintf("%.3f", c.PeerValue/p.LimitInUnit)
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` (%s) | %s | %s | %s | %.2f %s | %s |\n", p.Script, peerCell, p.Test,
			p.Profile, iomarkCell, ratioCell, verdict(c), p.LimitInUnit, p.Unit, limitRatio)
	}
	if !res.IozoneOK {
		b.WriteString("| every script's iozone line | not run: iozone is not installed and Debian's iozone3 is in " +
			"non-free, which this machine's apt sources do not carry | `iozone-*-4k` (pibenchmarks) | — | — | — | — | — |\n")
	}
	if r := res.Records["pibenchmarks"]; r != nil && r.Scores.Pibenchmarks != nil {
		fmt.Fprintf(&b, "\niomark's pibenchmarks score: %d (Storage.sh's score needs iozone's four figures, so the "+
			"peer score is not computed here).\n", *r.Scores.Pibenchmarks)
	}
	b.WriteString("\nUnits as the peer prints them: hdparm's MB/sec is 2^20 bytes/s (set beside iomark's `mib_per_s`), " +
		"dd's and fio's MB/s 10^6 bytes/s (`mb_per_s`), fio's IOPS (`iops`). Drive limit: what blk-throttle allows, " +
		"in the same unit. Where a row disagrees, docs/methodology.md (\"Peers side by side\") gives the reason.\n")

	if len(res.Refs) > 0 {
		renderTimeToFigure(&b, res, o)
	}

	fmt.Fprintf(&b, "\nCommand: `sudo %s`\n\nPer step (DEV is the loop device, MNT its ext4 mount; the script "+
		"lines run with MNT as the working directory):\n\n```\n", e.CommandLine)
	var prev string
	for _, pr := range res.Peers {
		line := strings.Join(devAsDEV(pr.Args, res.Dev, res.Mnt), " ")
		if line != prev && line != "" {
			b.WriteString(line + "\n")
		}
		prev = line
	}
	for _, prof := range []string{"pibenchmarks", "quick", "sbc-reviews"} {
		if r := res.Records[prof]; r != nil {
			b.WriteString(strings.Join(devAsDEV(r.Args, res.Dev, res.Mnt), " ") + "\n")
		}
	}
	for _, r := range res.Refs {
		b.WriteString(strings.Join(devAsDEV(r.Args, res.Dev, res.Mnt), " ") + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

func renderTimeToFigure(b *strings.Builder, res results, o options) {
	quick := res.Records["quick"]
	fmt.Fprintf(b, "\n#### Time to a figure\n\nReference: one `iomark job` of each quick test's shape, %v measured "+
		"after a 1 s ramp, on a laid-out 128 MiB file.\n\n",
		o.refRuntime)
	b.WriteString("| quick test | reference | quick | quick/reference | within ±5% | quick runs | quick CI95 % |\n")
	b.WriteString("|---|--:|--:|--:|:-:|--:|--:|\n")
	for _, r := range res.Refs {
		unit := "MB/s"
		if r.Shape.Field == "iops" {
			unit = "IOPS"
		}
		quickCell, ratioCell, ok, runs, ci := "—", "—", "—", "—", "—"
		if quick != nil {
			if t, found := quick.test(r.Shape.Test); found {
				v, _ := t.field(r.Shape.Field)
				quickCell = fmt.Sprintf("%.2f %s", v, unit)
				if rt, have := ratio(v, r.Value); have {
					ratioCell = fmt.Sprintf("%.3f", rt)
					ok = "yes"
					if !agrees(rt) {
						ok = "**no**"
					}
				}
				runs, ci = fmt.Sprint(t.Runs), fmt.Sprintf("%.1f", t.CI95Pct)
			}
		}
		fmt.Fprintf(b, "| `%s` | %.2f %s | %s | %s | %s | %s | %s |\n", r.Shape.Test, r.Value, unit, quickCell, ratioCell, ok, runs, ci)
	}
	pib := res.Records["pibenchmarks"]
	if quick != nil {
		fmt.Fprintf(b, "\nquick: %.1f s by its record (`duration_s`), %.1f s wall clock for the command, %d MiB written "+
			"(budget: ≤ 60 s, ≤ 512 MiB): %s.\n", quick.DurationS, quick.WallS, quick.BytesWritten>>20,
			withinBudget(quick.DurationS, quick.BytesWritten))
	}
	if quick != nil && pib != nil && pib.DurationS > 0 {
		fmt.Fprintf(b, "pibenchmarks: %.1f s by its record, %.1f s wall clock. quick/pibenchmarks run time: %.2f (record), %.2f (wall).\n",
			pib.DurationS, pib.WallS, quick.DurationS/pib.DurationS, quick.WallS/pib.WallS)
	}
}

func withinBudget(durationS float64, bytesWritten int64) string {
	if durationS <= 60 && bytesWritten <= 512<<20 {
		return "inside"
	}
	return "**outside**"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// devAsDEV replaces the loop device and the mount point, which differ between runs, with DEV
// and MNT.
func devAsDEV(args []string, dev, mnt string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if dev != "" {
			a = strings.ReplaceAll(a, dev, "DEV")
		}
		if mnt != "" {
			a = strings.ReplaceAll(a, mnt, "MNT")
		}
		out[i] = a
	}
	return out
}
