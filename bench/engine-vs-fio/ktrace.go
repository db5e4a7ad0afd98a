package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// With -trace every run is also timed by the kernel, request by request: bpftrace holds the
// block layer's block_io_start and block_io_done tracepoints of the device (the span
// /sys/block/DEV/stat sums: a request's creation to its end) in a 1 µs histogram, over the
// same window as the counters (see window), and the mean time from a request's creation to
// the driver taking it (block_rq_issue). Each tool's percentiles can then
// be set against the kernel's percentiles of the same run. The probes cost CPU on the I/O path
// of both tools (about 15% of the IOPS on the lab VM), so a traced table is for latency only.

// kernelTraceScript is the bpftrace program: $1 the device (the kernel's dev_t, major<<20 |
// minor), $2 and $3 the 100 ms ticks at which counting starts and the program exits. Requests
// are matched by their first sector; the few that share a sector while in flight are lost,
// not mismatched (the first done deletes the start).
const kernelTraceScript = `
BEGIN { printf("ready\n"); }
tracepoint:block:block_io_start /args->dev == $1/ { @start[args->sector] = nsecs; }
tracepoint:block:block_rq_issue /args->dev == $1/ {
	$s = @start[args->sector];
	if ($s != 0 && @on == 1) { @to_driver_ns = stats(nsecs - $s); }
}
tracepoint:block:block_io_done /args->dev == $1/ {
	$t = @start[args->sector];
	if ($t != 0) {
		if (@on == 1) { @us = lhist((nsecs - $t) / 1000, 0, 1000, 1); }
		delete(@start[args->sector]);
	}
}
interval:ms:100 {
	@ticks = @ticks + 1;
	if (@ticks == $2) { @on = 1; }
	if (@ticks == $3) { exit(); }
}
END { clear(@start); clear(@ticks); clear(@on); }
`

// kernelLatency is the kernel's latency distribution of one run's window, µs.
type kernelLatency struct {
	N      int64   `json:"n"`
	MeanUS float64 `json:"mean_us"`
	P50US  float64 `json:"p50_us"`
	P99US  float64 `json:"p99_us"`
	// Over is how many requests took 1000 µs or more (the histogram's last bucket); a
	// percentile that falls there is reported as 1000.
	Over int64 `json:"over_1000us,omitempty"`
	// ToDriverUS is the mean time from a request's creation (where its time in the device
	// starts) to the driver taking it: time spent in the submitting task's plug while the
	// rest of its batch is prepared, or queued in the block layer. A tool that hands its
	// I/Os in together keeps each one here longer (docs/decisions.md, "The kernel referees
	// latency at depth"). Zero when the trace saw no request reach the driver in its window.
	ToDriverUS float64 `json:"to_driver_us,omitempty"`
}

// kernelTracer is one bpftrace run on the device.
type kernelTracer struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan error
}

// bpftraceAvailable says how to get bpftrace when it is missing.
func bpftraceAvailable() error {
	if _, err := exec.LookPath("bpftrace"); err != nil {
		return errors.New("-trace needs bpftrace (Debian: apt-get install bpftrace)")
	}
	return nil
}

// startKernelTrace starts bpftrace on dev and returns once its probes are attached, so the
// run that follows is timed from its start.
func startKernelTrace(ctx context.Context, dev string, o options) (*kernelTracer, error) {
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		return nil, fmt.Errorf("trace %s: %w", dev, err)
	}
	devT := uint64(unix.Major(uint64(st.Rdev)))<<20 | uint64(unix.Minor(uint64(st.Rdev)))
	const tick = 100 * time.Millisecond // the script's interval
	from, to := window(o)
	on, off := from/tick, to/tick
	cmd := exec.CommandContext(ctx, "bpftrace", "-e", kernelTraceScript,
		strconv.FormatUint(devT, 10), strconv.Itoa(int(on)), strconv.Itoa(int(off)))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start bpftrace: %w", err)
	}
	t := &kernelTracer{cmd: cmd, out: &bytes.Buffer{}, done: make(chan error, 1)}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		seen := false
		for sc.Scan() {
			if !seen && strings.TrimSpace(sc.Text()) == "ready" {
				seen = true
				close(ready)
				continue
			}
			t.out.WriteString(sc.Text() + "\n")
		}
		_, _ = io.Copy(io.Discard, stdout)
		err := cmd.Wait()
		if !seen {
			close(ready)
		}
		if err != nil {
			err = fmt.Errorf("bpftrace: %w: %s", err, lastLine(stderr.String()))
		}
		t.done <- err
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return nil, errors.New("bpftrace did not attach its probes within 30 s")
	}
	select {
	case err := <-t.done: // it exited before the run began
		if err == nil {
			err = errors.New("bpftrace exited before the run")
		}
		return nil, err
	default:
	}
	return t, nil
}

// result waits for bpftrace to exit (at the end of its window) and reads its histogram.
func (t *kernelTracer) result() (kernelLatency, error) {
	if err := <-t.done; err != nil {
		return kernelLatency{}, err
	}
	return parseLhist(t.out.String())
}

// stop ends a trace whose run failed.
func (t *kernelTracer) stop() {
	_ = t.cmd.Process.Signal(unix.SIGINT)
	<-t.done
}

// parseLhist reads bpftrace's printed lhist ("[lo, hi)  count |@@@|" lines, "[1000, ...)"
// for the last bucket) into the distribution, a request placed at its bucket's middle, and
// the @to_driver_ns stats line into ToDriverUS.
func parseLhist(out string) (kernelLatency, error) {
	type bucket struct {
		lo    float64
		count int64
	}
	var bs []bucket
	var k kernelLatency
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "@to_driver_ns: "); ok {
			// "count N, average A, total T" (bpftrace's stats(), ns)
			var n, avg, total int64
			if _, err := fmt.Sscanf(rest, "count %d, average %d, total %d", &n, &avg, &total); err != nil {
				return k, fmt.Errorf("bpftrace stats line %q: %w", line, err)
			}
			if n > 0 {
				k.ToDriverUS = float64(total) / float64(n) / 1e3
			}
			continue
		}
		if !strings.HasPrefix(line, "[") {
			continue
		}
		lo, rest, ok := strings.Cut(line[1:], ",")
		_, rest, ok2 := strings.Cut(rest, ")")
		if !ok || !ok2 {
			return k, fmt.Errorf("bpftrace histogram line %q", line)
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return k, fmt.Errorf("bpftrace histogram line %q has no count", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		l, err2 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		if err != nil || err2 != nil {
			return k, fmt.Errorf("bpftrace histogram line %q", line)
		}
		if l >= 1000 {
			k.Over += n
		}
		bs = append(bs, bucket{l, n})
	}
	var sum float64
	for _, b := range bs {
		k.N += b.count
		sum += float64(b.count) * (b.lo + 0.5)
	}
	if k.N == 0 {
		return k, errors.New("the kernel trace counted no request of the device in its window")
	}
	k.MeanUS = sum / float64(k.N)
	at := func(q float64) float64 {
		var seen int64
		for _, b := range bs {
			if seen += b.count; float64(seen) >= q*float64(k.N) {
				return min(b.lo+0.5, 1000)
			}
		}
		return bs[len(bs)-1].lo + 0.5
	}
	k.P50US, k.P99US = at(0.50), at(0.99)
	return k, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
