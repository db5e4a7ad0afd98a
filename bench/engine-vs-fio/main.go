// Command engine-vs-fio runs iomark's engine and fio alternately on the same unthrottled
// RAM-backed loop device and prints, per workload, the median IOPS of each, the ratio
// iomark/fio, the CPU each spends per I/O, their peak RSS, and iomark's latency percentiles
// against fio's total latency (lat) of the same runs, as Markdown tables.
//
//	sudo go run ./bench/engine-vs-fio [-pairs 7] [-runtime 5s] [-ramp 1s] [-iomark PATH]
//	                                  [-size-mb 2048] [-fio-only] [-raw FILE] [-rows SUBSTR[,SUBSTR]] [-trace]
//	                                  [-keep-autogroup] [-split-cpus | -one-cpu] [-halt-poll]
//	go run ./bench/engine-vs-fio -pool RAW1,RAW2,...
//
// Without -iomark it builds ./cmd/iomark from this module. Needs root, the loop driver, the
// cgroup-v1 blkio controller (see internal/testkit/lab) and fio; -trace also needs bpftrace. While it
// runs, the kernel's autogroup scheduling is off (autogroup.go), with -split-cpus the
// device's kernel workers have a CPU of their own and with -one-cpu they share one CPU with
// the tools (splitcpus.go), and with -halt-poll an idle virtual CPU polls before it halts
// (haltpoll.go); each is put back after.
// Beside each tool's figures it prints the device's own account of the same runs (devstat.go)
// and where the machine's CPU went in them (cpustat.go). -pool runs nothing and judges
// earlier -raw files together (pool.go). Progress goes to stderr, the tables to stdout.
// BENCHMARKS.md says how to read them.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// workload is one row of the comparison, run the same way by both tools.
type workload struct {
	name   string
	rw     string // fio and iomark --rw
	bs     string // block size, k suffix as both tools read it
	qd     int    // queue depth of each job (iomark --qd); psync: threads per job
	jobs   int    // independent jobs (iomark --jobs, fio --numjobs)
	engine string // psync or io_uring, for both tools
}

// workloads are the shapes the profiles run most, and the deepest test a profile runs. psync at QD
// N is N threads for both tools: iomark's N goroutines of one job, fio's numjobs=N (its psync
// engine has no queue).
var workloads = []workload{
	{"4K randread QD1 psync", "randread", "4k", 1, 1, "psync"},
	{"4K randread QD32 io_uring", "randread", "4k", 32, 1, "io_uring"},
	{"4K randread QD128 io_uring", "randread", "4k", 128, 1, "io_uring"},
	{"4K randread 2 jobs × QD16 io_uring", "randread", "4k", 16, 2, "io_uring"},
	// CrystalDiskMark's NVMe preset's RND4K Q32T16 (profile cdm-nvme), 16 jobs × QD32, named
	// as CDM names it (so -rows QD32 still means the one-ring rows): 512 I/Os in flight,
	// more than the device has requests (the loop driver's 128), so io_uring's workers
	// (iou-wrk) submit what the device cannot take at once.
	{"4K randread Q32T16 io_uring", "randread", "4k", 32, 16, "io_uring"},
	{"4K randread 32 threads psync", "randread", "4k", 32, 1, "psync"},
	{"4K randwrite QD1 psync", "randwrite", "4k", 1, 1, "psync"},
	{"4K randwrite QD32 io_uring", "randwrite", "4k", 32, 1, "io_uring"},
	{"128K read QD8 io_uring", "read", "128k", 8, 1, "io_uring"},
}

func (w workload) writes() bool { return strings.Contains(w.rw, "write") || w.rw == "randrw" }

type options struct {
	pairs      int
	runtime    time.Duration
	ramp       time.Duration
	iomarkPath string
	sizeMB     int
	fioOnly    bool
	rawPath    string
	rows       string
	trace      bool
	// keepAutogroup leaves the kernel's autogroup scheduling as it is (see autogroup.go).
	keepAutogroup bool
	// splitCPUs gives the device's kernel workers a CPU of their own (see splitcpus.go).
	splitCPUs bool
	// oneCPU puts the tools and the device's kernel workers on one CPU (see splitcpus.go).
	oneCPU bool
	// haltPoll lets idle virtual CPUs poll before they halt (see haltpoll.go).
	haltPoll bool
	// pool lists raw files to judge together instead of running (see pool.go).
	pool string
}

func main() {
	var o options
	flag.IntVar(&o.pairs, "pairs", 7, "alternating iomark/fio pairs per workload (at least 7 for a published table)")
	flag.DurationVar(&o.runtime, "runtime", 5*time.Second, "measured time of each run")
	flag.DurationVar(&o.ramp, "ramp", time.Second, "warm-up of each run, discarded by both tools")
	benchkit.IomarkFlag(&o.iomarkPath)
	flag.IntVar(&o.sizeMB, "size-mb", 2048, "size of the RAM-backed loop device, MiB")
	flag.BoolVar(&o.fioOnly, "fio-only", false, "run only fio (to check the bench before iomark has an engine)")
	flag.StringVar(&o.rawPath, "raw", "", "also write every run's figures and raw JSON to this file")
	flag.StringVar(&o.rows, "rows", "", "run only the rows whose name contains this, or any of several separated by commas "+
		"(e.g. QD32, or \"QD1 psync,QD32 io_uring\"); default all")
	flag.BoolVar(&o.keepAutogroup, "keep-autogroup", false, "leave the kernel's autogroup scheduling as it is "+
		"(it gives each fio job, a session of its own, a CPU share of its own; see BENCHMARKS.md)")
	flag.BoolVar(&o.splitCPUs, "split-cpus", false, "run the kernel's unbound workqueues (the loop device's "+
		"worker) on the last CPU and both tools on the others, as a drive with a controller of its own (root)")
	flag.BoolVar(&o.oneCPU, "one-cpu", false, "run both tools and the kernel's unbound workqueues (the loop "+
		"device's worker) on the first CPU, as a one-core board, so the scheduler places every tool alike (root)")
	flag.BoolVar(&o.haltPoll, "halt-poll", false, "on a virtual machine, let idle CPUs poll up to 200 µs before "+
		"they halt (the kernel's default for guests), so waking one needs no trip through the hypervisor (root)")
	flag.StringVar(&o.pool, "pool", "", "run nothing: judge each row on every pair of these -raw files "+
		"together (comma-separated), with the 95% interval of the median ratio")
	flag.BoolVar(&o.trace, "trace", false, "also time every request in the kernel with bpftrace, for the latency "+
		"tables (slows both tools: not for the IOPS table)")
	benchkit.Main("engine-vs-fio", func() error { return o.check() }, func(ctx context.Context) error {
		if o.pool != "" {
			paths := strings.Split(o.pool, ",")
			rows, envs, err := poolRaw(paths)
			if err != nil {
				return err
			}
			fmt.Print(renderPool(paths, rows, envs))
			return nil
		}
		return run(ctx, o)
	})
}

// selected is the rows -rows picks, in table order.
func (o options) selected() []workload {
	var out []workload
	for _, w := range workloads {
		for _, part := range strings.Split(o.rows, ",") {
			if strings.Contains(w.name, strings.TrimSpace(part)) {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

func (o options) check() error {
	switch {
	case o.pairs < 1:
		return fmt.Errorf("-pairs %d: need at least 1 (7 or more for a published table)", o.pairs)
	case o.runtime < time.Second || o.runtime%time.Second != 0:
		return fmt.Errorf("-runtime %v: use whole seconds, at least 1s", o.runtime)
	case o.ramp < 0 || o.ramp%time.Second != 0:
		return fmt.Errorf("-ramp %v: use whole seconds", o.ramp)
	case o.sizeMB < 64:
		return fmt.Errorf("-size-mb %d: use at least 64", o.sizeMB)
	case o.splitCPUs && o.oneCPU:
		return fmt.Errorf("-split-cpus and -one-cpu place the CPUs two ways: choose one")
	case len(o.selected()) == 0:
		return fmt.Errorf("-rows %q matches no row", o.rows)
	}
	return benchkit.NoArgs()
}

func run(ctx context.Context, o options) error {
	if err := lab.Available(); err != nil {
		return err
	}
	if err := lab.FioAvailable(); err != nil {
		return err
	}
	if o.trace {
		if err := bpftraceAvailable(); err != nil {
			return err
		}
	}
	var iomark *iomarkTool
	if !o.fioOnly {
		var err error
		if iomark, err = prepareIomark(ctx, o.iomarkPath); err != nil {
			return err
		}
		defer iomark.Cleanup()
	}

	logf("bringing up a %d MiB RAM-backed loop device", o.sizeMB)
	drive, err := lab.Up(lab.Spec{Name: "engine-vs-fio", SizeMB: o.sizeMB})
	if err != nil {
		return err
	}
	defer func() {
		if err := drive.Down(); err != nil {
			logf("%v", err)
		}
	}()

	// Machine settings the bench changes for its run, each put back when it returns.
	set, undo, err := changeSettings(o)
	defer undo()
	if err != nil {
		return err
	}

	loadStart := benchkit.LoadAvg()
	if l, err := strconv.ParseFloat(loadStart, 64); err == nil && l > float64(runtime.NumCPU())/2 {
		logf("warning: load average %s on %d cores: other work will widen the spread of the pairs", loadStart, runtime.NumCPU())
	}
	results, err := runPairs(ctx, o, iomark, drive.Dev)
	if err != nil {
		return err
	}

	env := describeEnv(ctx, iomark, loadStart)
	env.Autogroup, env.CPUs, env.Idle = set.autogroup, set.cpus, set.idle
	fmt.Print(renderReport(env, results, o))
	if o.rawPath != "" {
		if err := writeRaw(o.rawPath, env, results); err != nil {
			return err
		}
	}
	return nil
}

// settings is what the report says of the machine settings the bench may change for its run.
type settings struct{ autogroup, cpus, idle string }

// changeSettings changes the machine settings o asks for (autogroup off unless kept, the CPU
// placement, halt polling) and returns what the report says of each and undo, which puts back
// every one it changed, even when it fails part way.
func changeSettings(o options) (set settings, undo func(), err error) {
	var undos []func() error
	undo = func() {
		for i := len(undos) - 1; i >= 0; i-- {
			if err := undos[i](); err != nil {
				logf("%v", err)
			}
		}
	}
	apply := func(change func() (func() error, string, error)) (string, error) {
		restore, state, err := change()
		if err == nil {
			undos = append(undos, restore)
		}
		return state, err
	}
	set.autogroup = "left as it was (-keep-autogroup)"
	if !o.keepAutogroup {
		if set.autogroup, err = apply(func() (func() error, string, error) { return levelScheduling(autogroupPath) }); err != nil {
			return set, undo, err
		}
	}
	set.cpus = "shared by the tools and the device's workers"
	if o.splitCPUs {
		if set.cpus, err = apply(func() (func() error, string, error) { return splitCPUs(workqueueMaskPath) }); err != nil {
			return set, undo, err
		}
	}
	if o.oneCPU {
		if set.cpus, err = apply(func() (func() error, string, error) { return oneCPU(workqueueMaskPath) }); err != nil {
			return set, undo, err
		}
	}
	set.idle = haltPollState(haltPollPath)
	if o.haltPoll {
		if set.idle, err = apply(func() (func() error, string, error) { return pollBeforeHalt(haltPollPath) }); err != nil {
			return set, undo, err
		}
	}
	return set, undo, nil
}

// runPairs runs o's rows, pairs of runs each, alternating which tool goes first, on dev.
// Without iomark (-fio-only) only fio runs.
func runPairs(ctx context.Context, o options, iomark *iomarkTool, dev string) ([]rowResult, error) {
	rows := o.selected()
	results := make([]rowResult, len(rows))
	for i, w := range rows {
		results[i].workload = w
	}
	for pair := 0; pair < o.pairs; pair++ {
		for i, w := range rows {
			// Alternate who goes first, so neither tool always inherits the other's warm state.
			iomarkFirst := pair%2 == 0
			for turn := 0; turn < 2; turn++ {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("interrupted: %w", err)
				}
				if (turn == 0) == iomarkFirst {
					if iomark == nil {
						continue
					}
					s, err := traced(ctx, dev, o, func() (sample, error) { return iomark.run(ctx, dev, w, o) })
					if err != nil {
						return nil, interrupted(ctx, err)
					}
					results[i].iomark = append(results[i].iomark, s)
					logf("pair %d/%d %-34s iomark %9.0f IOPS", pair+1, o.pairs, w.name, s.IOPS)
				} else {
					s, err := traced(ctx, dev, o, func() (sample, error) { return runFio(ctx, dev, w, o) })
					if err != nil {
						return nil, interrupted(ctx, err)
					}
					results[i].fio = append(results[i].fio, s)
					logf("pair %d/%d %-34s fio    %9.0f IOPS", pair+1, o.pairs, w.name, s.IOPS)
				}
			}
		}
	}
	return results, nil
}

// traced is run, with the kernel's latency of the run added under -trace.
func traced(ctx context.Context, dev string, o options, run func() (sample, error)) (sample, error) {
	if !o.trace {
		return run()
	}
	t, err := startKernelTrace(ctx, dev, o)
	if err != nil {
		return sample{}, err
	}
	s, err := run()
	if err != nil {
		t.stop()
		return s, err
	}
	k, err := t.result()
	if err != nil {
		return s, fmt.Errorf("kernel trace: %w", err)
	}
	s.Kernel = &k
	return s, nil
}

// interrupted says so when a run failed because the bench was being stopped; nothing is
// printed for an unfinished table.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted; the device is taken down and no table is printed")
	}
	return err
}

var logf = benchkit.Logf

// commandLine is how this run was started, for the report, with each argument that holds a
// space quoted so the line runs as shown (-rows "randread QD32").
func commandLine() string {
	args := make([]string, len(os.Args)-1)
	for i, a := range os.Args[1:] {
		if strings.ContainsAny(a, " \t'\"") {
			a = strconv.Quote(a)
		}
		args[i] = a
	}
	return strings.TrimSpace("go run ./bench/engine-vs-fio " + strings.Join(args, " "))
}
