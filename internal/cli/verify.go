package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/target"
)

func init() { subcommands = append(subcommands, newVerifyCmd) }

// exitVerifyFailed is the status of a verify that completed and found the drive fake or
// damaged, so scripts can tell it from an error (1) and from a genuine drive (0).
const exitVerifyFailed = 3

type verifyFlags struct {
	asJSON      bool
	confirm     string
	destructive bool
	size        string
	dsn         string
	noSave      bool
	restore     string
	journal     string
	discard     string
	maxFlush    string
	root        string
	full        bool
	readOnly    bool
	rewrite     bool
	chart       string
	errorTime   time.Duration
}

func newVerifyCmd() *cobra.Command {
	f := &verifyFlags{}
	cmd := &cobra.Command{
		Use:   "verify TARGET",
		Short: "Check that a drive really holds what it claims (fake capacity, lost data)",
		Long: `verify finds fake-capacity cards and sticks, and damaged ones.

TARGET a whole disk (/dev/sdb, /dev/mmcblk0; unmounted; --confirm naming it again): a probe in
the manner of f3probe. It writes stamped blocks at chosen places, reads them back past the
drive's cache and finds the last good byte by search, never writing the whole disk. Every
block it overwrites is saved first in a journal on another drive (synced before the block is
written: --journal, the path is printed before the first write) and written back at the end —
also on error, Ctrl-C and SIGTERM. After a crash, kill -9 or power loss, --restore JOURNAL
puts every byte back; until then verify, fill and run refuse that disk. --destructive keeps
nothing. About a minute on a slow card.

--full goes on to read every block (O_DIRECT, 4 MiB requests) after the probe: unreadable
stretches as ddrescue finds them (skipping ahead past errors, then trimming each stretch's
edges, within --error-time), the read speed by position and the zones reading at under half
the median, and --chart FILE.png|.svg draws them. --read-only skips the probe and writes
nothing (the capacity is then not checked). --rewrite also writes a pattern over every
block and puts the data back, one request at a time through the journal (badblocks -n);
--destructive writes and checks every block and keeps nothing (badblocks -w).

TARGET a directory on a mounted drive: the f3write/f3read method. It fills the free space
(minus a margin, or --size) with stamped files, reads them back, reports what came back
intact, corrupted, overwritten or changed and the write and read rates by position, and
removes the files (also on Ctrl-C; leftovers of a killed run are removed by the next).

The result is saved in the results database; iomark info and iomark run then show a
fake-capacity finding for a drive found fake. Exit status 3 means the drive is fake or
damaged. See docs/verify.md.`,
		Example: `  sudo iomark verify /dev/sdb --confirm /dev/sdb
  iomark verify /media/pi/CARD
  iomark verify /media/pi/CARD --size 4G --json
  sudo iomark verify /dev/sdb --full --confirm /dev/sdb --chart sdb.png
  sudo iomark verify /dev/sdb --full --read-only
  sudo iomark verify /dev/sdb --confirm /dev/sdb --journal /media/pi/USB/sdb-journal.bin
  sudo iomark verify --restore ~/.local/share/iomark/verify-journal-sdb-….bin /dev/sdb --confirm /dev/sdb`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runVerify(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object (docs/verify.md)")
	fl.StringVar(&f.confirm, "confirm", "", "the disk again: verify writes to it (and puts back what it overwrote)")
	fl.BoolVar(&f.destructive, "destructive", false, "do not save and restore what the probe overwrites (faster; destroys data)")
	fl.StringVar(&f.size, "size", "", "directory TARGET: test only this many bytes (e.g. 4G) instead of the free space")
	fl.StringVar(&f.restore, "restore", "", "write back every block saved in the JOURNAL of a verify that did not finish, check them, then remove the journal")
	fl.StringVar(&f.journal, "journal", "", "where the probe saves what it overwrites, on another drive than the disk (default: beside the results database)")
	fl.StringVar(&f.discard, "discard-journal", "", "give up the JOURNAL of a verify that did not finish: its blocks are never put back")
	fl.StringVar(&f.maxFlush, "max-flush", "", "most the probe writes to empty the drive's cache before trusting a read-back (default 128M)")
	fl.StringVar(&f.root, "root", os.Getenv("IOMARK_ROOT"), "read DIR/sys and DIR/proc instead of the live system")
	fl.BoolVar(&f.full, "full", false, "disk: after the probe, read every block — bad regions, speed by position, slow zones")
	fl.BoolVar(&f.readOnly, "read-only", false, "with --full: skip the probe and write nothing (the capacity is not checked)")
	fl.BoolVar(&f.rewrite, "rewrite", false, "with --full: also write a pattern over every block, check it and put the data back (badblocks -n)")
	fl.StringVar(&f.chart, "chart", "", "with --full or a directory: draw the speed by position to FILE.png or FILE.svg")
	fl.DurationVar(&f.errorTime, "error-time", flash.DefaultScanErrorBudget, "with --full: the most time spent on unreadable stretches after the first pass (what is left is reported unread)")
	addDBFlag(cmd, &f.dsn)
	fl.BoolVar(&f.noSave, "no-save", false, "do not save the result in the results database")
	return cmd
}

func runVerify(cmd *cobra.Command, path string, f *verifyFlags) error {
	block, err := f.check(cmd, path)
	if err != nil {
		return err
	}
	// Ctrl-C and SIGTERM stop the verify, which then restores what it overwrote: the signal
	// handlers stay installed until that is done, so a second Ctrl-C cannot cut it short.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := newVerifyProgress(cmd.ErrOrStderr())
	// Deferred after stop, so it runs before stop cancels ctx.
	defer noteInterrupt(ctx, cmd, f, progress)()

	if f.restore != "" {
		return restoreJournal(cmd, path, f)
	}
	if f.discard != "" {
		return discardJournal(cmd, path, f)
	}
	// The database is checked before the first write: a verify takes minutes to hours.
	if !f.noSave {
		st, err := openForSave(ctx, f.dsn)
		if err != nil {
			return err
		}
		st.Close()
	}
	var res *flash.Result
	var runErr error
	var rep *probe.Report
	if block {
		res, rep, runErr = verifyDisk(ctx, path, f, progress)
	} else {
		res, rep, runErr = verifyDir(ctx, path, f, progress)
	}
	progress.clear()
	if res == nil || (runErr != nil && res.Verdict == flash.Unknown && !res.Interrupted && res.BytesWritten == 0 && res.BytesRead == 0) {
		// Nothing was tested: the error is the whole answer, not a report of nothing.
		return withExit(exitFailure, runErr)
	}
	res.Target = path
	var savedID string
	var saveErr error
	if !f.noSave && res.Verdict != flash.Unknown {
		id, err := saveVerify(ctx, f.dsn, res, rep)
		if err != nil {
			saveErr = fmt.Errorf("the result printed was not saved: %w — iomark info and iomark run will not know it", err)
		}
		savedID = id
	}
	if err := printVerify(cmd.OutOrStdout(), res, path, savedID, f.asJSON); err != nil {
		return withExit(exitFailure, err)
	}
	if f.chart != "" {
		if err := writeVerifyChart(f.chart, res, path); err != nil {
			runErr = errors.Join(runErr, err)
		} else {
			fmt.Fprintf(cmd.ErrOrStderr(), "iomark: the speed by position is drawn in %s\n", f.chart)
		}
	}
	return verifyStatus(res, path, runErr, saveErr)
}

// check refuses flags that do not go together or with the target, and a target verify could
// not go ahead on, before any I/O; block says whether the target is a block device.
func (f *verifyFlags) check(cmd *cobra.Command, path string) (block bool, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, withExit(exitFailure, fmt.Errorf("%s: %w", path, err))
	}
	block = fi.Mode()&os.ModeDevice != 0 && fi.Mode()&os.ModeCharDevice == 0
	if err := f.checkTogether(cmd, path, block, fi.IsDir()); err != nil {
		return block, err
	}
	if f.chart != "" {
		if err := checkChartPath(f.chart); err != nil {
			return block, err
		}
	}
	if !block {
		// A fill writes its files in the directory: a permission error comes now, not after
		// a report of nothing.
		if err := unix.Access(path, unix.W_OK|unix.X_OK); err != nil {
			return block, withExit(exitFailure, fmt.Errorf("cannot write in %s (%v): verify fills it with test files — run it as a user who may write there (e.g. with sudo), or name a directory you own on the same drive", path, err))
		}
		if f.size != "" {
			if n, err := engine.ParseSize(f.size); err != nil || n <= 0 {
				return block, usageError("--size %q: a size such as 512M or 4G", f.size)
			}
		}
	}
	if block && !f.readOnly && !sameDevice(f.confirm, path) {
		return block, f.unconfirmed(path)
	}
	return block, nil
}

// checkTogether refuses flags that do not go together, or not with a disk (block) or a
// directory (dir) as the target.
func (f *verifyFlags) checkTogether(cmd *cobra.Command, path string, block, dir bool) error {
	switch {
	case (f.restore != "" || f.discard != "") && !block:
		return usageError("--restore and --discard-journal need the disk the journal was made for as TARGET")
	case f.restore != "" && f.discard != "":
		return usageError("--restore or --discard-journal, not both")
	case f.journal != "" && (!block || f.destructive):
		return usageError("--journal is for a non-destructive verify of a disk")
	case f.size != "" && block:
		return usageError("--size is for a directory TARGET; a disk is probed, not filled")
	case (f.destructive || f.maxFlush != "") && !block:
		return usageError("--destructive and --max-flush are for a disk TARGET")
	case !block && !dir:
		return usageError("%s is neither a directory nor a block device: give a whole disk (/dev/sdb) or a directory on a mounted card", path)
	case f.full && !block:
		return usageError("--full is for a disk TARGET; a directory's fill already reads back everything it wrote")
	case (f.readOnly || f.rewrite || cmd.Flags().Changed("error-time")) && !f.full:
		return usageError("--read-only, --rewrite and --error-time go with --full")
	case f.readOnly && (f.rewrite || f.destructive):
		return usageError("--read-only writes nothing: not with --rewrite or --destructive")
	case f.rewrite && f.destructive:
		return usageError("--rewrite keeps the data and --destructive does not: give one")
	case f.full && (f.restore != "" || f.discard != ""):
		return usageError("--full is a verify; --restore and --discard-journal are given alone")
	case f.errorTime <= 0:
		return usageError("--error-time %s: a positive duration such as 5m", f.errorTime)
	case f.chart != "" && block && !f.full:
		return usageError("--chart draws the speed by position of --full or of a directory's fill; the probe alone has none")
	}
	return nil
}

// unconfirmed is the refusal of a write to disk that --confirm does not name: it says what
// the write would do.
func (f *verifyFlags) unconfirmed(disk string) error {
	what := "verify writes to " + disk + " (and puts back what it overwrote)"
	if f.destructive {
		what = "--destructive overwrites parts of " + disk + " for good"
	}
	if f.full && f.destructive {
		what = "--full --destructive overwrites every block of " + disk + " for good"
	}
	if f.restore != "" {
		what = "--restore writes to " + disk
	}
	if f.discard != "" {
		what = "--discard-journal gives up for good what a verify overwrote on " + disk
	}
	if f.confirm != "" {
		return usageError("--confirm %s does not name %s: %s — pass --confirm %s", f.confirm, disk, what, disk)
	}
	return usageError("%s: pass --confirm %s to go ahead", what, disk)
}

// noteInterrupt says, once ctx is cancelled by a signal, what the verify does now; call the
// function it returns when the verify is over, before ctx is cancelled, so that the end of a
// verify is never announced as an interruption (seen on a slow guest: "interrupted" after a
// verdict).
func noteInterrupt(ctx context.Context, cmd *cobra.Command, f *verifyFlags, progress *verifyProgress) (finish func()) {
	finished := make(chan struct{})
	go func() {
		select {
		case <-finished:
			return
		case <-ctx.Done():
		}
		select {
		case <-finished:
			return
		default:
		}
		if cmd.Context().Err() == nil {
			if f.readOnly {
				progress.note("interrupted: stopping with the map so far")
			} else {
				progress.note("interrupted: stopping and putting back what was overwritten — wait for it to finish")
			}
		}
	}()
	return func() { close(finished) }
}

// printVerify prints the result as JSON or for people, with the id it was saved under.
func printVerify(out io.Writer, res *flash.Result, path, savedID string, asJSON bool) error {
	if asJSON {
		return printJSON(out, res)
	}
	return report.Verify(out, res, path, runstore.ShortID(savedID))
}

// verifyStatus is how a verify that tested something ends: interrupted (130), failed (1), the
// drive fake or damaged (exitVerifyFailed, with a failed save said too), or a failed save.
func verifyStatus(res *flash.Result, path string, runErr, saveErr error) error {
	switch {
	case res.Interrupted:
		return withExit(exitInterrupted, fmt.Errorf("interrupted%s", restoredText(res)))
	case runErr != nil:
		return withExit(exitFailure, runErr)
	case res.Verdict == flash.Fake || res.Verdict == flash.Damaged:
		if saveErr != nil {
			return withExit(exitVerifyFailed, fmt.Errorf("%s is %s; %w", path, res.Verdict, saveErr))
		}
		return withExit(exitVerifyFailed, fmt.Errorf("%s is %s", path, res.Verdict))
	case saveErr != nil:
		return withExit(exitFailure, saveErr)
	}
	return nil
}

// checkChartPath refuses a chart file iomark cannot write before any I/O: the format comes
// from its extension.
func checkChartPath(path string) error {
	if chartFormat(path) == "" {
		return usageError("--chart %s: name a .png or .svg file", path)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return usageError("--chart %s: the directory %s does not exist", path, filepath.Dir(path))
	}
	return nil
}

func chartFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png"
	case ".svg":
		return "svg"
	}
	return ""
}

// writeVerifyChart draws the verify's speed by position to path (atomically).
func writeVerifyChart(path string, res *flash.Result, target string) error {
	draw := func(w io.Writer) error { return report.VerifyChart(w, res, target, chartFormat(path)) }
	return writeAtomic(path, ".iomark-chart-*", draw, "drawing the chart "+path, "writing the chart "+path)
}

func restoredText(res *flash.Result) string {
	switch {
	case res.Restore != nil && res.Restore.Failed == 0 && res.Restore.Verified:
		return fmt.Sprintf(": all %d overwritten blocks were written back and checked; the drive holds what it held before", res.Restore.Blocks)
	case res.Restore != nil && res.Restore.Failed == 0:
		return fmt.Sprintf(": all %d overwritten blocks were written back", res.Restore.Blocks)
	case res.Restore != nil:
		return fmt.Sprintf(": %d of %d overwritten blocks could not be written back", res.Restore.Failed, res.Restore.Blocks)
	case res.Mode == flash.ModeFill:
		return ": the test files were removed"
	}
	return ""
}

func verifyDisk(ctx context.Context, dev string, f *verifyFlags, progress *verifyProgress) (*flash.Result, *probe.Report, error) {
	if f.readOnly {
		return verifyDiskReadOnly(ctx, dev, f, progress)
	}
	o := flash.ProbeOptions{Destructive: f.destructive, Progress: progress.update}
	if f.maxFlush != "" {
		n, err := engine.ParseSize(f.maxFlush)
		if err != nil || n <= 0 {
			return nil, nil, usageError("--max-flush %q: a size such as 64M or 1G", f.maxFlush)
		}
		o.MaxFlushBytes = n
	}
	if !f.destructive {
		// The saved copies also live in memory: keep the cache flush within a quarter of
		// what is free, so a small board does not swap or die half-way.
		if avail := memAvailable(f.root); avail > 0 && o.MaxFlushBytes == 0 && avail/4 < flash.DefaultMaxFlushBytes {
			o.MaxFlushBytes = max(16<<20, avail/4)
		}
	}
	journal, err := prepareJournal(dev, f, &o)
	if err != nil {
		return nil, nil, err
	}
	b, err := flash.OpenBlock(dev, true, f.root)
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	rep := identify(dev, f.root)
	o.SizeBytes, o.LogicalBlockBytes = b.SizeBytes, b.LogicalBlockBytes
	progress.plan(probePlan(b.SizeBytes, o, f))
	if f.full {
		progress.scanPlan = scanPlan(b.SizeBytes, scanOptions(b, f, progress))
	}
	if journal != nil {
		if err := addPending(*journal); err != nil {
			return nil, rep, err
		}
		o.Journal, o.Identity, o.Device = journal.Journal, journal.Identity, b.Name
		progress.note(fmt.Sprintf("saving what the probe overwrites in %s (up to %s) — if this run is cut short, put it back with: iomark verify --restore %s %s --confirm %s",
			journal.Journal, report.Bytes(flash.JournalBytesBound(b.SizeBytes, o.MaxFlushBytes, b.LogicalBlockBytes)), journal.Journal, dev, dev))
	} else if f.full {
		progress.note(fmt.Sprintf("--full --destructive: nothing is saved; every block of %s (%s) is overwritten and everything on it is lost for good", dev, report.Bytes(b.SizeBytes)))
	} else {
		progress.note(fmt.Sprintf("--destructive: nothing is saved; what the probe overwrites on %s is lost for good", dev))
	}
	var res *flash.Result
	if f.full {
		so := scanOptions(b, f, progress)
		if journal != nil && f.rewrite {
			// The scan's journal takes the probe's place once the probe removed it: one file,
			// one pending pointer, one request at a time.
			so.Journal, so.Identity, so.Device = journal.Journal, journal.Identity, b.Name
		}
		res, err = flash.Full(ctx, b, flash.FullOptions{Probe: o, Scan: so})
	} else {
		res, err = flash.Probe(ctx, b, o)
	}
	if journal != nil {
		if _, serr := os.Stat(journal.Journal); errors.Is(serr, os.ErrNotExist) {
			removePending(journal.Journal) // restored and checked, or never made
		}
	}
	return res, rep, err
}

// verifyDiskReadOnly is --full --read-only: every block read, nothing written, no probe.
func verifyDiskReadOnly(ctx context.Context, dev string, f *verifyFlags, progress *verifyProgress) (*flash.Result, *probe.Report, error) {
	b, err := flash.OpenBlock(dev, false, f.root)
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	rep := identify(dev, f.root)
	so := scanOptions(b, f, progress)
	progress.plan(scanPlan(b.SizeBytes, so), 0)
	res, err := flash.Full(ctx, b, flash.FullOptions{ReadOnly: true, Scan: so})
	return res, rep, err
}

func scanOptions(b *flash.BlockDevice, f *verifyFlags, progress *verifyProgress) flash.ScanOptions {
	so := flash.ScanOptions{SizeBytes: b.SizeBytes, DiskBytes: b.SizeBytes, LogicalBlockBytes: b.LogicalBlockBytes,
		Mode: flash.ScanRead, ErrorBudget: f.errorTime, Progress: progress.update}
	switch {
	case f.rewrite:
		so.Mode = flash.ScanRewrite
	case f.destructive:
		so.Mode = flash.ScanDestructive
	}
	return so
}

func verifyDir(ctx context.Context, dir string, f *verifyFlags, progress *verifyProgress) (*flash.Result, *probe.Report, error) {
	o := flash.FillOptions{Dir: dir, Progress: progress.update, Root: f.root}
	if f.size != "" {
		n, err := engine.ParseSize(f.size)
		if err != nil || n <= 0 {
			return nil, nil, usageError("--size %q: a size such as 512M or 4G", f.size)
		}
		o.SizeBytes = n
	}
	rep := identify(dir, f.root)
	if err := refusePending(rep, 0, ""); err != nil {
		return nil, rep, err
	}
	res, err := flash.Fill(ctx, o)
	return res, rep, err
}

// identify probes the drive for its identity keys; nil when it cannot (the verify goes on).
// It asks the drive nothing (no health): a verify's own reads and writes are what it sends.
func identify(path, root string) *probe.Report {
	facts, _ := target.Gather(path, target.Options{Probe: probe.Options{Root: root}})
	return facts.Report
}

// driveKeys returns the product and unit keys a verify is saved under: a drive nothing
// identifies is keyed by what the kernel calls it and its size.
func driveKeys(rep *probe.Report, res *flash.Result) (deviceKey, unitKey string) {
	if dk, uk := target.Keys(rep); dk != "" {
		return dk, uk
	}
	k := fmt.Sprintf("unidentified:%s", filepath.Base(res.Target))
	return k, fmt.Sprintf("%s|%d", k, res.ClaimedBytes)
}

func saveVerify(ctx context.Context, dsn string, res *flash.Result, rep *probe.Report) (string, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return "", err
	}
	id, err := record.NewID()
	if err != nil {
		return "", err
	}
	st, err := openStore(context.WithoutCancel(ctx), dsn)
	if err != nil {
		return "", err
	}
	defer st.Close()
	dk, uk := driveKeys(rep, res)
	v := store.Verify{ID: id, CreatedAt: time.Now().UTC(), DeviceKey: dk, UnitKey: uk, Target: res.Target,
		Mode: res.Mode, Verdict: string(res.Verdict), ClaimedBytes: res.ClaimedBytes, UsableBytes: res.UsableBytes, Result: raw}
	if err := st.SaveVerify(context.WithoutCancel(ctx), v); err != nil {
		return "", fmt.Errorf("saving the verify: %w", err)
	}
	return id, nil
}

// memAvailable is MemAvailable from root/proc/meminfo in bytes, 0 when unknown.
func memAvailable(root string) int64 {
	b, err := os.ReadFile(filepath.Join(root, "/proc/meminfo"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "MemAvailable: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}

// sameDevice reports whether two paths name one block device.
func sameDevice(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	var sa, sb syscall.Stat_t
	if syscall.Stat(a, &sa) != nil || syscall.Stat(b, &sb) != nil {
		return false
	}
	return sa.Mode&syscall.S_IFMT == syscall.S_IFBLK && sb.Mode&syscall.S_IFMT == syscall.S_IFBLK && sa.Rdev == sb.Rdev
}

// verifyProgress shows what the verify is doing on one live line (terminals only), and says
// once, on any output, what it writes and reads and how long it takes (planText: the probe's
// bound before the first write, the fill's exact bytes, the full scan's exact bytes) and,
// where only the drive's rate can tell the time, an estimate once the first seconds have
// shown it, then refined on the live line.
type verifyProgress struct {
	line       *liveLine
	w          io.Writer
	started    time.Time
	phase      string
	phaseStart time.Time
	writeBytes int64   // the fill's write phase, once known
	writeRate  float64 // bytes/s the write phase showed; the read phase is estimated with it
	said       map[string]bool
	// probeWrites is the most the probe writes (0: not a probe), for its time left.
	probeWrites int64
	rate        rateWindow
	// scanPlan is said when a full verify's scan begins (after its probe).
	scanPlan plan
}

func newVerifyProgress(w io.Writer) *verifyProgress {
	return &verifyProgress{line: newLiveLine(w), w: w, started: time.Now(), said: map[string]bool{}}
}

// plan says up front what the verify writes, reads and takes.
func (v *verifyProgress) plan(p plan, probeWrites int64) {
	v.probeWrites = probeWrites
	v.note(planText(p))
}

func (v *verifyProgress) update(p flash.Progress) {
	now := time.Now()
	if p.Phase != v.phase {
		v.phase, v.phaseStart = p.Phase, now
		v.rate = rateWindow{}
	}
	el := now.Sub(v.started)
	switch {
	case p.Total > 0 && p.Phase == "scan":
		if !v.said["scan-plan"] {
			v.said["scan-plan"] = true
			v.probeWrites = 0
			if v.scanPlan.What != "" {
				v.note(planText(v.scanPlan))
			}
		}
		inPhase := now.Sub(v.phaseStart)
		left, ok := estimateLeft(p.Done, p.Total, inPhase)
		if ok && !v.said["scan-time"] {
			v.said["scan-time"] = true
			v.note(fmt.Sprintf("at %.1f MB/s so far, the scan takes about %s more (refined as it goes)", float64(p.Done)/inPhase.Seconds()/1e6, left.Round(time.Second)))
		}
		v.line.draw(statusText(status{What: p.Message, Done: p.Done, Total: p.Total, MBPerS: v.rate.add(now, p.Done), Elapsed: el, Left: left}))
	case p.Total > 0 && (p.Phase == "write" || p.Phase == "read"):
		inPhase := now.Sub(v.phaseStart)
		left, ok := estimateLeft(p.Done, p.Total, inPhase)
		if p.Phase == "write" {
			v.writeBytes = p.Total
			if !v.said["bytes"] {
				v.said["bytes"] = true
				v.note(planText(plan{What: "the fill of test files", WriteBytes: p.Total, ReadBytes: p.Total,
					TookHow: "how long that takes is estimated from the first seconds of writing"}))
			}
			if ok {
				v.writeRate = float64(p.Done) / inPhase.Seconds()
				left += time.Duration(float64(p.Total) / v.writeRate * float64(time.Second)) // the read back, at the write rate until it shows its own
				if !v.said["time"] {
					v.said["time"] = true
					v.note(fmt.Sprintf("at %.1f MB/s so far, writing and reading back take about %s more (refined as it goes)", v.writeRate/1e6, left.Round(time.Second)))
				}
			}
		}
		what := map[string]string{"write": "writing the fill", "read": "reading the fill back"}[p.Phase]
		v.line.draw(statusText(status{What: what, Done: p.Done, Total: p.Total, MBPerS: v.rate.add(now, p.Done), Elapsed: el, Left: left}))
	case v.probeWrites > 0:
		// The probe: its time goes mostly to writing, so the time left is what it may still
		// write at the rate it has written so far.
		msg := p.Message
		if msg == "" {
			msg = p.Phase
		}
		left, _ := estimateLeft(p.WrittenBytes, v.probeWrites, el)
		v.line.draw(statusText(status{What: fmt.Sprintf("%s (wrote %s of at most %s)", msg, report.Bytes(p.WrittenBytes), report.Bytes(v.probeWrites)),
			Elapsed: el, Left: left, LeftIsBound: false}))
	case p.Total > 0:
		left, _ := estimateLeft(p.Done, p.Total, now.Sub(v.phaseStart))
		msg := p.Message
		if msg == "" {
			msg = p.Phase
		}
		v.line.draw(statusText(status{What: fmt.Sprintf("%s (step %d of %d)", msg, p.Done, p.Total), Elapsed: el, Left: left}))
	case p.Message != "":
		v.line.draw(statusText(status{What: p.Message, Elapsed: el}))
	}
}

func (v *verifyProgress) note(msg string) {
	v.line.clear()
	fmt.Fprintf(v.w, "iomark: %s\n", msg)
}

func (v *verifyProgress) clear() { v.line.clear() }

// probeSlowMBPerS is the rate the probe's time is stated at before it starts: 2 MB/s, the
// SD Association's slowest speed class (Class 2), which every card that claims a class writes
// sequentially at least. The live line then gives the time left at the card's own rate.
const probeSlowMBPerS = 2.0

// probePlan is what the sampled probe (and a full verify's probe) says before it starts.
func probePlan(size int64, o flash.ProbeOptions, f *verifyFlags) (plan, int64) {
	w := flash.ProbeWriteBytesBound(size, o.MaxFlushBytes, o.LogicalBlockBytes, o.Destructive)
	p := plan{What: "the probe", WriteBytes: w, WriteIsBound: true,
		Took:   time.Duration(float64(w) / (probeSlowMBPerS * 1e6) * float64(time.Second)),
		TookAt: fmt.Sprintf("at %.0f MB/s (SD Class 2, the slowest speed class; the live line gives the time left at this drive's rate)", probeSlowMBPerS)}
	if !o.Destructive {
		p.What = "the probe (writing back everything it overwrites)"
	}
	if f.full {
		p.What = "first " + p.What
		p.Then = "then the surface scan (said when the probe is done)"
	} else {
		p.Then = "the surface is not scanned (--full reads every block)"
	}
	return p, w
}

// scanPlan is what the full scan says before it starts: its bytes are exact.
func scanPlan(size int64, so flash.ScanOptions) plan {
	p := plan{What: "the surface scan (every block)", ReadBytes: size,
		TookHow: "how long that takes is estimated from the first seconds of the scan",
		Then:    fmt.Sprintf("unreadable stretches may take up to %s more (--error-time)", so.ErrorBudget)}
	switch so.Mode {
	case flash.ScanRewrite:
		p.What = "the surface scan (every block read, overwritten with a pattern, checked and written back)"
		p.WriteBytes, p.ReadBytes = 2*size, 2*size
	case flash.ScanDestructive:
		p.What = "the surface scan (every block overwritten with a pattern and checked; nothing is kept)"
		p.WriteBytes = size
	}
	return p
}
