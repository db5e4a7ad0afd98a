package main

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPairRatios(t *testing.T) {
	r := rowResult{
		iomark: []sample{{IOPS: 110}, {IOPS: 90}, {IOPS: 50}},
		fio:    []sample{{IOPS: 100}, {IOPS: 100}},
	}
	if got, want := r.pairRatios(), []float64{1.1, 0.9}; !slices.Equal(got, want) {
		t.Errorf("pairRatios = %v, want %v (unpaired runs left out)", got, want)
	}
}

func TestParseIomarkJSON(t *testing.T) {
	tests := []struct {
		name, out, engine, wantErr string
	}{
		{"ok", `{"engine":"psync","direct":true,"iops":1000,"ios":5000,"cpu":{"usr_s":0.1,"sys_s":0.2},"lat_us":{"mean":80.5,"p50":70,"p99":200}}`, "psync", ""},
		{"fell back", `{"engine":"psync","direct":true,"iops":1000,"ios":5000,"cpu":{"usr_s":0.1,"sys_s":0.2}}`, "io_uring", "asked for"},
		{"buffered", `{"engine":"psync","direct":false,"iops":1000,"ios":5000,"cpu":{"usr_s":0.1,"sys_s":0.2}}`, "psync", "O_DIRECT"},
		{"no cpu", `{"engine":"psync","direct":true,"iops":1000,"ios":5000}`, "psync", "lacks"},
		{"no I/O", `{"engine":"psync","direct":true,"iops":0,"ios":0,"cpu":{"usr_s":0,"sys_s":0}}`, "psync", "no I/O"},
		{"not JSON", "iomark: open /dev/loop9: no such device", "psync", "parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := parseIomarkJSON([]byte(tt.out), tt.engine)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if *j.IOPS != 1000 || *j.IOs != 5000 || math.Abs(j.CPU.UsrS+j.CPU.SysS-0.3) > 1e-9 ||
					j.LatUS.Mean != 80.5 || j.LatUS.P50 != 70 || j.LatUS.P99 != 200 {
					t.Errorf("parsed %+v", j)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func row(name string) workload {
	for _, w := range workloads {
		if w.name == name {
			return w
		}
	}
	panic("no row " + name)
}

func TestToolArgs(t *testing.T) {
	o := options{runtime: 5 * time.Second, ramp: time.Second}
	tests := []struct {
		w                workload
		wantFio, wantIom string
	}{
		{row("4K randread QD1 psync"),
			"--ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1 --numjobs=1 --lat_percentiles=1 --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 1 --engine psync --runtime 5s --ramp 1s --json"},
		{row("4K randread QD32 io_uring"),
			"--ioengine=io_uring --fixedbufs --registerfiles --direct=1 --rw=randread --bs=4k --iodepth=32 --numjobs=1 --lat_percentiles=1 --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 32 --engine io_uring --runtime 5s --ramp 1s --json"},
		{row("4K randwrite QD1 psync"),
			"--ioengine=psync --direct=1 --rw=randwrite --bs=4k --iodepth=1 --numjobs=1 --lat_percentiles=1 --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --destructive --confirm /dev/loop7 --rw randwrite --bs 4k --qd 1 --engine psync --runtime 5s --ramp 1s --json"},
		// Two rings of 16 each; fio reports its two jobs as one group. Every fio run reports
		// its total latency's percentiles (lat: the span iomark times), not only clat.
		{row("4K randread 2 jobs × QD16 io_uring"),
			"--ioengine=io_uring --fixedbufs --registerfiles --direct=1 --rw=randread --bs=4k --iodepth=16 --numjobs=2 --lat_percentiles=1 --group_reporting --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 16 --jobs 2 --engine io_uring --runtime 5s --ramp 1s --json"},
		{row("4K randread Q32T16 io_uring"),
			"--ioengine=io_uring --fixedbufs --registerfiles --direct=1 --rw=randread --bs=4k --iodepth=32 --numjobs=16 --lat_percentiles=1 --group_reporting --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 32 --jobs 16 --engine io_uring --runtime 5s --ramp 1s --json"},
		// psync at depth 32: iomark's 32 goroutines of one job, fio's 32 jobs.
		{row("4K randread 32 threads psync"),
			"--ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1 --numjobs=32 --lat_percentiles=1 --group_reporting --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 32 --engine psync --runtime 5s --ramp 1s --json"},
	}
	for _, tt := range tests {
		if got := strings.Join(fioArgs("/dev/loop7", tt.w, o), " "); got != tt.wantFio {
			t.Errorf("%s fio args:\n got %s\nwant %s", tt.w.name, got, tt.wantFio)
		}
		if got := strings.Join(iomarkArgs("/dev/loop7", tt.w, o), " "); got != tt.wantIom {
			t.Errorf("%s iomark args:\n got %s\nwant %s", tt.w.name, got, tt.wantIom)
		}
	}
}

// witnessed adds a CPU witness reading to a run: the tool's threads ran toolUS µs per request
// the device completed, at devIOPS requests per second.
func witnessed(s sample, toolUS, devIOPS float64) sample {
	s.CPU = &cpuWindow{ToolUS: toolUS}
	s.Device.IOPS = devIOPS
	return s
}

// TestThreadsCPU checks the all-threads figure per I/O the tool completed: where the block
// layer merged a fifth of the I/Os, the device completed fewer, larger requests, and the
// per-request figure is scaled down to the tool's I/Os.
func TestThreadsCPU(t *testing.T) {
	if got := witnessed(sample{IOPS: 1000}, 10, 800).threadsCPUUSPerIO(); !near(got, 8) {
		t.Errorf("merged: %v µs per I/O, want 8", got)
	}
	if got := (sample{IOPS: 1000, OwnCPUS: 1, IOs: 1000}).threadsCPUUSPerIO(); got != 0 {
		t.Errorf("no witness: %v, want 0", got)
	}
	a, f, threads := goalCPU(witnessed(sample{IOPS: 100, IOs: 1e6, OwnCPUS: 6}, 6, 100), sample{IOPS: 100, IOs: 1e6, OwnCPUS: 3.5})
	if threads || !near(a, 6) || !near(f, 3.5) {
		t.Errorf("one run without a reading: %v, %v, threads %v; want own figures 6, 3.5", a, f, threads)
	}
}

func TestRowVerdicts(t *testing.T) {
	s := func(iops, cpuS, p50, p99 float64) sample {
		return sample{IOPS: iops, IOs: 1e6, OwnCPUS: cpuS, P50US: p50, P99US: p99}
	}
	tests := []struct {
		name            string
		iomark, fio     []sample
		goal, latencyOK bool
	}{
		{"faster, cheaper, same latency",
			[]sample{s(105, 2, 100, 200), s(101, 2, 101, 204)}, []sample{s(100, 3, 100, 200), s(100, 3, 100, 200)}, true, true},
		{"faster but dearer",
			[]sample{s(105, 4, 100, 200)}, []sample{s(100, 3, 100, 200)}, false, true},
		{"slower",
			[]sample{s(90, 2, 100, 200)}, []sample{s(100, 3, 100, 200)}, false, true},
		{"p99 6% apart",
			[]sample{s(100, 2, 100, 212)}, []sample{s(100, 3, 100, 200)}, true, false},
		{"no fio run", []sample{s(100, 2, 100, 200)}, nil, false, false},
		// fio's own figure leaves out its iou-wrk workers: with the CPU witness on both runs,
		// the goal compares every thread's CPU, and iomark's 6 µs is below fio's 10.
		{"cheaper over all threads, dearer by own figures",
			[]sample{witnessed(s(105, 6, 100, 200), 6, 105)}, []sample{witnessed(s(100, 3.5, 100, 200), 10, 100)}, true, true},
		{"dearer over all threads",
			[]sample{witnessed(s(105, 2, 100, 200), 11, 105)}, []sample{witnessed(s(100, 3, 100, 200), 10, 100)}, false, true},
		// One run without a reading: both fall back to their own figures.
		{"witness on one run only",
			[]sample{witnessed(s(105, 6, 100, 200), 6, 105)}, []sample{s(100, 3.5, 100, 200)}, false, true},
	}
	for _, tt := range tests {
		r := rowResult{iomark: tt.iomark, fio: tt.fio}
		if got := r.meetsGoal(); got != tt.goal {
			t.Errorf("%s: meetsGoal = %v, want %v", tt.name, got, tt.goal)
		}
		if got := r.latencyAgrees(); got != tt.latencyOK {
			t.Errorf("%s: latencyAgrees = %v, want %v", tt.name, got, tt.latencyOK)
		}
	}
}

// TestHeldInSpan checks Little's law as the report applies it, on figures shaped like a QD32
// pair: fio keeps nearly the whole depth inside its clock but fewer requests in the device
// (completions wait in its queue until it reaps them), iomark holds more in the device and
// fewer in its clock; the kernel table shows both per row, with the time outside the device.
func TestHeldInSpan(t *testing.T) {
	fioLike := sample{IOPS: 280000, MeanUS: 113.1, P50US: 94, P99US: 212,
		Device: devWindow{IOPS: 280500, HeldInDevice: 17.7, MeanUS: 63.1}}
	iomarkLike := sample{IOPS: 307000, MeanUS: 86.7, P50US: 95, P99US: 175,
		Device: devWindow{IOPS: 306800, HeldInDevice: 21.2, MeanUS: 69.1}}
	if got := fioLike.heldInSpan(); math.Abs(got-31.668) > 1e-9 {
		t.Errorf("heldInSpan = %v, want 31.668", got)
	}
	if got := iomarkLike.heldInSpan(); math.Abs(got-26.6169) > 1e-9 {
		t.Errorf("heldInSpan = %v, want 26.6169", got)
	}
	r := rowResult{workload: row("4K randread QD32 io_uring"), iomark: []sample{iomarkLike}, fio: []sample{fioLike}}
	out := renderReport(env{}, []rowResult{r}, options{pairs: 1, runtime: 5 * time.Second, ramp: time.Second, sizeMB: 2048})
	if !strings.Contains(out, "| 0.825 (0.825–0.825) | no |") {
		t.Errorf("latency row lacks the p99 ratio and its verdict:\n%s", out)
	}
	if !strings.Contains(out, "| 4K randread QD32 io_uring | 21.2 | 17.7 | 26.6 | 31.7 | 86.7 | 113.1 | 69.1 | 63.1 | 17.6 | 50.0 |") {
		t.Errorf("kernel table lacks in device, in clock, the means and the time outside the device:\n%s", out)
	}

	// Traced, a third table sets each tool's percentiles against the kernel's and shows how
	// long a request waited before the driver took it.
	iomarkLike.Kernel = &kernelLatency{N: 1000, MeanUS: 70, P50US: 80.5, P99US: 150.5, ToDriverUS: 10.04}
	fioLike.Kernel = &kernelLatency{N: 1000, MeanUS: 60, P50US: 30.5, P99US: 160.5, ToDriverUS: 1.8}
	r = rowResult{workload: row("4K randread QD32 io_uring"), iomark: []sample{iomarkLike}, fio: []sample{fioLike}}
	out = renderReport(env{}, []rowResult{r}, options{pairs: 1, runtime: 5 * time.Second, ramp: time.Second, sizeMB: 2048})
	if !strings.Contains(out, "| 4K randread QD32 io_uring | 95.0 | 80.5 | 94.0 | 30.5 | 175.0 | 150.5 | 212.0 | 160.5 | 14.5 | 63.5 | 24.5 | 51.5 | 10.0 | 1.8 |") {
		t.Errorf("traced table lacks the kernel's percentiles, what each tool adds or the time to the driver:\n%s", out)
	}
	iomarkLike.Kernel, fioLike.Kernel = nil, nil
	if strings.Contains(out, "Where the CPU went") {
		t.Errorf("a CPU table without CPU readings:\n%s", out)
	}

	// With the CPU witness, a table of where the machine's CPU went in each tool's runs; a
	// run without the reading (an older raw file) is left out of the medians.
	iomarkLike.CPU = &cpuWindow{ToolUS: 2.07, WorkersUS: 1.5, SoftirqUS: 0.94, OtherUS: 0.03, DeviceWaitUS: 2.0, IdleShare: 0.225}
	fioLike.CPU = &cpuWindow{ToolUS: 2.66, WorkersUS: 1.45, SoftirqUS: 0.82, OtherUS: 0.03, DeviceWaitUS: 2.5, IdleShare: 0.157}
	r = rowResult{workload: row("4K randread QD32 io_uring"), iomark: []sample{iomarkLike, {IOPS: 1}}, fio: []sample{fioLike}}
	out = renderReport(env{}, []rowResult{r}, options{pairs: 1, runtime: 5 * time.Second, ramp: time.Second, sizeMB: 2048})
	if !strings.Contains(out, "| 4K randread QD32 io_uring | 2.07 | 2.66 | 1.50 | 1.45 | 0.94 | 0.82 | 4.54 | 4.96 | 2.00 | 2.50 | 22.5% | 15.7% |") {
		t.Errorf("CPU table lacks a class, the total, the device's wait or the idle share:\n%s", out)
	}
	iomarkLike.CPU, fioLike.CPU = nil, nil

	// Sequential I/Os submitted together reach the device merged: the per-request figures
	// are not the tool's, and the table says so instead of printing them.
	iomarkLike.Device.MergedShare = 0.28
	r = rowResult{workload: row("128K read QD8 io_uring"), iomark: []sample{iomarkLike}, fio: []sample{fioLike}}
	out = renderReport(env{}, []rowResult{r}, options{pairs: 1, runtime: 5 * time.Second, ramp: time.Second, sizeMB: 2048})
	if !strings.Contains(out, "| 128K read QD8 io_uring | merged 28% | 17.7 | 26.6 | 31.7 | 86.7 | 113.1 | merged 28% | 63.1 | merged 28% | 50.0 |") {
		t.Errorf("kernel table shows per-request figures for merged I/Os:\n%s", out)
	}
}

// TestDevStat reads the kernel's counters the way the witness does: a 17-field line of Linux
// 6.18 (a loop device on the lab VM) and an 11-field line of older kernels, and
// a window across the 32-bit wrap of the ms sums.
func TestDevStat(t *testing.T) {
	c, err := parseDevStat("72169075     8376 1369914410  4657878  1044200    12853 80317420   184986        0   460376  4846398      124        0 51642728     3439     2078       94\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := (devCounters{ios: 72169075 + 1044200, merged: 8376 + 12853, ticksMS: 4657878 + 184986, inQueueMS: 4846398}); c != want {
		t.Errorf("17 fields: %+v, want %+v", c, want)
	}
	if c, err := parseDevStat("10 1 80 5 20 2 160 7 0 9 12"); err != nil || c.ios != 30 || c.merged != 3 || c.ticksMS != 12 || c.inQueueMS != 12 {
		t.Errorf("11 fields: %+v, %v", c, err)
	}
	for _, bad := range []string{"", "1 2 3", "1 2 3 4 5 6 7 8 9 10 x"} {
		if _, err := parseDevStat(bad); err == nil {
			t.Errorf("parseDevStat(%q) accepted a line it cannot read", bad)
		}
	}
	t0 := time.Unix(1000, 0)
	a := devCounters{at: t0, ios: 1_000_000, merged: 500, ticksMS: 1<<32 - 100, inQueueMS: 1<<32 - 50}
	b := devCounters{at: t0.Add(4 * time.Second), ios: 2_200_000, merged: 300_500, ticksMS: 84_000 - 100, inQueueMS: 84_000 - 50}
	w, ok := between(a, b)
	if !ok {
		t.Fatal("between refused a window across the wrap")
	}
	if math.Abs(w.IOPS-300000) > 1e-6 || math.Abs(w.HeldInDevice-21) > 1e-9 || math.Abs(w.MeanUS-70) > 1e-9 || w.WindowS != 4 ||
		math.Abs(w.MergedShare-0.2) > 1e-12 {
		t.Errorf("window %+v, want 300000 IOPS, 21 in device, 70 µs, 4 s, 20%% merged", w)
	}
	if _, ok := between(b, a); ok {
		t.Error("between accepted counters that went back")
	}
}

func TestRowsSelection(t *testing.T) {
	if got := len((options{}).selected()); got != len(workloads) {
		t.Errorf("no -rows selects %d rows, want all %d", got, len(workloads))
	}
	var names []string
	for _, w := range (options{rows: "QD32"}).selected() {
		names = append(names, w.name)
	}
	if want := []string{"4K randread QD32 io_uring", "4K randwrite QD32 io_uring"}; !slices.Equal(names, want) {
		t.Errorf("-rows QD32 selects %q, want %q", names, want)
	}
	names = nil
	for _, w := range (options{rows: "QD1 psync, QD32 io_uring"}).selected() {
		names = append(names, w.name)
	}
	if want := []string{"4K randread QD1 psync", "4K randread QD32 io_uring", "4K randwrite QD1 psync", "4K randwrite QD32 io_uring"}; !slices.Equal(names, want) {
		t.Errorf("-rows \"QD1 psync, QD32 io_uring\" selects %q, want %q (table order)", names, want)
	}
}

// TestOptionsCheck refuses -split-cpus with -one-cpu: each places the CPUs its own way.
func TestOptionsCheck(t *testing.T) {
	o := options{pairs: 7, runtime: 5 * time.Second, ramp: time.Second, sizeMB: 2048}
	if err := o.check(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.splitCPUs, o.oneCPU = true, true
	if err := o.check(); err == nil || !strings.Contains(err.Error(), "choose one") {
		t.Errorf("-split-cpus -one-cpu: err %v, want a refusal", err)
	}
}
