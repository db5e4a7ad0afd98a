package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeProc is one process of a /proc fixture (see writeProc).
type fakeProc struct {
	pid, ppid int
	comm      string
	threads   map[int]string // TID → schedstat line
}

// writeProc writes a /proc fixture under root: the all-CPUs line and, per process, its stat
// line and one schedstat per thread. Shapes follow proc(5) and
// Documentation/scheduler/sched-stats.rst.
func writeProc(t *testing.T, root, statLine string, procs []fakeProc) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "stat"), []byte(statLine+"\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 0\n"), 0o644))
	for _, p := range procs {
		dir := filepath.Join(root, strconv.Itoa(p.pid))
		must(os.MkdirAll(dir, 0o755))
		must(os.WriteFile(filepath.Join(dir, "stat"),
			[]byte(strconv.Itoa(p.pid)+" ("+p.comm+") S "+strconv.Itoa(p.ppid)+" 0 0 0 -1 4194560 0 0\n"), 0o644))
		for tid, ss := range p.threads {
			tdir := filepath.Join(dir, "task", strconv.Itoa(tid))
			must(os.MkdirAll(tdir, 0o755))
			must(os.WriteFile(filepath.Join(tdir, "schedstat"), []byte(ss+"\n"), 0o644))
		}
	}
}

func TestCPUWitness(t *testing.T) {
	const bench = 100
	tree := func(tool, worker, softirq, other, benchRun, born string) []fakeProc {
		ps := []fakeProc{
			{pid: 1, ppid: 0, comm: "systemd", threads: map[int]string{1: other}},
			{pid: 2, ppid: 0, comm: "kthreadd", threads: map[int]string{2: "0 0 0"}},
			{pid: 14, ppid: 2, comm: "ksoftirqd/0", threads: map[int]string{14: softirq}},
			{pid: 40, ppid: 2, comm: "kworker/u4:1-loop0", threads: map[int]string{40: worker}},
			{pid: bench, ppid: 1, comm: "engine-bench", threads: map[int]string{bench: benchRun}},
			// fio's main process is the bench's child and forks its jobs: grandchildren count.
			{pid: 200, ppid: bench, comm: "fio", threads: map[int]string{200: "0 0 0"}},
			// A name with a space and parentheses: the fields resume after the last ")".
			{pid: 201, ppid: 200, comm: "fio (x) 1", threads: map[int]string{201: tool, 202: tool}},
		}
		if born != "" {
			// io_uring starts its workers (iou-wrk, threads of the job's process) on demand.
			ps[len(ps)-1].threads[203] = born
		}
		return ps
	}
	dirA, dirB := t.TempDir(), t.TempDir()
	// Between the readings: 2 s of 2 CPUs at USER_HZ 100 = 400 jiffies, 100 of them idle or iowait.
	writeProc(t, dirA, "cpu  1000 0 500 800 200 0 100 0 0 0",
		tree("1000000 500 10", "5000000 0 0", "0 100 0", "0 0 0", "0 0 0", ""))
	writeProc(t, dirB, "cpu  1150 0 600 860 240 0 150 0 0 0",
		tree("3000000 500 10", "1500000 300000 5", "900000 200100 5", "400000 0 0", "777000000 0 0", "2000000 0 0"))
	a, err := readCPU(dirA, bench)
	if err != nil {
		t.Fatal(err)
	}
	b, err := readCPU(dirB, bench)
	if err != nil {
		t.Fatal(err)
	}
	for id, class := range map[string]string{"201/202": classTool, "201/203": classTool, "200/200": classTool, "40/40": classWorker,
		"14/14": classSoftirq, "100/100": classOther, "1/1": classOther} {
		if got := b.threads[id].class; got != class {
			t.Errorf("thread %s is %q, want %q", id, got, class)
		}
	}
	w, ok := cpuBetween(a, b, 1000)
	if !ok {
		t.Fatal("no window")
	}
	// Per 1000 requests: the tool's two threads ran 2 ms each and the iou-wrk thread born
	// inside the window 2 ms in its whole life (6 µs per request); the worker 1.5 ms (its ID
	// was reused: the kworker read first had run longer, so the second one counts whole) and
	// the softirq thread 0.9 ms; they waited 0.3 + 0.2 ms. The bench's own run is not the
	// tool's; systemd ran 0.4 ms, "other".
	want := cpuWindow{ToolUS: 6, WorkersUS: 1.5, SoftirqUS: 0.9, OtherUS: 777.4, DeviceWaitUS: 0.5, IdleShare: 100.0 / 400}
	if !near(w.ToolUS, want.ToolUS) || !near(w.WorkersUS, want.WorkersUS) || !near(w.SoftirqUS, want.SoftirqUS) ||
		!near(w.OtherUS, want.OtherUS) || !near(w.DeviceWaitUS, want.DeviceWaitUS) || !near(w.IdleShare, want.IdleShare) {
		t.Errorf("window = %+v, want %+v", w, want)
	}
	if _, ok := cpuBetween(a, b, 0); ok {
		t.Error("a window with no request completed gave figures")
	}
	if _, ok := cpuBetween(b, b, 10); ok {
		t.Error("a window of no CPU time gave figures")
	}

	t.Run("bad files", func(t *testing.T) {
		dir := t.TempDir()
		writeProc(t, dir, "intr 0", nil)
		if _, err := readCPU(dir, bench); err == nil || !strings.Contains(err.Error(), "all-CPUs") {
			t.Errorf("a /proc/stat without the cpu line: %v", err)
		}
		dir = t.TempDir()
		writeProc(t, dir, "cpu  1 0 1 1 x 0 0 0 0 0", nil)
		if _, err := readCPU(dir, bench); err == nil || !strings.Contains(err.Error(), "field 5") {
			t.Errorf("a field that is not a number: %v", err)
		}
		// No thread readable (schedstat missing, or not numbers): the witness says so, and
		// the bench leaves the table out rather than print zeros.
		dir = t.TempDir()
		writeProc(t, dir, "cpu  1 0 1 1 1 0 0 0 0 0", []fakeProc{{pid: 5, ppid: 1, comm: "x", threads: map[int]string{5: "run wait"}}})
		if _, err := readCPU(dir, bench); err == nil || !strings.Contains(err.Error(), "no thread") {
			t.Errorf("no readable schedstat: %v", err)
		}
	})
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestCPUWitnessLive reads this machine's /proc: a child that spins for a while is the tool,
// the test's own process is not.
func TestCPUWitnessLive(t *testing.T) {
	if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/schedstat"); err != nil {
		t.Skipf("this kernel does not account CPU per thread (%v)", err)
	}
	spin := exec.Command("sh", "-c", "while :; do :; done")
	if err := spin.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = spin.Process.Kill(); _ = spin.Wait() }()
	time.Sleep(200 * time.Millisecond)
	a, err := readCPU("/proc", os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	b, err := readCPU("/proc", os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	child := strconv.Itoa(spin.Process.Pid)
	if c := b.threads[child+"/"+child].class; c != classTool {
		t.Errorf("the spinning child is %q, want %q", c, classTool)
	}
	self := strconv.Itoa(os.Getpid())
	if c := b.threads[self+"/"+self].class; c != classOther {
		t.Errorf("the test's own process is %q, want %q", c, classOther)
	}
	w, ok := cpuBetween(a, b, 1)
	if !ok {
		t.Fatal("no window")
	}
	// The child spun through the whole second on one CPU. Other tests running beside this
	// one share the CPUs, so only a floor well under the second is asserted.
	if w.ToolUS < 0.1e6 || w.ToolUS > 1.2e6 {
		t.Errorf("the spinning child ran %.0f µs in 1 s", w.ToolUS)
	}
	if w.IdleShare < 0 || w.IdleShare > 1 {
		t.Errorf("idle share %v", w.IdleShare)
	}
}
