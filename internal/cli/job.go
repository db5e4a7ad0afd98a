package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/report"
)

func init() { subcommands = append(subcommands, newJobCmd) }

// jobFlags are the options of `iomark job`, named after fio's where fio has one.
type jobFlags struct {
	target      string
	rw          string
	rwmixRead   int
	bs          string
	qd          int
	jobs        int
	engine      string
	runtime     string
	size        string
	timeBased   bool
	ramp        string
	direct      bool
	buffered    bool
	fsyncEvery  int
	endFsync    bool
	json        bool
	destructive bool
	confirm     string
}

func newJobCmd() *cobra.Command {
	f := &jobFlags{}
	cmd := &cobra.Command{
		Use:   "job",
		Short: "Run one fio-like I/O job and measure it",
		Long: `Run one I/O job against a file, a directory or a block device.

A directory gets a temporary test file, removed at the end (also on error and Ctrl-C;
unnamed where the filesystem allows it, so nothing is left even after kill -9). A file
must exist (iomark creates no path but its own test files); one that iomark did not create
is only written with --destructive. A block device is read-only unless --destructive
--confirm DEVICE names it again, and is never written while mounted.

Bounds: --runtime stops after that long, --size bounds both the region I/O is spread over
and the bytes transferred (the first bound reached ends the job; --time-based makes --size
only the region). Without either, the job runs for 10 s over a 1 GiB file (or the whole
file or device). Sizes take k, m, g, t suffixes (powers of 1024). MB/s is 10^6 bytes/s.`,
		Example: `  iomark job                                   # 4k random reads, QD1, 10 s, in the current directory
  iomark job --target /mnt/ssd --rw randwrite --bs 4k --qd 32 --runtime 30s
  iomark job --target /dev/sda --rw read --bs 1m --size 1g --json
  iomark job --target /dev/sdb --rw randwrite --destructive --confirm /dev/sdb`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runJob(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.target, "target", ".", "existing directory, file or block device to test")
	fl.StringVar(&f.rw, "rw", "randread", "pattern: read, write, randread, randwrite or randrw")
	fl.IntVar(&f.rwmixRead, "rwmix-read", 50, "percent of reads in randrw")
	fl.StringVar(&f.bs, "bs", "4k", "block size, 512 to 16m")
	fl.IntVar(&f.qd, "qd", 1, "queue depth of each job, 1 to 1024")
	fl.IntVar(&f.jobs, "jobs", 1, "independent jobs, each with its own queue")
	fl.StringVar(&f.engine, "engine", "auto", "I/O engine: psync, io_uring or auto (io_uring where it works)")
	fl.StringVar(&f.runtime, "runtime", "", "measure for this long after the ramp (e.g. 30s, 2m; a bare number is seconds)")
	fl.StringVar(&f.size, "size", "", "working set and byte bound (e.g. 256m, 1g)")
	fl.BoolVar(&f.timeBased, "time-based", false, "with --runtime and --size: run for the whole runtime, looping over --size")
	fl.StringVar(&f.ramp, "ramp", "1s", "warm-up before measuring, discarded")
	fl.BoolVar(&f.direct, "direct", true, "O_DIRECT: bypass the page cache")
	fl.BoolVar(&f.buffered, "buffered", false, "go through the page cache (measures memory as much as the drive)")
	fl.IntVar(&f.fsyncEvery, "fsync-every", 0, "fsync after every N writes of a job")
	fl.BoolVar(&f.endFsync, "end-fsync", false, "fsync once after the last write, timed as part of the job")
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON object (docs/job-json.md)")
	fl.BoolVar(&f.destructive, "destructive", false, "allow writing to a block device or to a file iomark did not create")
	fl.StringVar(&f.confirm, "confirm", "", "the block device again, to confirm --destructive")
	return cmd
}

func (f *jobFlags) spec() (engine.Spec, error) {
	s := engine.Spec{
		Target: f.target, Pattern: engine.Pattern(strings.ToLower(f.rw)), RWMixRead: f.rwmixRead,
		QD: f.qd, Jobs: f.jobs, Engine: engine.Engine(strings.ToLower(f.engine)),
		Direct: f.direct && !f.buffered, FsyncEvery: f.fsyncEvery, EndFsync: f.endFsync,
		Destructive: f.destructive, Confirm: f.confirm,
	}
	bs, err := engine.ParseSize(f.bs)
	if err != nil {
		return s, usageError("--bs: %v", err)
	}
	if bs > engine.MaxBlockSize {
		return s, usageError("--bs %s is out of range: use 512 to 16m", f.bs)
	}
	s.BlockSize = int(bs)
	if f.size != "" {
		n, err := engine.ParseSize(f.size)
		if err != nil {
			return s, usageError("--size: %v", err)
		}
		if n == 0 {
			return s, usageError("--size must be larger than 0")
		}
		s.WorkingSetBytes = n
		if !f.timeBased {
			s.IOBudgetBytes = n
		}
	}
	if f.runtime != "" {
		if s.Runtime, err = parseDuration(f.runtime); err != nil || s.Runtime <= 0 {
			return s, usageError("--runtime %q: want a duration such as 10s or 2m", f.runtime)
		}
	}
	if f.timeBased && (f.runtime == "" || f.size == "") {
		return s, usageError("--time-based needs both --runtime and --size")
	}
	if s.Ramp, err = parseDuration(f.ramp); err != nil || s.Ramp < 0 {
		return s, usageError("--ramp %q: want a duration such as 1s (0 for none)", f.ramp)
	}
	if f.confirm != "" && !f.destructive {
		return s, usageError("--confirm only counts with --destructive")
	}
	if err := s.Validate(); err != nil {
		return s, withExit(exitUsage, err)
	}
	return s, nil
}

// parseDuration reads Go durations (10s, 1m30s) and, as fio does, a bare number of seconds.
func parseDuration(v string) (time.Duration, error) {
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(n * float64(time.Second)), nil
	}
	return time.ParseDuration(v)
}

func runJob(cmd *cobra.Command, f *jobFlags) error {
	s, err := f.spec()
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	live := newLiveLine(stderr)
	s.Log = func(format string, args ...any) {
		live.clear()
		fmt.Fprintf(stderr, "iomark: "+format+"\n", args...)
	}
	s.Progress = live.progress

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := engine.Run(ctx, s)
	live.clear()
	if err != nil {
		if errors.Is(err, engine.ErrInterrupted) {
			return withExit(exitInterrupted, err)
		}
		if errors.Is(err, engine.ErrNoSpace) || errors.Is(err, unix.ENOSPC) {
			err = fmt.Errorf("%w (or give a smaller --size)", err)
		}
		return withExit(exitFailure, explainMissing(err, func(p string) string { return "iomark job --target " + p }))
	}
	out := cmd.OutOrStdout()
	if f.json {
		if err := printJSON(out, res); err != nil {
			return withExit(exitFailure, err)
		}
	} else if err := report.Job(out, res); err != nil {
		return withExit(exitFailure, err)
	}
	if res.Interrupted {
		return withExit(exitInterrupted, fmt.Errorf("interrupted: the figures above cover the %.1f s measured before the signal", res.DurationS))
	}
	return nil
}

// liveLine redraws one status line on a terminal; elsewhere it stays silent, so logs and
// pipes get only the result.
type liveLine struct {
	w     io.Writer
	tty   bool
	shown bool
}

func newLiveLine(w io.Writer) *liveLine {
	l := &liveLine{w: w}
	if f, ok := w.(*os.File); ok {
		l.tty = term.IsTerminal(int(f.Fd()))
	}
	return l
}

func (l *liveLine) progress(p engine.Progress) {
	if !l.tty {
		return
	}
	st := status{What: "measuring", Elapsed: p.Elapsed, IOPS: p.IOPS, MBPerS: p.MBPerS, Left: p.Remaining, LeftIsBound: true}
	if p.Phase == "layout" {
		st = status{What: "laying out the test file", Done: p.DoneBytes, Total: p.TotalBytes, MBPerS: p.MBPerS,
			Elapsed: p.Elapsed, Left: p.Remaining}
	}
	l.draw(statusText(st))
}

// draw replaces the status line with line (terminals only).
func (l *liveLine) draw(line string) {
	if !l.tty {
		return
	}
	fmt.Fprintf(l.w, "\r\033[K%s", line)
	l.shown = true
}

func (l *liveLine) clear() {
	if l.tty && l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
}
