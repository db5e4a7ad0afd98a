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

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runner"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/target"
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
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			return runProfile(cmd, path, f)
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

func runProfile(cmd *cobra.Command, path string, f *runFlags) error {
	p, outEx, err := f.parse()
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	abs, err := filepath.Abs(path)
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
	progress := newRunProgress(stderr)
	facts, env, stopTyped, err := runEnv(cmd, abs, p, decision, f, progress)
	if err != nil {
		return err
	}
	defer stopTyped()
	rec, runErr := runner.Run(ctx, *p, env)
	progress.clear()
	if rec == nil {
		return withExit(exitFailure, runErr)
	}
	// What follows the measurement also follows Ctrl-C: the signal has cancelled ctx, and the
	// verify lookup, the save and the upload must not fail for it.
	ctx = context.WithoutCancel(ctx)
	rec.Findings = facts.Findings(ctx, rec)

	whyNot := ""
	switch {
	case f.noSave:
		whyNot = "--no-save was given"
	case len(rec.Tests) == 0:
		whyNot = "nothing was measured"
	}
	saved, saveErr := keepRun(ctx, st, f.dsn, rec, whyNot)
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
	submitErr := submitRun(ctx, cmd, f, rec)
	if err := measuredStatus(rec, runErr, saveErr); err != nil {
		return err
	}
	return withExit(exitFailure, submitErr)
}

// parse checks the flags against each other and returns the profile they shape and the
// exporter --out names (nil without --out).
func (f *runFlags) parse() (*profile.Profile, report.Exporter, error) {
	p, err := profile.ByName(f.profile)
	if err != nil {
		return nil, nil, usageError("--profile: %v", err)
	}
	if f.asJSON && f.markdown {
		return nil, nil, usageError("--json and --markdown: choose one")
	}
	if f.size != "" || f.maxTime != 0 {
		var size int64
		if f.size != "" {
			if size, err = engine.ParseSize(f.size); err != nil || size <= 0 {
				return nil, nil, usageError("--size %s: give a size such as 20G (k = 1024)", f.size)
			}
		}
		if f.maxTime < 0 {
			return nil, nil, usageError("--time %s: give a duration such as 30m", f.maxTime)
		}
		if err := p.SetSustainedBounds(size, f.maxTime); err != nil {
			return nil, nil, usageError("--size/--time: %v (they bound the write of --profile sustained)", err)
		}
	}
	if f.price < 0 {
		return nil, nil, usageError("--price cannot be negative")
	}
	if f.powerWatts < 0 || f.powerWatts > 10000 {
		return nil, nil, usageError("--power-watts %v: give the watts your meter showed (e.g. 6.4)", f.powerWatts)
	}
	if f.class != "" && !slices.Contains(profile.DeclarableClasses(), f.class) {
		return nil, nil, usageError("--class %q: use one of %s", f.class, strings.Join(profile.DeclarableClasses(), ", "))
	}
	if f.confirm != "" && !f.destructive {
		return nil, nil, usageError("--confirm only counts with --destructive")
	}
	var outEx report.Exporter
	if f.outPath != "" {
		ext := strings.TrimPrefix(filepath.Ext(f.outPath), ".")
		if outEx, err = report.ByName(ext); err != nil {
			return nil, nil, usageError("--out %s: cannot tell the format from the extension (use .json, .csv, .md, .html, .png or .svg)", f.outPath)
		}
	}
	return p, outEx, nil
}

// runEnv gathers the target's facts (refusing a disk a verify left half-restored) and wires
// them, the flags and the progress line into what the runner needs. stopTyped ends the
// reading of --drive-temp-c; call it when the run is over.
func runEnv(cmd *cobra.Command, abs string, p *profile.Profile, decision *runner.Decision, f *runFlags, progress *runProgress) (facts *target.Facts, env runner.Env, stopTyped func(), err error) {
	stderr := cmd.ErrOrStderr()
	facts, perr := target.Gather(abs, target.Options{Health: true, Verifies: existingStore(f.dsn)})
	if perr != nil {
		fmt.Fprintf(stderr, "iomark: could not identify the drive (%v); measuring anyway, without a link ceiling\n", perr)
	}
	if err := refusePending(facts.Report, 0, ""); err != nil {
		return nil, env, nil, withExit(exitFailure, err)
	}
	env = runner.Env{Target: abs, Probe: facts.Report, Progress: progress.event,
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
	env.Health = facts.Health
	stopTyped = func() {}
	var readings *target.Readings
	if f.driveTempC != "" {
		log := env.Log
		typed, err := startTypedTemps(f.driveTempC, cmd.InOrStdin(), func(msg string) { log("%s", msg) })
		if err != nil {
			return nil, env, nil, withExit(exitUsage, err)
		}
		stopTyped = typed.stop
		if f.driveTempC == "-" {
			fmt.Fprintln(stderr, "iomark: type the drive's temperature in °C and Enter whenever you read it (e.g. 47); each reading is kept with the time it was typed")
		}
		readings = typed.readings(f.driveTempC)
	}
	sensors := facts.Sensors(target.SensorOptions{MeterWatts: f.powerWatts, Readings: readings})
	env.Power, env.DriveTemp, env.Sensors = sensors.Power, sensors.DriveTemp, sensors.Sample
	noPowerNote(stderr, sensors)
	return facts, env, stopTyped, nil
}

// submitRun uploads a finished run when --submit asks; the error says how to retry.
func submitRun(ctx context.Context, cmd *cobra.Command, f *runFlags, rec *record.Run) error {
	if f.submit == "" || len(rec.Tests) == 0 {
		return nil
	}
	if rec.Interrupted {
		// An interrupted run misses tests or has shortened ones: it is no result to rank.
		fmt.Fprintf(cmd.ErrOrStderr(), "iomark: the run was interrupted, so it was not uploaded; to upload it anyway: `iomark submit %s --server %s --allow-interrupted`\n",
			runstore.ShortID(rec.ID), f.submit)
		return nil
	}
	raw, err := json.Marshal(rec)
	if err == nil {
		var a upload.Answer
		a, err = upload.Send(context.WithoutCancel(ctx), f.submit, raw)
		if err == nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "iomark: submitted as %s: %s\n", a.ID, a.URL)
			keepToken(cmd, f.dsn, f.submit, raw, a)
		}
	}
	if err != nil {
		return fmt.Errorf("the run was measured and saved, but not uploaded: %w — retry with `iomark submit %s --server %s`", err, runstore.ShortID(rec.ID), f.submit)
	}
	return nil
}

// noPowerNote tells the user why a run has no power figures when the machine has a reading
// that is not a measurement (a USB-C port's negotiated contract).
func noPowerNote(stderr io.Writer, s target.Sensors) {
	if s.NoPowerWhy != "" {
		fmt.Fprintf(stderr, "iomark: no power figures: %s\n", s.NoPowerWhy)
	}
}

// keepRun saves a measured record in st unless whyNot says why not ("--no-save was given",
// "nothing was measured"); Saved says where it went or why it did not, for the summary. A
// save that fails keeps the record aside (saveFailed) and returns the error to end with.
func keepRun(ctx context.Context, st *store.Store, dsn string, rec *record.Run, whyNot string) (*report.Saved, error) {
	saved := &report.Saved{ShortID: runstore.ShortID(rec.ID)}
	if whyNot != "" {
		saved.Why = whyNot
		return saved, nil
	}
	if err := saveIn(ctx, st, rec); err != nil {
		saved.Why = "see below"
		return saved, saveFailed(rec, dsn, err)
	}
	saved.Where = st.Where()
	return saved, nil
}

// measuredStatus is how a measurement that made a record ends: the measurement's error, an
// interruption (exit 130, with a failed save said too) or a failed save; nil when all went
// well.
func measuredStatus(rec *record.Run, runErr, saveErr error) error {
	switch {
	case runErr != nil:
		return withExit(exitFailure, fmt.Errorf("%w (%s)", runErr, measuredBefore(rec, "it")))
	case rec.Interrupted && saveErr != nil:
		return withExit(exitInterrupted, fmt.Errorf("interrupted: %s; %w", measuredBefore(rec, "the signal"), saveErr))
	case rec.Interrupted:
		return withExit(exitInterrupted, fmt.Errorf("interrupted: %s", measuredBefore(rec, "the signal")))
	case saveErr != nil:
		return withExit(exitFailure, saveErr)
	}
	return nil
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
		return printJSON(w, rec)
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
