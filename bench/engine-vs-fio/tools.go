package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// sample is one run of one tool.
type sample struct {
	IOPS float64 `json:"iops"`
	IOs  int64   `json:"ios"`
	// OwnCPUS is the CPU the tool itself reports for the measured window: iomark's cpu.usr_s +
	// cpu.sys_s (its whole process), fio's (usr_cpu + sys_cpu)% × job_runtime (its job).
	OwnCPUS float64 `json:"own_cpu_s"`
	// ProcCPUS is user+system CPU of the whole process tree from rusage, start to exit:
	// set-up and ramp included, so per-I/O figures from it run a little high for both.
	ProcCPUS     float64 `json:"proc_cpu_s"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	// Latency percentiles of the same run, µs, of the direction the workload runs: iomark's
	// lat_us (each I/O from just before it is prepared to the reap that saw it complete),
	// fio's total latency lat (from when fio prepared the I/O to its completion; run with
	// --lat_percentiles=1) — the same span. fio's clat is kept beside it (ClatP50US,
	// ClatP99US; 0 for iomark): for io_uring fio starts clat's clock only once the
	// io_uring_enter that submitted the I/O has returned, so clat leaves the submission out.
	P50US float64 `json:"p50_us"`
	P99US float64 `json:"p99_us"`
	// MeanUS is the mean of the same latency: IOPS × MeanUS is how many I/Os the tool held
	// inside its timed span on average (Little's law), see heldInSpan.
	MeanUS    float64 `json:"mean_us"`
	ClatP50US float64 `json:"clat_p50_us,omitempty"`
	ClatP99US float64 `json:"clat_p99_us,omitempty"`
	// Device is the kernel's account of the same run (see devWindow).
	Device devWindow `json:"device"`
	// CPU is where the machine's CPU went over the same window (see cpuWindow); nil where
	// the kernel does not account it per thread, and in raw files older than the field.
	CPU *cpuWindow `json:"cpu,omitempty"`
	// Kernel is the kernel's latency distribution of the run, with -trace (see ktrace.go).
	Kernel *kernelLatency  `json:"kernel,omitempty"`
	WallS  float64         `json:"wall_s"`
	Args   []string        `json:"args"`
	Raw    json.RawMessage `json:"raw"`
}

func (s sample) ownCPUUSPerIO() float64  { return perIO(s.OwnCPUS, s.IOs) }
func (s sample) procCPUUSPerIO() float64 { return perIO(s.ProcCPUS, s.IOs) }

// threadsCPUUSPerIO is the CPU every thread of the tool's processes ran over the CPU
// witness's window, per I/O the tool completed: the witness's figure per request the device
// completed, times requests over the tool's I/Os (they differ only where the block layer
// merged I/Os). 0 without a witness. Unlike fio's own figure it counts io_uring's workers
// (iou-wrk threads of the job's process, which submit for the ring whenever the device has
// no free request; fio's own reads RUSAGE_THREAD, the job's thread alone), so it measures
// both tools the same way (BENCHMARKS.md, engine-vs-fio, Method).
func (s sample) threadsCPUUSPerIO() float64 {
	if s.CPU == nil || s.IOPS <= 0 || s.Device.IOPS <= 0 {
		return 0
	}
	return s.CPU.ToolUS * s.Device.IOPS / s.IOPS
}

// goalCPU is the CPU per I/O the goal compares for one pair, both runs on one basis: every
// thread of the tool's processes where the witness read both runs, else each tool's own
// figure (raw files from before the witness). threads says which.
func goalCPU(a, f sample) (iomark, fio float64, threads bool) {
	if ai, fi := a.threadsCPUUSPerIO(), f.threadsCPUUSPerIO(); ai > 0 && fi > 0 {
		return ai, fi, true
	}
	return a.ownCPUUSPerIO(), f.ownCPUUSPerIO(), false
}

// heldInSpan is how many I/Os the tool had inside its latency clock on average over the run:
// IOPS × mean latency (Little's law). The rest of the depth is slots between the reap that
// ended one clock and the preparation that starts the next. At equal IOPS, fewer held means
// a shorter mean latency, so a difference here says how much of a latency gap comes from
// when each tool starts and stops its clock, not from the device (docs/decisions.md, "The kernel referees latency at depth").
func (s sample) heldInSpan() float64 { return s.IOPS * s.MeanUS / 1e6 }

// outsideDeviceUS is how much of the tool's mean latency the I/O spent outside the device:
// the tool's mean minus the kernel's mean over a window of the same run (see devWindow).
// Where the block layer merged I/Os, the kernel's mean is per merged request and the
// difference means nothing; the report shows the share merged instead (see mergedNote).
func (s sample) outsideDeviceUS() float64 { return s.MeanUS - s.Device.MeanUS }

func perIO(cpuS float64, ios int64) float64 {
	if ios <= 0 {
		return 0
	}
	return cpuS * 1e6 / float64(ios)
}

func seconds(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }

// fioArgs is the fio job equivalent to w: O_DIRECT, the same engine, depth and number of
// jobs (psync: one fio job per thread), registered buffers and files for io_uring (iomark
// registers its buffers too), no polling; several jobs are reported as one group.
func fioArgs(dev string, w workload, o options) []string {
	args := []string{"--ioengine=" + w.engine}
	if w.engine == "io_uring" {
		args = append(args, "--fixedbufs", "--registerfiles")
	}
	iodepth, numjobs := w.qd, w.jobs
	if w.engine == "psync" {
		iodepth, numjobs = 1, w.qd*w.jobs
	}
	args = append(args, "--direct=1", "--rw="+w.rw, "--bs="+w.bs, "--iodepth="+strconv.Itoa(iodepth),
		"--numjobs="+strconv.Itoa(numjobs), "--lat_percentiles=1")
	if numjobs > 1 {
		args = append(args, "--group_reporting")
	}
	return append(args, "--time_based", "--runtime="+seconds(o.runtime), "--ramp_time="+seconds(o.ramp),
		"--filename="+dev, "--name=x")
}

func runFio(ctx context.Context, dev string, w workload, o options) (sample, error) {
	args := fioArgs(dev, w, o)
	watch := watchDevice(dev, o)
	r, err := lab.RunFioContext(ctx, args...)
	device, cpu, werr := watch.result()
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", w.name, err)
	}
	if werr != nil {
		return sample{}, fmt.Errorf("%s: fio: %w", w.name, werr)
	}
	p50, p99, mean := r.ReadLatP50US, r.ReadLatP99US, r.ReadLatMeanUS
	c50, c99 := r.ReadClatP50US, r.ReadClatP99US
	if w.writes() {
		p50, p99, mean = r.WriteLatP50US, r.WriteLatP99US, r.WriteLatMeanUS
		c50, c99 = r.WriteClatP50US, r.WriteClatP99US
	}
	return sample{
		IOPS: r.IOPS(), IOs: r.IOs(), OwnCPUS: r.JobCPUUsrS + r.JobCPUSysS,
		ProcCPUS: r.ProcCPUS, PeakRSSBytes: r.PeakRSSBytes, WallS: r.WallS, P50US: p50, P99US: p99,
		MeanUS: mean, ClatP50US: c50, ClatP99US: c99, Device: device, CPU: cpu,
		Args: append([]string{"fio", "--output-format=json"}, args...), Raw: r.Raw,
	}, nil
}

// iomarkTool is the iomark binary under test.
type iomarkTool struct{ *benchkit.Iomark }

// prepareIomark takes the binary at path, or builds ./cmd/iomark of this module, and checks
// that it has the `job` subcommand.
func prepareIomark(ctx context.Context, path string) (*iomarkTool, error) {
	b, err := benchkit.PrepareIomark(ctx, path, "engine-vs-fio-", logf)
	if err != nil {
		return nil, err
	}
	t := &iomarkTool{b}
	if out, err := exec.CommandContext(ctx, t.Path, "job", "--help").CombinedOutput(); err != nil {
		t.Cleanup()
		return nil, fmt.Errorf("%s has no working `job` subcommand (%v: %s): the engine is not in this build yet; "+
			"pass -iomark PATH for a build that has it, or -fio-only to run fio alone",
			t.Path, err, benchkit.FirstLine(out))
	}
	return t, nil
}

// iomarkArgs is w as an iomark job. Writes to a block device need --destructive and the
// device named again; reads do not.
func iomarkArgs(dev string, w workload, o options) []string {
	args := []string{"job", "--target", dev}
	if w.writes() {
		args = append(args, "--destructive", "--confirm", dev)
	}
	args = append(args, "--rw", w.rw, "--bs", w.bs, "--qd", strconv.Itoa(w.qd))
	if w.jobs > 1 {
		args = append(args, "--jobs", strconv.Itoa(w.jobs))
	}
	return append(args, "--engine", w.engine, "--runtime", o.runtime.String(), "--ramp", o.ramp.String(), "--json")
}

// iomarkJSON is the part of `iomark job --json` (docs/job-json.md) the bench reads.
type iomarkJSON struct {
	Engine string   `json:"engine"`
	Direct bool     `json:"direct"`
	IOPS   *float64 `json:"iops"`
	IOs    *int64   `json:"ios"`
	CPU    *struct {
		UsrS float64 `json:"usr_s"`
		SysS float64 `json:"sys_s"`
	} `json:"cpu"`
	LatUS struct {
		Mean float64 `json:"mean"`
		P50  float64 `json:"p50"`
		P99  float64 `json:"p99"`
	} `json:"lat_us"`
}

// parseIomarkJSON checks that the job ran as asked (the engine it asked for, O_DIRECT): a
// silent fallback would compare unlike with like.
func parseIomarkJSON(out []byte, wantEngine string) (iomarkJSON, error) {
	var j iomarkJSON
	if err := json.Unmarshal(bytes.TrimSpace(out), &j); err != nil {
		return j, fmt.Errorf("parse iomark JSON: %w (output: %.200q)", err, out)
	}
	switch {
	case j.IOPS == nil || j.IOs == nil || j.CPU == nil:
		return j, fmt.Errorf("iomark JSON lacks iops, ios or cpu: %.200q", out)
	case j.Engine != wantEngine:
		return j, fmt.Errorf("iomark ran engine %q, asked for %q", j.Engine, wantEngine)
	case !j.Direct:
		return j, errors.New("iomark did not use O_DIRECT")
	case *j.IOs <= 0:
		return j, errors.New("iomark measured no I/O")
	}
	return j, nil
}

func (t *iomarkTool) run(ctx context.Context, dev string, w workload, o options) (sample, error) {
	args := iomarkArgs(dev, w, o)
	cmd := exec.CommandContext(ctx, t.Path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	watch := watchDevice(dev, o)
	err := cmd.Run()
	wall := time.Since(start)
	device, cpu, werr := watch.result()
	if err != nil {
		return sample{}, fmt.Errorf("%s: iomark %s: %w: %s", w.name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	if werr != nil {
		return sample{}, fmt.Errorf("%s: iomark: %w", w.name, werr)
	}
	j, err := parseIomarkJSON(stdout.Bytes(), w.engine)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", w.name, err)
	}
	procCPUS, peakRSSBytes := lab.ProcessCost(cmd)
	return sample{
		IOPS: *j.IOPS, IOs: *j.IOs, OwnCPUS: j.CPU.UsrS + j.CPU.SysS,
		ProcCPUS: procCPUS, PeakRSSBytes: peakRSSBytes, WallS: wall.Seconds(),
		P50US: j.LatUS.P50, P99US: j.LatUS.P99, MeanUS: j.LatUS.Mean, Device: device, CPU: cpu,
		Args: append([]string{"iomark"}, args...), Raw: json.RawMessage(bytes.TrimSpace(stdout.Bytes())),
	}, nil
}
