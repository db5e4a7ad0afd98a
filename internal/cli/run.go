package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/power"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runner"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/upload"
)

func init() { subcommands = append(subcommands, newRunCmd) }

type runFlags struct {
	profile     string
	asJSON      bool
	markdown    bool
	outPath     string
	price       float64
	dsn         string
	noSave      bool
	engine      string
	destructive bool
	confirm     string
	latency     bool
	submit      string
	powerWatts  float64
	class       string
	size        string
	maxTime     time.Duration
	driveTempC  string
}

func newRunCmd() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run [TARGET]",
		Short: "Benchmark a drive with a profile, explain the figures, save and rank them",
		Long: `Run a benchmark profile on TARGET (default: the current directory): identify the drive
and its link, measure it (warm-up discarded, each figure repeated until its 95% confidence
interval is within ±5% or its time budget is spent), explain the figures with findings,
save the run in the local results database and print it.

TARGET must exist: iomark creates nothing but its own test file. A directory gets one test
file, laid out once and removed at the end (also on error and Ctrl-C; unnamed where the
filesystem allows it, so not even kill -9 leaves it behind). A block device, or a file
iomark did not create, is only read unless --destructive (and for a device --confirm
DEVICE) allows writing. What the run will do, which tests it skips and the most it will
write (the profile's byte budget, at most what the tool it mirrors writes) are said before
it starts. Ctrl-C stops at once and keeps what was measured. Every run prints the bytes it
wrote and how long it took. Profiles: ` + strings.Join(profile.Names(), ", ") + ` (docs/methodology.md).`,
		Example: `  iomark run                          # the quick profile on the current directory
  iomark run /mnt/ssd --profile pibenchmarks
  iomark run /media/pi/card --profile a2 --json > card.json
  iomark run --profile sbc-reviews --markdown`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target := "."
			if len(args) == 1 {
				target = args[0]
			}
			return runProfile(cmd, target, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.profile, "profile", "quick", "profile: "+strings.Join(profile.Names(), ", "))
	fl.BoolVar(&f.asJSON, "json", false, "print only the result record as JSON")
	fl.BoolVar(&f.markdown, "markdown", false, "print the result as Markdown")
	fl.StringVarP(&f.outPath, "out", "o", "", "also write the result to FILE, in the format its extension names (json, csv, md, html, png, svg)")
	fl.Float64Var(&f.price, "price", 0, "what the drive cost (USD), kept with the run for price per MB/s and per IOPS")
	addDBFlag(cmd, &f.dsn)
	fl.BoolVar(&f.noSave, "no-save", false, "do not save the run in the results database")
	fl.StringVar(&f.engine, "engine", "", "force an I/O engine for every test: psync or io_uring (default: each test's own, io_uring where it works)")
	fl.BoolVar(&f.destructive, "destructive", false, "allow writing to a block device TARGET (destroys its data) or to a file iomark did not create")
	fl.StringVar(&f.confirm, "confirm", "", "the block device again, to confirm --destructive")
	fl.BoolVar(&f.latency, "latency", false, "show latency percentiles of every test")
	fl.StringVar(&f.submit, "submit", "", "upload the result to the results server at URL (opt-in; hostnames and paths are never sent)")
	fl.StringVar(&f.class, "class", "", "the drive's class when iomark cannot tell it (a loop device, a virtual disk): "+strings.Join(profile.DeclarableClasses(), ", ")+"; it sets quick's write cap only (docs/methodology.md)")
	fl.Float64Var(&f.powerWatts, "power-watts", 0, "the power a meter showed during the run (W), kept as every test's power when the machine reports none (docs/power.md)")
	fl.StringVar(&f.size, "size", "", "sustained profile: write at most this much (default 10G, k = 1024; free space less 512 MiB bounds it too)")
	fl.DurationVar(&f.maxTime, "time", 0, "sustained profile: write at most this long (default 10m)")
	fl.StringVar(&f.driveTempC, "drive-temp-c", "", "drive temperatures read off a thermometer, for drives that report none: - to type them (°C, one a line) during the run, or a FILE a logger appends them to")
	return cmd
}

func runProfile(cmd *cobra.Command, target string, f *runFlags) error {
	p, err := profile.ByName(f.profile)
	if err != nil {
		return usageError("--profile: %v", err)
	}
	if f.asJSON && f.markdown {
		return usageError("--json and --markdown: choose one")
	}
	if f.size != "" || f.maxTime != 0 {
		var size int64
		if f.size != "" {
			if size, err = engine.ParseSize(f.size); err != nil || size <= 0 {
				return usageError("--size %s: give a size such as 20G (k = 1024)", f.size)
			}
		}
		if f.maxTime < 0 {
			return usageError("--time %s: give a duration such as 30m", f.maxTime)
		}
		if err := p.SetSustainedBounds(size, f.maxTime); err != nil {
			return usageError("--size/--time: %v (they bound the write of --profile sustained)", err)
		}
	}
	if f.price < 0 {
		return usageError("--price cannot be negative")
	}
	if f.powerWatts < 0 || f.powerWatts > 10000 {
		return usageError("--power-watts %v: give the watts your meter showed (e.g. 6.4)", f.powerWatts)
	}
	if f.class != "" && !slices.Contains(profile.DeclarableClasses(), f.class) {
		return usageError("--class %q: use one of %s", f.class, strings.Join(profile.DeclarableClasses(), ", "))
	}
	if f.confirm != "" && !f.destructive {
		return usageError("--confirm only counts with --destructive")
	}
	var outEx report.Exporter
	if f.outPath != "" {
		ext := strings.TrimPrefix(filepath.Ext(f.outPath), ".")
		if outEx, err = report.ByName(ext); err != nil {
			return usageError("--out %s: cannot tell the format from the extension (use .json, .csv, .md, .html, .png or .svg)", f.outPath)
		}
	}
	stderr := cmd.ErrOrStderr()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	abs, err := filepath.Abs(target)
	if err != nil {
		return withExit(exitFailure, err)
	}
	// What the run may do is decided before anything else, so a refusal comes first.
	decision, err := runner.Decide(*p, runner.Env{Target: abs, Destructive: f.destructive, Confirm: f.confirm})
	if err != nil {
		return withExit(exitFailure, explainMissing(err, func(p string) string {
			if f.profile != "quick" {
				return "iomark run " + p + " --profile " + f.profile
			}
			return "iomark run " + p
		}))
	}
	// The database is opened and checked before the first I/O: minutes of benchmarking must
	// not end in a record that cannot be kept.
	var st *store.Store
	if !f.noSave {
		if st, err = openForSave(ctx, f.dsn); err != nil {
			return err
		}
		defer st.Close()
	}
	popts := probe.Options{}
	rep, perr := probe.Probe(abs, popts)
	if perr != nil {
		fmt.Fprintf(stderr, "iomark: could not identify the drive (%v); measuring anyway, without a link ceiling\n", perr)
		rep = nil
	}
	if err := refusePending(rep, 0, ""); err != nil {
		return withExit(exitFailure, err)
	}
	progress := newRunProgress(stderr)
	env := runner.Env{Target: abs, Probe: rep, Progress: progress.event,
		Log: func(format string, args ...any) {
			progress.clear()
			fmt.Fprintf(stderr, "iomark: "+format+"\n", args...)
		},
		Destructive: f.destructive, Confirm: f.confirm, Decision: decision, Engine: engine.Engine(f.engine),
		ToolVersion: Version(), ToolCommit: Commit(), Class: f.class}
	// The write budget depends on the drive's class, known now.
	decision.SetDrive(*p, env)
	if f.price > 0 {
		env.PriceUSD = &f.price
	}
	if rep != nil {
		env.Health = health.Read(rep, popts)
	}
	var typed *typedTemps
	if f.driveTempC != "" {
		if typed, err = startTypedTemps(f.driveTempC, cmd.InOrStdin(), func(msg string) { env.Log("%s", msg) }); err != nil {
			return withExit(exitUsage, err)
		}
		defer typed.stop()
		if f.driveTempC == "-" {
			fmt.Fprintln(stderr, "iomark: type the drive's temperature in °C and Enter whenever you read it (e.g. 47); each reading is kept with the time it was typed")
		}
	}
	env.Power, env.DriveTemp, env.Sensors = runSensors(rep, popts, f.powerWatts, env.Health, typed, f.driveTempC)
	noPowerNote(stderr, env.Power, popts)
	rec, runErr := runner.Run(ctx, *p, env)
	progress.clear()
	if rec == nil {
		return withExit(exitFailure, runErr)
	}
	// The latest verify of this drive (iomark verify) adds its finding: a benchmark of a
	// fake card is a benchmark of a card that loses data.
	rec.Findings = advice.Sorted(append(rec.Findings, verifyFindings(ctx, f.dsn, rep)...))

	saved := &report.Saved{ShortID: runstore.ShortID(rec.ID)}
	var saveErr error
	switch {
	case f.noSave:
		saved.Why = "--no-save was given"
	case len(rec.Tests) == 0:
		saved.Why = "nothing was measured"
	default:
		if err := saveIn(ctx, st, rec); err != nil {
			saveErr = saveFailed(rec, f.dsn, err)
			saved.Why = "see below"
		} else {
			saved.Where = st.Where()
		}
	}
	if err := printRun(cmd.OutOrStdout(), rec, f, saved); err != nil {
		return withExit(exitFailure, err)
	}
	if f.asJSON || f.markdown {
		// The terminal summary ends with this line; JSON and Markdown keep stdout for themselves.
		fmt.Fprintf(stderr, "iomark: %s\n", report.RunLine(rec, saved))
		if h := report.ExportHint(rec, saved); h != "" {
			fmt.Fprintf(stderr, "iomark: %s\n", h)
		}
	}
	if outEx != nil {
		published, _ := refdata.Load()
		if err := exportTo(nil, f.outPath, outEx, rec, report.Options{Published: published}); err != nil {
			return withExit(exitFailure, err)
		}
	}
	var submitErr error
	if f.submit != "" && rec.Interrupted && len(rec.Tests) > 0 {
		// An interrupted run misses tests or has shortened ones: it is no result to rank.
		fmt.Fprintf(stderr, "iomark: the run was interrupted, so it was not uploaded; to upload it anyway: `iomark submit %s --server %s --allow-interrupted`\n",
			runstore.ShortID(rec.ID), f.submit)
	} else if f.submit != "" && len(rec.Tests) > 0 {
		raw, err := json.Marshal(rec)
		if err == nil {
			var a upload.Answer
			a, err = upload.Send(context.WithoutCancel(ctx), f.submit, raw)
			if err == nil {
				fmt.Fprintf(stderr, "iomark: submitted as %s: %s\n", a.ID, a.URL)
				keepToken(cmd, f.dsn, f.submit, raw, a)
			}
		}
		if err != nil {
			submitErr = fmt.Errorf("the run was measured and saved, but not uploaded: %w — retry with `iomark submit %s --server %s`", err, runstore.ShortID(rec.ID), f.submit)
		}
	}
	switch {
	case runErr != nil:
		return withExit(exitFailure, fmt.Errorf("%w (%s)", runErr, measuredBefore(rec, "it")))
	case rec.Interrupted && saveErr != nil:
		return withExit(exitInterrupted, fmt.Errorf("interrupted: %s; %w", measuredBefore(rec, "the signal"), saveErr))
	case rec.Interrupted:
		return withExit(exitInterrupted, fmt.Errorf("interrupted: %s", measuredBefore(rec, "the signal")))
	case saveErr != nil:
		return withExit(exitFailure, saveErr)
	case submitErr != nil:
		return withExit(exitFailure, submitErr)
	}
	return nil
}

// runSensors composes what a run samples once a second: the probe's temperatures and
// throttling, the drive's temperature from the best source it has (readings the user gives,
// else the kernel's hwmon sensor, else the drive asked again at a rate it tolerates:
// health.TempReader), and the power source the machine has (or the meter reading, which is
// not sampled: it stands for every test).
func runSensors(rep *probe.Report, o probe.Options, meterWatts float64, h *health.Health, typed *typedTemps, typedFrom string) (*record.Power, *record.DriveTemp, func() record.SensorSample) {
	var ps power.Sampler
	var pw *record.Power
	if meterWatts > 0 {
		ps = power.Meter(meterWatts)
	} else {
		ps = power.Find(o)
	}
	if ps != nil {
		info := ps.Info()
		pw = &record.Power{Source: info.Source, Sensor: info.Sensor, Scope: info.Scope}
		if meterWatts > 0 {
			pw.MeterWatts = &meterWatts
			ps = nil
		}
	}
	var sampler *probe.Sampler
	if rep != nil {
		sampler = probe.NewSampler(rep, o)
	}
	var dt *record.DriveTemp
	var asked *health.TempReader
	switch {
	case typed != nil && typedFrom == "-":
		dt = &record.DriveTemp{Source: "typed", Sensor: "readings typed on standard input during the run (--drive-temp-c -)"}
	case typed != nil:
		dt = &record.DriveTemp{Source: "file", Sensor: "readings appended to " + typedFrom + " during the run (--drive-temp-c)"}
	case sampler != nil && sampler.Read().DriveTempC != nil:
		dt = &record.DriveTemp{Source: "hwmon", Sensor: "the kernel's hwmon sensor of " + rep.Device.Path, EveryS: 1}
	default:
		if asked = health.NewTempReader(rep, o, h); asked != nil {
			dt = &record.DriveTemp{Source: asked.Source, Sensor: rep.Device.Path, EveryS: asked.Every.Seconds()}
		}
	}
	if sampler == nil && ps == nil && dt == nil {
		return pw, nil, nil
	}
	return pw, dt, func() record.SensorSample {
		var s record.SensorSample
		if sampler != nil {
			r := sampler.Read()
			s = record.SensorSample{SoCTempC: r.SoCTempC, DriveTempC: r.DriveTempC, Throttled: r.Throttled}
		}
		switch {
		case typed != nil:
			s.DriveTempC = typed.take()
		case asked != nil && asked.Due(time.Now()):
			s.DriveTempC = asked.Read(time.Now())
		}
		if ps != nil {
			if w, ok := ps.Watts(); ok {
				s.PowerW = &w
			}
		}
		return s
	}
}

// noPowerNote tells the user why a run has no power figures when the machine has a reading
// that is not a measurement (a USB-C port's negotiated contract).
func noPowerNote(stderr io.Writer, pw *record.Power, o probe.Options) {
	if pw != nil {
		return
	}
	if note := power.PDNote(o); note != "" {
		fmt.Fprintf(stderr, "iomark: no power figures: %s\n", note)
	}
}

// measuredBefore says what a run that stopped early printed: never "the figures above" when
// nothing was measured.
func measuredBefore(rec *record.Run, what string) string {
	switch n := len(rec.Tests); n {
	case 0:
		return "nothing was measured before " + what
	case 1:
		return "the one test printed was measured before " + what
	default:
		return fmt.Sprintf("the %d tests printed were measured before %s", n, what)
	}
}

// saveNeedBytes is the free space a run's save is checked for before the run: a record with
// its per-second series is a few hundred KB at most, and SQLite writes it to its WAL first.
const saveNeedBytes = 2 << 20

// saveIn keeps the run in an open results database, also after Ctrl-C.
func saveIn(ctx context.Context, st *store.Store, rec *record.Run) error {
	return runstore.Save(context.WithoutCancel(ctx), st, rec, store.SourceLocal)
}

// openForSave opens the results database a run will be saved in and checks that the save
// can succeed; the caller closes it.
func openForSave(ctx context.Context, dsn string) (*store.Store, error) {
	st, err := openStore(ctx, dsn)
	if err != nil {
		return nil, withExit(exitFailure, fmt.Errorf("%w — fix it before the run, or give --no-save", err))
	}
	if err := st.CheckWrite(ctx, saveNeedBytes); err != nil {
		st.Close()
		return nil, withExit(exitFailure, fmt.Errorf("the run could not be saved: %w — or give --no-save", err))
	}
	return st, nil
}

func printRun(w io.Writer, rec *record.Run, f *runFlags, saved *report.Saved) error {
	switch {
	case f.asJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rec)
	case f.markdown:
		ex, _ := report.ByName("md")
		return ex.Export(w, []*record.Run{rec}, report.Options{})
	}
	return report.Terminal(w, rec, report.TermOptions{Color: isTerminal(w), Latency: f.latency, Saved: saved})
}

// runProgress shows where a run is: a live line on a terminal, one plain line per finished
// test elsewhere (logs, pipes), always on stderr.
type runProgress struct {
	*liveLine
	lastPlain time.Duration // run time of the last sustained line printed off a terminal
}

func newRunProgress(w io.Writer) *runProgress { return &runProgress{liveLine: newLiveLine(w)} }

// plainEvery is how often a sustained write, which may take many minutes, prints a line of
// progress where the output is no terminal (a log, a pipe, ssh without a tty).
const plainEvery = 10 * time.Second

func (p *runProgress) event(e runner.Event) {
	if e.Phase == "done" && e.Result != nil {
		p.clear()
		t := e.Result
		fig := fmt.Sprintf("%.0f IOPS", t.IOPS)
		if t.Primary == "mb_per_s" {
			fig = fmt.Sprintf("%.1f MB/s", t.MBPerS)
		}
		fmt.Fprintf(p.w, "[%d/%d] %-22s %s %s\n", e.Index, e.Total, t.Name, fig, report.FormatCI(*t))
		return
	}
	name := e.Test
	if name == "" {
		name = "laying out the test file"
	}
	what := name + "  " + e.Phase
	if e.Run > 0 {
		what += fmt.Sprintf(" run %d", e.Run)
	}
	st := status{What: what, Step: e.Index, Steps: e.Total, Elapsed: e.Elapsed, Left: e.ETA, LeftIsBound: true}
	if e.MBPerS > 0 {
		st.IOPS, st.MBPerS = e.IOPS, e.MBPerS
	}
	if ls := e.Sustained; ls != nil {
		st.What, st.IOPS, st.Done, st.Total = e.Test, 0, ls.Bytes, ls.BoundBytes
		line := statusText(st) + sustainedProgress(ls)
		if !p.tty {
			if e.Elapsed-p.lastPlain >= plainEvery {
				p.lastPlain = e.Elapsed
				fmt.Fprintln(p.w, line)
			}
			return
		}
		p.draw(line)
		return
	}
	p.draw(statusText(st))
}

// sustainedProgress is what a sustained write's progress line adds: the temperatures last
// sampled, and the cliff once one shows.
func sustainedProgress(ls *runner.LiveSustained) string {
	var b strings.Builder
	if ls.DriveTempC != nil {
		fmt.Fprintf(&b, "  drive %.0f °C", *ls.DriveTempC)
	}
	if ls.SoCTempC != nil {
		fmt.Fprintf(&b, "  SoC %.0f °C", *ls.SoCTempC)
	}
	if ls.Cliff {
		fmt.Fprintf(&b, "  cliff at %.0f s after %s: %.1f -> %.1f MB/s", ls.CliffAtS, report.Bytes(ls.CliffAtBytes), ls.BeforeMBPerS, ls.AfterMBPerS)
	}
	return b.String()
}
