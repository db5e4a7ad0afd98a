package main

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/stats"
)

// rowResult is every run of one workload, in the order they ran (pair i is iomark[i], fio[i]).
type rowResult struct {
	workload
	iomark, fio []sample
}

// env describes where and how the bench ran, for the report header.
type env struct {
	benchkit.Machine
	FioVersion    string `json:"fio_version"`
	IomarkVersion string `json:"iomark_version"`
	CommandLine   string `json:"command_line"`
	// The 1-minute load average before and after: other work on the machine makes the tools
	// compete for CPU and widens the spread of the pairs.
	LoadStart string `json:"load_start"`
	LoadEnd   string `json:"load_end"`
	// Nice is the scheduling priority both tools inherited from the bench (e.g. -5 when it
	// was started with `nice -n -5` on a shared machine).
	Nice int `json:"nice"`
	// Autogroup is what the bench did with the kernel's autogroup scheduling (autogroup.go).
	Autogroup string `json:"autogroup"`
	// CPUs says where the tools and the device's kernel workers ran (-split-cpus, -one-cpu).
	CPUs string `json:"cpus,omitempty"`
	// Idle says how long an idle virtual CPU polled before it halted (-halt-poll).
	Idle string `json:"idle,omitempty"`
}

func describeEnv(ctx context.Context, iomark *iomarkTool, loadStart string) env {
	e := env{Machine: benchkit.ReadMachine(), LoadStart: loadStart, LoadEnd: benchkit.LoadAvg(), CommandLine: commandLine()}
	if prio, err := unix.Getpriority(unix.PRIO_PROCESS, 0); err == nil {
		e.Nice = 20 - prio // the raw syscall answers 20 - nice
	}
	if e.Nice != 0 {
		e.CommandLine = fmt.Sprintf("nice -n %d %s", e.Nice, e.CommandLine)
	}
	if out, err := exec.CommandContext(ctx, "fio", "--version").Output(); err == nil {
		e.FioVersion = benchkit.FirstLine(out)
	}
	if iomark != nil {
		e.IomarkVersion = iomark.Version
	}
	return e
}

func each(ss []sample, f func(sample) float64) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// pairRatios is iomark/fio IOPS for each pair that has both.
func (r rowResult) pairRatios() []float64 {
	return r.ratiosOf(func(s sample) float64 { return s.IOPS })
}

// ratiosOf is iomark/fio of f for each pair that has both and a non-zero fio figure.
func (r rowResult) ratiosOf(f func(sample) float64) []float64 {
	var out []float64
	for i := range min(len(r.iomark), len(r.fio)) {
		if v := f(r.fio[i]); v > 0 {
			out = append(out, f(r.iomark[i])/v)
		}
	}
	return out
}

// goalCPUs is each pair's CPU per I/O on the goal's basis (see goalCPU).
func (r rowResult) goalCPUs() (iomark, fio []float64) {
	for i := range min(len(r.iomark), len(r.fio)) {
		a, f, _ := goalCPU(r.iomark[i], r.fio[i])
		iomark, fio = append(iomark, a), append(fio, f)
	}
	return iomark, fio
}

// meetsGoal is the engine's goal for a row: median IOPS ratio ≥ 1.0 and iomark's CPU per I/O
// no more than fio's, medians over the pairs (see goalCPU for the basis).
func (r rowResult) meetsGoal() bool {
	ratios := r.pairRatios()
	cpuI, cpuF := r.goalCPUs()
	if len(ratios) == 0 || len(cpuI) == 0 {
		return false
	}
	return stats.Median(ratios) >= 1.0 && stats.Median(cpuI) <= stats.Median(cpuF)
}

// latencyAgrees is the engine's latency check for a row: the median pair ratios of p50 and of
// p99 (iomark's lat_us against fio's total latency, the same span) both within ±5%.
func (r rowResult) latencyAgrees() bool {
	for _, f := range []func(sample) float64{func(s sample) float64 { return s.P50US }, func(s sample) float64 { return s.P99US }} {
		ratios := r.ratiosOf(f)
		if len(ratios) == 0 {
			return false
		}
		if m := stats.Median(ratios); m < 0.95 || m > 1.05 {
			return false
		}
	}
	return true
}

const mib = 1 << 20

// renderReport is the Markdown BENCHMARKS.md quotes: header, throughput table, RSS line,
// latency table, commands.
func renderReport(e env, rows []rowResult, o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine-vs-fio, %s — %s, %d cores, Linux %s; %s; %s\n\n",
		e.Date, orDash(e.CPU), e.Cores, orDash(e.Kernel), orDash(e.FioVersion), orDash(e.IomarkVersion))
	fmt.Fprintf(&b, "Device: %d MiB RAM-backed loop device (direct I/O), unthrottled. %d alternating pairs per row, "+
		"%v measured after %v ramp per run; medians. Load average (1 min) %s at the start, %s at the end; "+
		"both tools ran at nice %d; autogroup scheduling %s; CPUs: %s; idle CPUs: %s.\n\n",
		o.sizeMB, o.pairs, o.runtime, o.ramp, orDash(e.LoadStart), orDash(e.LoadEnd), e.Nice, orDash(e.Autogroup), orDash(e.CPUs), orDash(e.Idle))
	b.WriteString("| workload | iomark IOPS | fio IOPS | iomark/fio (min–max) | CPU µs/IO all threads: iomark | fio | CPU µs/IO own: iomark | fio | CPU µs/IO rusage: iomark | fio | peak RSS MiB: iomark | fio | goal |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
			num(r.iomark, "%.0f", func(s sample) float64 { return s.IOPS }),
			num(r.fio, "%.0f", func(s sample) float64 { return s.IOPS }),
			ratioCell(r.pairRatios()),
			threadsCell(r.iomark),
			threadsCell(r.fio),
			num(r.iomark, "%.2f", sample.ownCPUUSPerIO),
			num(r.fio, "%.2f", sample.ownCPUUSPerIO),
			num(r.iomark, "%.2f", sample.procCPUUSPerIO),
			num(r.fio, "%.2f", sample.procCPUUSPerIO),
			num(r.iomark, "%.1f", func(s sample) float64 { return float64(s.PeakRSSBytes) / mib }),
			num(r.fio, "%.1f", func(s sample) float64 { return float64(s.PeakRSSBytes) / mib }),
			yesNo(r.meetsGoal()))
	}
	var allIomark, allFio []sample
	for _, r := range rows {
		allIomark, allFio = append(allIomark, r.iomark...), append(allFio, r.fio...)
	}
	fmt.Fprintf(&b, "| rss: largest peak RSS of any run (QD128 included), MiB | | | | | | | | | | %s | %s | |\n",
		maxRSS(allIomark), maxRSS(allFio))
	b.WriteString("\n\"all threads\" is the CPU every thread of the tool's processes ran over the CPU table's window " +
		"below (io_uring's iou-wrk workers included), per I/O the tool completed; \"own\" is the CPU each tool reports " +
		"for its measured window (iomark: cpu.usr_s+sys_s of its process; fio: (usr_cpu+sys_cpu)% × job_runtime, " +
		"each job's own thread only, so not its iou-wrk workers); \"rusage\" is user+system CPU of the whole " +
		"process tree from start to exit (set-up and ramp included) — both divided by the I/Os measured. " +
		"goal: median ratio ≥ 1.0 and CPU per I/O ≤ fio's, all threads (own where a run has no CPU reading), " +
		"medians over the pairs.\n\n")

	b.WriteString("Latency of the same runs, µs: iomark's lat_us against fio's total latency (lat: from when fio " +
		"prepared the I/O to its completion, the span iomark times); ratios are medians of the per-pair ratios. " +
		"fio's completion latency (clat) is shown beside it: for io_uring its clock starts only once the submitting " +
		"io_uring_enter has returned.\n\n")
	b.WriteString("| workload | p50: iomark | fio lat | fio clat | iomark/fio lat (min–max) | p99: iomark | fio lat | fio clat | iomark/fio lat (min–max) | within ±5% |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|:-:|\n")
	p50 := func(s sample) float64 { return s.P50US }
	p99 := func(s sample) float64 { return s.P99US }
	c50 := func(s sample) float64 { return s.ClatP50US }
	c99 := func(s sample) float64 { return s.ClatP99US }
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
			num(r.iomark, "%.1f", p50), num(r.fio, "%.1f", p50), num(r.fio, "%.1f", c50), ratioCell(r.ratiosOf(p50)),
			num(r.iomark, "%.1f", p99), num(r.fio, "%.1f", p99), num(r.fio, "%.1f", c99), ratioCell(r.ratiosOf(p99)),
			yesNo(r.latencyAgrees()))
	}

	b.WriteString("\nThe same runs as the kernel saw them (/sys/block/DEV/stat, read from 0.5 s after the ramp to " +
		"0.3 s before the end): \"in device\" is how many requests the device held on average (iostat's aqu-sz), " +
		"\"kernel mean\" the mean time a request spent there, µs. \"in clock\" is how many I/Os the tool held inside " +
		"its own latency clock, IOPS × its mean latency (Little's law). \"outside\" is the tool's mean latency minus " +
		"the kernel's mean for the same run: the time each tool's clock runs while the I/O is not in the device " +
		"(being prepared and submitted, or completed and waiting to be reaped). Medians of the runs.\n\n")
	b.WriteString("| workload | in device: iomark | fio | in clock: iomark | fio | mean latency: iomark | fio | kernel mean: iomark's runs | fio's runs | outside: iomark | fio |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	inDevice := func(s sample) float64 { return s.Device.HeldInDevice }
	mean := func(s sample) float64 { return s.MeanUS }
	kernelMean := func(s sample) float64 { return s.Device.MeanUS }
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
			mergedOr(r.iomark, "%.1f", inDevice), mergedOr(r.fio, "%.1f", inDevice),
			num(r.iomark, "%.1f", sample.heldInSpan), num(r.fio, "%.1f", sample.heldInSpan),
			num(r.iomark, "%.1f", mean), num(r.fio, "%.1f", mean),
			mergedOr(r.iomark, "%.1f", kernelMean), mergedOr(r.fio, "%.1f", kernelMean),
			mergedOr(r.iomark, "%.1f", sample.outsideDeviceUS), mergedOr(r.fio, "%.1f", sample.outsideDeviceUS))
	}
	b.WriteString("\n\"merged N%\": the block layer merged that share of the tool's I/Os into requests already " +
		"queued (adjacent sequential I/Os submitted together), so the device saw fewer, larger requests than the " +
		"tool issued and its per-request figures do not describe the tool's I/Os.\n")

	if anyRun(rows, func(s sample) bool { return s.CPU != nil }) {
		writeCPU(&b, rows)
	}
	if anyRun(rows, func(s sample) bool { return s.Kernel != nil }) {
		writeKernelPercentiles(&b, rows)
	}

	fmt.Fprintf(&b, "\nCommand: `sudo %s`\n\nPer run (DEV is the loop device):\n\n```\n", e.CommandLine)
	for _, r := range rows {
		if len(r.iomark) > 0 {
			b.WriteString(strings.Join(devAsDEV(r.iomark[0].Args), " ") + "\n")
		}
		if len(r.fio) > 0 {
			b.WriteString(strings.Join(devAsDEV(r.fio[0].Args), " ") + "\n")
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// writeCPU is the table of where the machine's CPU went in each tool's runs: a tool that
// spends less per I/O only turns that into IOPS where the device's threads take up what it
// leaves; otherwise it shows as idle CPUs.
func writeCPU(b *strings.Builder, rows []rowResult) {
	b.WriteString("\nWhere the CPU went over the same window (/proc/PID/task/TID/schedstat and /proc/stat), µs per " +
		"request the device completed: \"tool\" is the tool's processes, \"workers\" the kernel's workqueue threads " +
		"(the loop driver's worker copies the data), \"softirq\" the ksoftirqd threads (the block softirq the " +
		"worker raises completes each request), \"device waited\" the time workers and softirq threads were ready " +
		"but waited for a CPU. \"idle\" is the share of all CPUs' time spent idle or in iowait. Medians of the runs.\n\n")
	b.WriteString("| workload | tool: iomark | fio | workers: iomark's runs | fio's runs | softirq: iomark's runs | fio's runs | all threads: iomark's runs | fio's runs | device waited: iomark's runs | fio's runs | idle: iomark's runs | fio's runs |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	cpu := func(f func(cpuWindow) float64) func([]sample, string) string {
		return func(ss []sample, format string) string {
			var with []sample
			for _, s := range ss {
				if s.CPU != nil {
					with = append(with, s)
				}
			}
			return num(with, format, func(s sample) float64 { return f(*s.CPU) })
		}
	}
	tool := cpu(func(c cpuWindow) float64 { return c.ToolUS })
	workers := cpu(func(c cpuWindow) float64 { return c.WorkersUS })
	softirq := cpu(func(c cpuWindow) float64 { return c.SoftirqUS })
	all := cpu(func(c cpuWindow) float64 { return c.ToolUS + c.WorkersUS + c.SoftirqUS + c.OtherUS })
	waited := cpu(func(c cpuWindow) float64 { return c.DeviceWaitUS })
	idle := cpu(func(c cpuWindow) float64 { return 100 * c.IdleShare })
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
			tool(r.iomark, "%.2f"), tool(r.fio, "%.2f"), workers(r.iomark, "%.2f"), workers(r.fio, "%.2f"),
			softirq(r.iomark, "%.2f"), softirq(r.fio, "%.2f"), all(r.iomark, "%.2f"), all(r.fio, "%.2f"),
			waited(r.iomark, "%.2f"), waited(r.fio, "%.2f"), idle(r.iomark, "%.1f%%"), idle(r.fio, "%.1f%%"))
	}
}

// anyRun says whether has holds for any run of either tool: a run that read where the CPU went
// (see cpuWindow), or one the kernel timed (-trace). Each of those tables is printed only then.
func anyRun(rows []rowResult, has func(sample) bool) bool {
	for _, r := range rows {
		if slices.ContainsFunc(r.iomark, has) || slices.ContainsFunc(r.fio, has) {
			return true
		}
	}
	return false
}

// writeKernelPercentiles is the table of each tool's percentiles against the kernel's for
// the same runs: what each tool's clock adds to the device's time, at the median and at p99.
func writeKernelPercentiles(b *strings.Builder, rows []rowResult) {
	b.WriteString("\nTraced (-trace): the kernel timed every request of the device (bpftrace on block_io_start and " +
		"block_io_done, 1 µs buckets, the same window as above). \"kernel\" is the kernel's percentile of the same " +
		"runs, \"added\" the tool's percentile minus the kernel's; \"to the driver\" is the kernel's mean time from a " +
		"request's creation to the driver taking it (block_rq_issue), µs: the part of its time in the device it spent " +
		"in the submitter's plug or the block layer's queue. The probes slow both tools, so these runs are not " +
		"the IOPS table's.\n\n")
	b.WriteString("| workload | p50: iomark | kernel | fio | kernel | p99: iomark | kernel | fio | kernel | added at p50: iomark | fio | added at p99: iomark | fio | to the driver: iomark | fio |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	kernel := func(f func(kernelLatency) float64) func(sample) float64 {
		return func(s sample) float64 {
			if s.Kernel == nil {
				return 0
			}
			return f(*s.Kernel)
		}
	}
	k50 := kernel(func(k kernelLatency) float64 { return k.P50US })
	k99 := kernel(func(k kernelLatency) float64 { return k.P99US })
	p50 := func(s sample) float64 { return s.P50US }
	p99 := func(s sample) float64 { return s.P99US }
	added50 := func(s sample) float64 { return s.P50US - k50(s) }
	added99 := func(s sample) float64 { return s.P99US - k99(s) }
	toDriver := kernel(func(k kernelLatency) float64 { return k.ToDriverUS })
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
			num(r.iomark, "%.1f", p50), num(r.iomark, "%.1f", k50), num(r.fio, "%.1f", p50), num(r.fio, "%.1f", k50),
			num(r.iomark, "%.1f", p99), num(r.iomark, "%.1f", k99), num(r.fio, "%.1f", p99), num(r.fio, "%.1f", k99),
			num(r.iomark, "%.1f", added50), num(r.fio, "%.1f", added50),
			num(r.iomark, "%.1f", added99), num(r.fio, "%.1f", added99),
			num(r.iomark, "%.1f", toDriver), num(r.fio, "%.1f", toDriver))
	}
}

// mergeShown is the share of merged I/Os above which the kernel's per-request figures are
// not shown for a tool's runs: beyond it they describe the merged requests, not its I/Os.
const mergeShown = 0.01

// mergedOr is num of f over ss, or, where the block layer merged more than mergeShown of the
// tool's I/Os (median of its runs), the share merged.
func mergedOr(ss []sample, format string, f func(sample) float64) string {
	if len(ss) > 0 {
		if m := stats.Median(each(ss, func(s sample) float64 { return s.Device.MergedShare })); m > mergeShown {
			return fmt.Sprintf("merged %.0f%%", 100*m)
		}
	}
	return num(ss, format, f)
}

func ratioCell(ratios []float64) string {
	if len(ratios) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f (%.3f–%.3f)", stats.Median(ratios), slices.Min(ratios), slices.Max(ratios))
}

// threadsCell is the median all-threads CPU per I/O, or a dash where any run lacks it.
func threadsCell(ss []sample) string {
	if len(ss) == 0 || slices.Contains(each(ss, sample.threadsCPUUSPerIO), 0) {
		return "—"
	}
	return num(ss, "%.2f", sample.threadsCPUUSPerIO)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func num(ss []sample, format string, f func(sample) float64) string {
	if len(ss) == 0 {
		return "—"
	}
	return fmt.Sprintf(format, stats.Median(each(ss, f)))
}

func maxRSS(ss []sample) string {
	if len(ss) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", slices.Max(each(ss, func(s sample) float64 { return float64(s.PeakRSSBytes) }))/mib)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// devAsDEV replaces the loop device's path, which differs between runs, with DEV.
func devAsDEV(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if strings.HasPrefix(a, "/dev/loop") {
			out[i] = "DEV"
		} else if strings.HasPrefix(a, "--filename=/dev/loop") {
			out[i] = "--filename=DEV"
		}
	}
	return out
}

func writeRaw(path string, e env, rows []rowResult) error {
	type rawRow struct {
		Workload string   `json:"workload"`
		Iomark   []sample `json:"iomark"`
		Fio      []sample `json:"fio"`
	}
	out := struct {
		Env  env      `json:"env"`
		Rows []rawRow `json:"rows"`
	}{Env: e}
	for _, r := range rows {
		out.Rows = append(out.Rows, rawRow{r.name, r.iomark, r.fio})
	}
	return benchkit.WriteJSON(path, out)
}
