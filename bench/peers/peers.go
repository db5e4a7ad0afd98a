package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
)

// peer is one command line of a community script, run as the script runs it, and the iomark
// test that mirrors it. DEV and MNT in args stand for the emulated drive's device and mount.
type peer struct {
	Script string   // the script and the line's role in it
	Args   []string // the exact command line (DEV, MNT substituted)
	InMnt  bool     // run with the mount point as the working directory (the scripts cd first)
	Unit   string   // the unit the table prints the peer's figure in
	parse  func(string) (float64, figure, error)
	// The iomark figure set beside it: profile, test name and record field in Unit.
	Profile, Test, Field string
	// LimitInUnit is what the emulated drive allows, in Unit: the answer both should find.
	LimitInUnit float64
	Remove      string // a file the command leaves in MNT, removed after it as the script does
}

// The drive every figure is measured on: a Pi 4 microSD card, the slowest drive quick promises.
const (
	readIOPS, writeIOPS = 2600, 700
	readMBps, writeMBps = 40, 20
)

// peers are the lines of the community scripts, read in their repositories:
//   - Storage.sh: github.com/TheRemote/PiBenchmarks, the version whose dd writes count=130k and
//     whose fio lines use --size=80M (the read and write lines the same);
//   - microsd-benchmarks.sh: github.com/geerlingguy/raspberry-pi-dramble, setup/benchmarks
//     ("last updated 2020"); its hdparm reads /dev/mmcblk0, here the emulated device;
//   - disk-benchmark.sh: github.com/geerlingguy/pi-cluster, benchmarks/ (2023), the fio
//     sequential read of the device under test.
//
// Every script's iozone line is not run: iozone3 is not installable here (see main).
var peers = []peer{
	{
		Script: "Storage.sh hdparm", Args: []string{"hdparm", "-Tt", "--direct", "DEV"},
		Unit: "MB/sec", parse: hdparmFigure, Profile: "pibenchmarks", Test: "hdparm-read", Field: "mib_per_s",
		LimitInUnit: readMBps * 1e6 / (1 << 20),
	},
	{
		Script: "microsd-benchmarks.sh hdparm", Args: []string{"hdparm", "-t", "DEV"},
		Unit: "MB/sec", parse: hdparmFigure, Profile: "pibenchmarks", Test: "hdparm-read", Field: "mib_per_s",
		LimitInUnit: readMBps * 1e6 / (1 << 20),
	},
	{
		Script: "Storage.sh dd", Args: []string{"dd", "if=/dev/zero", "of=test", "bs=4k", "count=130k", "conv=fsync"},
		InMnt: true, Unit: "MB/s", parse: ddFigure, Profile: "pibenchmarks", Test: "dd-write-4k", Field: "mb_per_s",
		LimitInUnit: writeMBps, Remove: "test",
	},
	{
		Script: "microsd-benchmarks.sh dd", Args: []string{"dd", "if=/dev/zero", "of=test", "bs=8k", "count=50k", "conv=fsync"},
		InMnt: true, Unit: "MB/s", parse: ddFigure, Profile: "pibenchmarks", Test: "dd-write-4k", Field: "mb_per_s",
		LimitInUnit: writeMBps, Remove: "test",
	},
	{
		Script: "Storage.sh fio randwrite",
		Args: []string{"fio", "--minimal", "--randrepeat=1", "--ioengine=libaio", "--direct=1", "--gtod_reduce=1",
			"--name=test", "--filename=test", "--bs=4k", "--iodepth=64", "--size=80M", "--readwrite=randwrite"},
		InMnt: true, Unit: "IOPS", parse: fioTerseFigure(true), Profile: "pibenchmarks", Test: "fio-rand-write-4k-qd64",
		Field: "iops", LimitInUnit: writeIOPS, Remove: "test",
	},
	{
		Script: "Storage.sh fio randread",
		Args: []string{"fio", "--minimal", "--randrepeat=1", "--ioengine=libaio", "--direct=1", "--gtod_reduce=1",
			"--name=test", "--filename=test", "--bs=4k", "--iodepth=64", "--size=80M", "--readwrite=randread"},
		InMnt: true, Unit: "IOPS", parse: fioTerseFigure(false), Profile: "pibenchmarks", Test: "fio-rand-read-4k-qd64",
		Field: "iops", LimitInUnit: readIOPS, Remove: "test",
	},
	{
		Script: "disk-benchmark.sh fio seq read",
		Args: []string{"fio", "--filename=DEV", "--direct=1", "--rw=read", "--bs=1024k", "--ioengine=libaio",
			"--iodepth=64", "--size=4G", "--runtime=10", "--numjobs=4", "--group_reporting",
			"--name=fio-rand-read-sequential", "--eta-newline=1", "--readonly"},
		Unit: "MB/s", parse: fioGroupFigure, Profile: "sbc-reviews", Test: "seq-read-1m", Field: "mb_per_s",
		LimitInUnit: readMBps,
	},
	{
		Script: "disk-benchmark.sh fio seq read", Args: nil, // the same run, set beside quick's test
		Unit: "MB/s", Profile: "quick", Test: "seq-read-1m", Field: "mb_per_s", LimitInUnit: readMBps,
	},
}

var (
	hdparmFigure = inUnit(parseHdparm, hdparmToMiBPerS)
	ddFigure     = inUnit(parseDD, ddToMBPerS)
)

// inUnit reads a peer's figure with parse and converts it with conv to the unit its row prints.
func inUnit(parse func(string) (figure, error), conv func(figure) (float64, error)) func(string) (float64, figure, error) {
	return func(out string) (float64, figure, error) {
		f, err := parse(out)
		if err != nil {
			return 0, f, err
		}
		v, err := conv(f)
		return v, f, err
	}
}

func fioTerseFigure(write bool) func(string) (float64, figure, error) {
	return func(out string) (float64, figure, error) {
		f, err := parseFioMinimal(out, write)
		return f.Value, f, err
	}
}

func fioGroupFigure(out string) (float64, figure, error) {
	f, err := parseFioGroupRead(out)
	return f.Value, f, err
}

// peerRun is one peer command's outcome.
type peerRun struct {
	Args   []string `json:"args"`
	Value  float64  `json:"value"` // in the peer's Unit
	Raw    figure   `json:"printed"`
	Output string   `json:"output"`
	WallS  float64  `json:"wall_s"`
	Err    string   `json:"error,omitempty"`
}

func substitute(args []string, dev, mnt string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		a = strings.ReplaceAll(a, "DEV", dev)
		out[i] = strings.ReplaceAll(a, "MNT", mnt)
	}
	return out
}

// runPeer runs p's command on the drive. dd gets LC_ALL=C so its rate parses.
func runPeer(ctx context.Context, p peer, dev, mnt string) peerRun {
	args := substitute(p.Args, dev, mnt)
	r := peerRun{Args: args}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if p.InMnt {
		cmd.Dir = mnt
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The scripts sync before each step.
	_ = exec.CommandContext(ctx, "sync").Run()
	start := time.Now()
	err := cmd.Run()
	r.WallS = time.Since(start).Seconds()
	r.Output = out.String()
	if p.Remove != "" {
		os.Remove(filepath.Join(mnt, p.Remove))
	}
	if err != nil {
		r.Err = fmt.Sprintf("%s: %v: %s", strings.Join(args, " "), err, benchkit.FirstLine(out.Bytes()))
		return r
	}
	v, f, err := p.parse(r.Output)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Value, r.Raw = v, f
	return r
}
