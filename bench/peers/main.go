// Command peers runs the community's storage benchmark command lines (PiBenchmarks' Storage.sh,
// Jeff Geerling's microsd-benchmarks.sh and disk-benchmark.sh) and `iomark run` on the same
// emulated microSD-like drive, and prints each peer figure beside iomark's, in the peer's unit,
// with their ratio and whether they agree within ±5%. With -time it also measures the time to
// a figure: long `iomark job` reference runs of each quick test's shape against
// `iomark run --profile quick`, and quick's run time against the pibenchmarks profile's.
// With -classes it instead runs quick on emulated drives of several classes (microSD, USB
// stick, USB SSD, a 1 GB/s drive; classes.go), each test's `iomark show --fio` line beside it
// run -fio-runs times by fio, and prints accuracy against the limits, intervals, time and bytes.
//
//	sudo go run ./bench/peers [-iomark PATH] [-size-mb 2048] [-time] [-ref-runtime 60s]
//	                          [-sbc=true] [-raw FILE]
//	sudo go run ./bench/peers -classes all|microsd,usb-stick,usb-ssd,fast [-fio-runs 3] [-raw FILE]
//
// Without -iomark it builds ./cmd/iomark from this module. Needs root, the loop driver, the
// cgroup-v1 blkio controller (see internal/testkit/lab), fio and hdparm. Progress goes to stderr, the
// Markdown to stdout. BENCHMARKS.md says how to read it; docs/methodology.md ("Peers side by
// side") why some figures must differ.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

type options struct {
	iomarkPath string
	sizeMB     int
	timeMode   bool
	refRuntime time.Duration
	sbc        bool
	rawPath    string
	classes    []string
	fioRuns    int
}

func main() {
	var o options
	benchkit.IomarkFlag(&o.iomarkPath)
	flag.IntVar(&o.sizeMB, "size-mb", 2048, "size of the emulated drive, MiB (sbc-reviews needs a 1 GiB test file)")
	flag.BoolVar(&o.timeMode, "time", true, "also measure the time to a figure (reference runs of each quick test)")
	flag.DurationVar(&o.refRuntime, "ref-runtime", 60*time.Second, "length of each reference run: the longer, the steadier the figure quick is judged against")
	flag.BoolVar(&o.sbc, "sbc", true, "also run the sbc-reviews profile (lays out 1 GiB: about a minute more)")
	flag.StringVar(&o.rawPath, "raw", "", "also write every command's output and iomark's records to this file")
	var classes string
	flag.StringVar(&classes, "classes", "", "instead: run quick on emulated drives of these classes (or all) beside fio with the same settings: "+classNames())
	flag.IntVar(&o.fioRuns, "fio-runs", 3, "with -classes: runs of each test's fio line")
	flag.Parse()
	if classes == "all" {
		classes = classNames()
	}
	for _, c := range strings.Split(classes, ",") {
		if c = strings.TrimSpace(c); c != "" {
			o.classes = append(o.classes, c)
		}
	}
	check := func() error { return errors.Join(o.check(), o.checkClasses()) }
	benchkit.Main("peers", check, func(ctx context.Context) error { return run(ctx, o) })
}

func (o options) check() error {
	switch {
	case o.sizeMB < 1024:
		return fmt.Errorf("-size-mb %d: use at least 1024: the figures are compared on a drive of 1 GiB or more", o.sizeMB)
	case o.sbc && o.sizeMB < 1536:
		return fmt.Errorf("-size-mb %d: sbc-reviews lays out a 1 GiB file; use -size-mb 2048 or -sbc=false", o.sizeMB)
	case len(o.classes) > 0 && o.fioRuns < 1:
		return fmt.Errorf("-fio-runs %d: use at least 1", o.fioRuns)
	case o.refRuntime < 10*time.Second:
		return fmt.Errorf("-ref-runtime %v: use at least 10s", o.refRuntime)
	}
	return benchkit.NoArgs()
}

// results is everything one run of the bench measured.
type results struct {
	Env      env                   `json:"env"`
	Peers    []peerRun             `json:"peers"` // index-aligned with peers
	Records  map[string]*runRecord `json:"records"`
	Refs     []refRun              `json:"refs,omitempty"`
	IozoneOK bool                  `json:"iozone_available"`
	Dev      string                `json:"dev"`
	Mnt      string                `json:"mnt"`
}

func run(ctx context.Context, o options) error {
	iomark, err := prepareIomark(ctx, o.iomarkPath,
		lab.Available, lab.FioAvailable, benchkit.NeedTools("apt-get install hdparm (scripts/setup-test-deps.sh installs it)", "hdparm"))
	if err != nil {
		return err
	}
	defer iomark.Cleanup()
	if len(o.classes) > 0 {
		loadStart := benchkit.LoadAvg()
		runs, err := runClasses(ctx, o, iomark)
		if err != nil {
			return err
		}
		fmt.Print(renderClasses(runs, describeEnv(ctx, iomark, loadStart)))
		if o.rawPath != "" {
			return benchkit.WriteJSON(o.rawPath, runs)
		}
		return nil
	}

	spec := lab.Spec{Name: "peers", SizeMB: o.sizeMB, ReadIOPS: readIOPS, WriteIOPS: writeIOPS,
		ReadMBps: readMBps, WriteMBps: writeMBps, FS: "ext4"}
	logf("bringing up a %d MiB emulated microSD card (%d/%d IOPS, %d/%d MB/s, ext4)", o.sizeMB,
		readIOPS, writeIOPS, readMBps, writeMBps)
	drive, err := lab.Up(spec)
	if err != nil {
		return err
	}
	defer func() {
		if err := drive.Down(); err != nil {
			logf("%v", err)
		}
	}()

	res := results{Records: map[string]*runRecord{}, Dev: drive.Dev, Mnt: drive.Mnt}
	_, lookErr := exec.LookPath("iozone")
	res.IozoneOK = lookErr == nil
	loadStart := benchkit.LoadAvg()

	if err := res.runAll(ctx, o, iomark); err != nil {
		return err
	}

	res.Env = describeEnv(ctx, iomark, loadStart)
	fmt.Print(renderReport(res, o))
	if o.rawPath != "" {
		return benchkit.WriteJSON(o.rawPath, res)
	}
	return nil
}

// errInterrupted is the error of a bench stopped part way.
var errInterrupted = errors.New("interrupted; the drive is taken down and no table is printed")

// runAll runs, on the drive at res.Dev and res.Mnt, each peer's command, then iomark's
// profiles and (o.timeMode) the reference runs, into res.
func (res *results) runAll(ctx context.Context, o options, iomark *iomarkTool) error {
	if err := res.runPeers(ctx); err != nil {
		return err
	}
	if err := res.runProfiles(ctx, o, iomark); err != nil {
		return err
	}
	if o.timeMode {
		return res.runRefs(ctx, o, iomark)
	}
	return nil
}

// runPeers runs each peer's command line once; a row that repeats the previous one's shares
// its run.
func (res *results) runPeers(ctx context.Context) error {
	var prev []string
	res.Peers = make([]peerRun, len(peers))
	for i, p := range peers {
		if ctx.Err() != nil {
			return errInterrupted
		}
		if p.Args == nil { // a second iomark figure for the previous command line
			res.Peers[i] = res.Peers[i-1]
			continue
		}
		if equalArgs(p.Args, prev) {
			res.Peers[i] = res.Peers[i-1]
			continue
		}
		prev = p.Args
		logf("%s: %v", p.Script, p.Args)
		r := runPeer(ctx, p, res.Dev, res.Mnt)
		if r.Err != "" {
			logf("  failed: %s", r.Err)
		} else {
			logf("  %.2f %s (%.1f s)", r.Value, p.Unit, r.WallS)
		}
		res.Peers[i] = r
	}
	return nil
}

// runProfiles runs iomark's profiles the peers stand beside (sbc-reviews with o.sbc).
func (res *results) runProfiles(ctx context.Context, o options, iomark *iomarkTool) error {
	profiles := []string{"pibenchmarks", "quick"}
	if o.sbc {
		profiles = append(profiles, "sbc-reviews")
	}
	for _, prof := range profiles {
		if ctx.Err() != nil {
			return errInterrupted
		}
		logf("iomark run --profile %s", prof)
		r, err := iomark.runProfile(ctx, res.Mnt, prof)
		if err != nil {
			return err
		}
		logf("  %.1f s, %d MiB written", r.DurationS, r.BytesWritten>>20)
		res.Records[prof] = r
	}
	return nil
}

// runRefs times quick's tests to a figure; a failed reference leaves its row out.
func (res *results) runRefs(ctx context.Context, o options, iomark *iomarkTool) error {
	for _, s := range quickShapes {
		if ctx.Err() != nil {
			return errInterrupted
		}
		logf("reference %s: %v", s.Test, o.refRuntime)
		r, err := iomark.runReference(ctx, res.Mnt, s, o.refRuntime)
		if err != nil {
			logf("  failed: %v", err) // the row is left out; the other figures still print
			continue
		}
		logf("  %.2f %s", r.Value, s.Field)
		res.Refs = append(res.Refs, r)
	}
	return nil
}

func classNames() string {
	names := make([]string, len(driveClasses))
	for i, c := range driveClasses {
		names[i] = c.Name
	}
	return strings.Join(names, ",")
}

func (o options) checkClasses() error {
	for _, c := range o.classes {
		if !strings.Contains(","+classNames()+",", ","+c+",") {
			return fmt.Errorf("-classes %q: use all or some of %s", c, classNames())
		}
	}
	return nil
}

func equalArgs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var logf = benchkit.Logf
