// Command bytes runs every `iomark run` profile on two emulated drives — the unthrottled
// RAM-backed loop drive (fast: time bounds nothing, only the byte budget does) and the
// emulated Pi 4 microSD card (40/20 MB/s, 2600/700 IOPS) — and prints the bytes each run
// wrote beside the bytes of the peer tool the profile mirrors (no profile may write more
// than its peer: it must not wear a drive more than the tool it stands for). Two counts of iomark's bytes are given: the record's bytes_written,
// and what the block layer counted on the drive during the run (/sys/block/DEV/stat, which
// also holds the filesystem's journal and metadata writes).
//
//	sudo go run ./bench/bytes [-iomark PATH] [-profiles quick,pibenchmarks,...]
//	                          [-drives ram,microsd] [-size-mb 3072] [-raw FILE]
//
// Without -iomark it builds ./cmd/iomark from this module. Needs root, the loop driver and
// the cgroup-v1 blkio controller (internal/testkit/lab). Progress goes to stderr, the Markdown table
// to stdout. A peer bounded by time (CrystalDiskMark writes 30 s of each write test at the
// drive's rate) is counted at the rates iomark measured in the same run; BENCHMARKS.md says
// how to read it.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// The emulated card: a Pi 4 microSD card, as internal/testkit/lab and bench/peers emulate it.
const (
	cardReadIOPS, cardWriteIOPS = 2600, 700
	cardReadMBps, cardWriteMBps = 40, 20
)

type options struct {
	iomarkPath string
	profiles   []string
	drives     []string
	sizeMB     int
	rawPath    string
}

func main() {
	var o options
	var profiles, drives string
	benchkit.IomarkFlag(&o.iomarkPath)
	flag.StringVar(&profiles, "profiles", strings.Join(profile.Names(), ","), "profiles to run, comma-separated")
	flag.StringVar(&drives, "drives", "ram,microsd", "drives: ram (unthrottled), microsd (emulated card)")
	flag.IntVar(&o.sizeMB, "size-mb", 3072, "size of each emulated drive, MiB (the 1 GiB test files of sbc-reviews and cdm need room)")
	flag.StringVar(&o.rawPath, "raw", "", "also write every run's figures as JSON to this file")
	check := func() error {
		o.profiles, o.drives = split(profiles), split(drives)
		return o.check()
	}
	benchkit.Main("bytes", check, func(ctx context.Context) error { return run(ctx, o) })
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func (o options) check() error {
	for _, p := range o.profiles {
		if _, err := profile.ByName(p); err != nil {
			return fmt.Errorf("-profiles: %v", err)
		}
	}
	for _, d := range o.drives {
		if d != "ram" && d != "microsd" {
			return fmt.Errorf("-drives %q: use ram and/or microsd", d)
		}
	}
	switch {
	case len(o.profiles) == 0 || len(o.drives) == 0:
		return fmt.Errorf("nothing to run: give -profiles and -drives")
	case o.sizeMB < 2048:
		return fmt.Errorf("-size-mb %d: use at least 2048 (1 GiB test files, and room for a sustained write)", o.sizeMB)
	}
	return benchkit.NoArgs()
}

// row is one profile run on one drive.
type row struct {
	Drive        string  `json:"drive"`
	Profile      string  `json:"profile"`
	BudgetBytes  int64   `json:"budget_bytes"`
	BytesWritten int64   `json:"bytes_written"` // the record's count
	DeviceBytes  int64   `json:"device_bytes"`  // the block layer's count on the drive
	DurationS    float64 `json:"duration_s"`
	Peer         string  `json:"peer"`
	PeerBytes    int64   `json:"peer_bytes"`
	PeerHow      string  `json:"peer_how"`
	WriteRuns    string  `json:"write_runs"` // runs of each write test, e.g. "seq-write-1m 6"
	Err          string  `json:"error,omitempty"`
}

// record is the part of `iomark run --json` this bench reads.
type record struct {
	DurationS    float64 `json:"duration_s"`
	BytesWritten int64   `json:"bytes_written"`
	Tests        []struct {
		Name   string  `json:"name"`
		Op     string  `json:"op"`
		MBPerS float64 `json:"mb_per_s"`
		Runs   int     `json:"runs"`
	} `json:"tests"`
}

func run(ctx context.Context, o options) error {
	iomark, err := benchkit.Start(ctx, o.iomarkPath, "bytes-", logf, lab.Available)
	if err != nil {
		return err
	}
	defer iomark.Cleanup()
	loadStart := benchkit.LoadAvg()
	var rows []row
	for _, drive := range o.drives {
		spec := lab.Spec{Name: "bytes-" + drive, SizeMB: o.sizeMB, FS: "ext4"}
		if drive == "microsd" {
			spec.ReadIOPS, spec.WriteIOPS, spec.ReadMBps, spec.WriteMBps = cardReadIOPS, cardWriteIOPS, cardReadMBps, cardWriteMBps
		}
		logf("bringing up the %s drive (%d MiB, ext4)", drive, o.sizeMB)
		d, err := lab.Up(spec)
		if err != nil {
			return err
		}
		for _, name := range o.profiles {
			if ctx.Err() != nil {
				d.Down()
				return fmt.Errorf("interrupted; the drive is taken down and no table is printed")
			}
			logf("%s: iomark run --profile %s", drive, name)
			r := runProfile(ctx, iomark.Path, d, drive, name)
			if r.Err != "" {
				logf("  failed: %s", r.Err)
			} else {
				logf("  wrote %d MiB (device %d MiB) in %.0f s; %s %d MiB", r.BytesWritten>>20, r.DeviceBytes>>20, r.DurationS, r.Peer, r.PeerBytes>>20)
			}
			rows = append(rows, r)
		}
		if err := d.Down(); err != nil {
			return err
		}
	}
	fmt.Print(render(rows, iomark.Version, loadStart, benchkit.LoadAvg()))
	if o.rawPath != "" {
		return benchkit.WriteJSON(o.rawPath, rows)
	}
	return nil
}

// runProfile runs one profile and counts its bytes three ways: the record's, the device's,
// and the peer's.
func runProfile(ctx context.Context, bin string, d *lab.Drive, drive, name string) row {
	p, _ := profile.ByName(name)
	r := row{Drive: drive, Profile: name, BudgetBytes: p.MaxBytesWritten, Peer: p.Peer.Tool, PeerHow: p.Peer.How}
	before, err := sectorsWritten(d.Dev)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	cmd := exec.CommandContext(ctx, bin, "run", d.Mnt, "--profile", name, "--json", "--no-save")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	after, serr := sectorsWritten(d.Dev)
	if err != nil || serr != nil {
		r.Err = fmt.Sprintf("%v %v: %s", err, serr, strings.TrimSpace(stderr.String()))
		return r
	}
	var rec record
	if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
		r.Err = fmt.Sprintf("parse the record: %v", err)
		return r
	}
	r.BytesWritten, r.DurationS, r.DeviceBytes = rec.BytesWritten, rec.DurationS, (after-before)*512
	r.PeerBytes = p.Peer.Bytes
	var runs []string
	for _, t := range rec.Tests {
		if t.Op != "write" && t.Op != "randwrite" && t.Op != "randrw" {
			continue
		}
		runs = append(runs, fmt.Sprintf("%s %d", t.Name, t.Runs))
		if pw := p.Peer.PerWriteTest; pw > 0 {
			// The peer writes this long at the rate the drive showed for the same test.
			r.PeerBytes += int64(t.MBPerS * 1e6 * pw.Seconds())
		}
	}
	r.WriteRuns = strings.Join(runs, ", ")
	return r
}

// sectorsWritten is the drive's count of 512-byte sectors written (the 7th field of
// /sys/block/DEV/stat, in 512-byte units whatever the device's sector size).
func sectorsWritten(dev string) (int64, error) {
	b, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(dev), "stat"))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 7 {
		return 0, fmt.Errorf("%s stat: %q", dev, b)
	}
	var n int64
	_, err = fmt.Sscan(f[6], &n)
	return n, err
}

var logf = benchkit.Logf
