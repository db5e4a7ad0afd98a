package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// driveClass is an emulated drive of one class: its limits (blk-throttle on a RAM-backed loop
// device with ext4) and the class quick is told it is (`run --class`), since a loop device's
// own class is one iomark cannot tell.
type driveClass struct {
	Name                string
	Declare             string // quick's --class
	ReadMBps, WriteMBps int
	ReadIOPS, WriteIOPS int
	Note                string
}

// driveClasses are the classes -classes picks from: a Pi 4 microSD card, a USB 3 flash
// stick, the USB SSD of the report that quick's figures were +8% and ±82-254% on, and a faster
// drive near what this VM's RAM loop device carries.
var driveClasses = []driveClass{
	{Name: "microsd", Declare: "microsd", ReadMBps: 40, WriteMBps: 20, ReadIOPS: 2600, WriteIOPS: 700, Note: "Pi 4 microSD card"},
	{Name: "usb-stick", Declare: "usb-flash", ReadMBps: 100, WriteMBps: 40, ReadIOPS: 2000, WriteIOPS: 500, Note: "USB 3 flash stick"},
	{Name: "usb-ssd", Declare: "usb-ssd", ReadMBps: 350, WriteMBps: 300, ReadIOPS: 20000, WriteIOPS: 15000, Note: "USB 3 SSD"},
	{Name: "fast", Declare: "nvme", ReadMBps: 1000, WriteMBps: 800, ReadIOPS: 60000, WriteIOPS: 50000, Note: "a 1 GB/s drive"},
}

// limit is what the emulated drive allows test t, in its primary unit: the lower of the
// bandwidth and IOPS limits at its block size.
func (c driveClass) limit(t record.Test) float64 {
	mbps, iops := float64(c.ReadMBps), float64(c.ReadIOPS)
	if strings.Contains(t.Op, "write") {
		mbps, iops = float64(c.WriteMBps), float64(c.WriteIOPS)
	}
	if t.Primary == profile.PrimaryMBPerS {
		return min(mbps, iops*float64(t.BS)/1e6)
	}
	return min(iops, mbps*1e6/float64(t.BS))
}

// classRow is one quick test on one class, beside fio with the same settings.
type classRow struct {
	Class, Test, Unit string
	Limit             float64
	Iomark            float64
	IomarkCI95Pct     float64
	IomarkRuns        int
	Fio               []float64 // each fio run of the test's `show --fio` line
	FioLine           string
	Err               string
}

// classRun is quick on one class.
type classRun struct {
	Class        driveClass
	DurationS    float64 // the record's
	WallS        float64
	BytesWritten int64
	BudgetBytes  int64
	Rows         []classRow
	Warnings     []string
	Findings     []string
	Err          string
}

// runClasses runs quick on each named class and each of its tests' fio lines fioRuns times.
func runClasses(ctx context.Context, o options, iomark *iomarkTool) ([]classRun, error) {
	var out []classRun
	for _, name := range o.classes {
		i := slices.IndexFunc(driveClasses, func(c driveClass) bool { return c.Name == name })
		c := driveClasses[i]
		if err := ctx.Err(); err != nil {
			return out, err
		}
		spec := lab.Spec{Name: "quick-" + c.Name, SizeMB: 1024, FS: "ext4", ReadIOPS: c.ReadIOPS, WriteIOPS: c.WriteIOPS,
			ReadMBps: c.ReadMBps, WriteMBps: c.WriteMBps}
		logf("%s: bringing up %d/%d MB/s, %d/%d IOPS (ext4), quick --class %s", c.Name, c.ReadMBps, c.WriteMBps, c.ReadIOPS, c.WriteIOPS, c.Declare)
		d, err := lab.Up(spec)
		if err != nil {
			return out, err
		}
		cr := runClass(ctx, o, iomark, c, d.Mnt)
		if err := d.Down(); err != nil {
			return out, err
		}
		out = append(out, cr)
	}
	return out, nil
}

func runClass(ctx context.Context, o options, iomark *iomarkTool, c driveClass, mnt string) classRun {
	cr := classRun{Class: c}
	q := profile.Quick()
	cr.BudgetBytes = q.WriteBudget(profile.DriveClass{Class: c.Declare}).Bytes
	args := []string{"run", mnt, "--profile", "quick", "--json", "--no-save", "--class", c.Declare}
	start := time.Now()
	raw, _, err := iomark.exec(ctx, args)
	cr.WallS = time.Since(start).Seconds()
	if err != nil {
		cr.Err = err.Error()
		return cr
	}
	var rec record.Run
	if err := json.Unmarshal(raw, &rec); err != nil {
		cr.Err = fmt.Sprintf("parse the record: %v", err)
		return cr
	}
	cr.DurationS, cr.BytesWritten = rec.DurationS, rec.BytesWritten
	for _, w := range rec.Warnings {
		cr.Warnings = append(cr.Warnings, w.Message)
	}
	for _, f := range rec.Findings {
		if f.ID == "burst" || f.ID == "noisy" {
			cr.Findings = append(cr.Findings, f.ID+": "+f.Message)
		}
	}
	logf("  quick: %.1f s, %d MiB written (budget %d MiB)", cr.DurationS, cr.BytesWritten>>20, cr.BudgetBytes>>20)
	fioFile := filepath.Join(mnt, profile.FioFileName)
	defer os.Remove(fioFile)
	for _, t := range rec.Tests {
		row := classRow{Class: c.Name, Test: t.Name, Unit: unitOf(t), Limit: c.limit(t), Iomark: primaryOf(t),
			IomarkCI95Pct: t.CI95Pct, IomarkRuns: t.Runs}
		shape, _, err := profile.FioFor(&rec, t)
		if err != nil {
			row.Err = err.Error()
			cr.Rows = append(cr.Rows, row)
			continue
		}
		shape.Filename = fioFile
		fa, err := shape.Args()
		if err != nil {
			row.Err = err.Error()
			cr.Rows = append(cr.Rows, row)
			continue
		}
		row.FioLine = "fio " + strings.Join(fa, " ")
		for n := 0; n < o.fioRuns; n++ {
			r, err := lab.RunFioContext(ctx, fa...)
			if err != nil {
				row.Err = err.Error()
				break
			}
			v := r.IOPS()
			if t.Primary == profile.PrimaryMBPerS {
				v = (r.ReadBytesPerS + r.WriteBytesPerS) / 1e6
			}
			row.Fio = append(row.Fio, v)
		}
		logf("  %-20s iomark %.1f, fio %v %s (limit %.0f)", t.Name, row.Iomark, fmtValues(row.Fio), row.Unit, row.Limit)
		cr.Rows = append(cr.Rows, row)
	}
	return cr
}

func primaryOf(t record.Test) float64 {
	if t.Primary == profile.PrimaryMBPerS {
		return t.MBPerS
	}
	return t.IOPS
}

func unitOf(t record.Test) string {
	if t.Primary == profile.PrimaryMBPerS {
		return "MB/s"
	}
	return "IOPS"
}

func fmtValues(vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprintf("%.1f", v)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// spreadPct is half the range of vs over their median, in percent: fio's own spread over runs
// of one line, set beside iomark's 95% interval.
func spreadPct(vs []float64) float64 {
	if len(vs) < 2 {
		return 0
	}
	lo, hi := slices.Min(vs), slices.Max(vs)
	m := medianOf(vs)
	if m <= 0 {
		return 0
	}
	return (hi - lo) / 2 / m * 100
}

func medianOf(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// The bounds quick is held to: on the slow card every figure within 1% of its limit; on any
// other class within 3% wherever fio with the same settings is, and a random write's interval
// no wider than ±10% or fio's own spread, whichever is wider; at most 45 s on every class.
const (
	slowCardBoundPct = 1
	classBoundPct    = 3
	randIntervalPct  = 10
	quickMaxS        = 45
)

// verdict says whether row r of class c is within its bounds, and why not.
func (r classRow) verdict(c driveClass) (ok bool, why string) {
	dev := (r.Iomark/r.Limit - 1) * 100
	fioDev := (medianOf(r.Fio)/r.Limit - 1) * 100
	switch {
	case r.Err != "":
		return false, "failed"
	case c.Name == "microsd" && math.Abs(dev) > slowCardBoundPct:
		return false, fmt.Sprintf("%+.1f%% of the limit (bound ±%d%%)", dev, slowCardBoundPct)
	case c.Name != "microsd" && math.Abs(dev) > classBoundPct && math.Abs(fioDev) <= classBoundPct:
		return false, fmt.Sprintf("%+.1f%% of the limit where fio is %+.1f%%", dev, fioDev)
	case strings.HasPrefix(r.Test, "rand-write") && r.IomarkCI95Pct > max(randIntervalPct, spreadPct(r.Fio)):
		return false, fmt.Sprintf("interval ±%.1f%% wider than max(±%d%%, fio's ±%.1f%%)", r.IomarkCI95Pct, randIntervalPct, spreadPct(r.Fio))
	case c.Name != "microsd" && math.Abs(dev) > classBoundPct:
		return true, fmt.Sprintf("fio is %+.1f%% too", fioDev)
	}
	return true, ""
}

// renderClasses prints the table: per class and test, the limit, iomark's figure, its
// deviation and interval, fio's median, deviation and spread, and the verdict; then per class
// quick's time and bytes against its bounds.
func renderClasses(runs []classRun, e env) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#### %s — %s\n\n", e.Machine.Date, e.IomarkVersion)
	fmt.Fprintf(&b, "%s, %d cores, Linux %s, %s. Load average %s at the start, %s at the end.\n", e.Machine.CPU, e.Machine.Cores, e.Machine.Kernel, e.FioVersion, e.LoadStart, e.LoadEnd)
	fmt.Fprintf(&b, "Command: `sudo %s`\n\n", e.CommandLine)
	b.WriteString("| class | test | limit | iomark | vs limit | iomark CI95 | runs | fio (median) | vs limit | fio spread | within bounds |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, cr := range runs {
		if cr.Err != "" {
			fmt.Fprintf(&b, "| %s | quick failed: %s | | | | | | | | | **no** |\n", cr.Class.Name, oneLine(cr.Err))
			continue
		}
		for _, r := range cr.Rows {
			ok, why := r.verdict(cr.Class)
			v := "yes"
			if !ok {
				v = "**no**"
			}
			if why != "" {
				v += " (" + why + ")"
			}
			fm := medianOf(r.Fio)
			fmt.Fprintf(&b, "| %s | `%s` | %.0f %s | %.1f | %+.1f%% | ±%.1f%% | %d | %.1f | %+.1f%% | ±%.1f%% | %s |\n",
				cr.Class.Name, r.Test, r.Limit, r.Unit, r.Iomark, (r.Iomark/r.Limit-1)*100, r.IomarkCI95Pct, r.IomarkRuns,
				fm, (fm/r.Limit-1)*100, spreadPct(r.Fio), v)
		}
	}
	b.WriteString("\n| class | emulated as | quick --class | quick time (record / wall) | ≤ 45 s | written | budget |\n")
	b.WriteString("|---|---|---|--:|---|--:|--:|\n")
	for _, cr := range runs {
		c := cr.Class
		ok := "yes"
		if cr.Err != "" || cr.DurationS > quickMaxS || cr.WallS > quickMaxS+1 {
			ok = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s: %d/%d MB/s, %d/%d IOPS | %s | %.1f s / %.1f s | %s | %d MiB | %d MiB |\n",
			c.Name, c.Note, c.ReadMBps, c.WriteMBps, c.ReadIOPS, c.WriteIOPS, c.Declare, cr.DurationS, cr.WallS, ok, cr.BytesWritten>>20, cr.BudgetBytes>>20)
	}
	var notes []string
	for _, cr := range runs {
		for _, w := range cr.Warnings {
			notes = append(notes, fmt.Sprintf("- %s, warning: %s", cr.Class.Name, w))
		}
		for _, f := range cr.Findings {
			notes = append(notes, fmt.Sprintf("- %s, finding %s", cr.Class.Name, f))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
	b.WriteString("\nfio lines (the `iomark show --fio` line of each test, `--filename` in the mount):\n\n")
	for _, cr := range runs {
		for _, r := range cr.Rows {
			if r.FioLine != "" {
				fmt.Fprintf(&b, "- %s `%s`: `%s`\n", cr.Class.Name, r.Test, r.FioLine)
			}
		}
	}
	return b.String()
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return strings.ReplaceAll(s, "|", "/")
}
