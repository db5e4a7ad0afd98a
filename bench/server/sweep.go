package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iomark/iomark/internal/server"
	"github.com/iomark/iomark/internal/store"
)

// The clients sweep (-sweep 8,32,100,200): the server runs in a process of its own, set up as
// `iomark serve --memory` sets it up (server.PlanMemory), so its resident memory is the
// server's alone; for each number of clients its peak resident set (VmHWM, reset between steps
// through /proc/PID/clear_refs) is read while that many clients request the pages at once.

// childEnv marks the server process of a sweep (for tests, whose binary is not this command).
const childEnv = "IOMARK_BENCH_SERVER_CHILD"

// serveChild is the server process of a sweep: it serves dsn on a loopback port it prints, and
// stops when its standard input closes (the bench ended).
func serveChild(dsn string, memoryMiB int64) error {
	plan := server.PlanMemory(memoryMiB << 20)
	debug.SetMemoryLimit(plan.GoLimitBytes)
	ctx := context.Background()
	st, err := store.OpenWith(ctx, dsn, plan.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	srv, err := server.New(st, server.Options{BaseURL: base, SubmitPerS: -1, RequestPerS: -1, CacheBytes: plan.CacheBytes})
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := srv.Warm(ctx); err != nil {
		return err
	}
	go http.Serve(ln, srv) //nolint:errcheck // ends with the process
	fmt.Println("listening", base)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// sweep starts the server process (or, with serverURL and serverPID, takes one already running,
// e.g. an `iomark serve` of another commit) and loads it with each number of clients in turn.
func sweep(dsn string, memoryMiB int64, clients []int, perClient int, pages []page, serverURL string, serverPID int) error {
	if serverURL != "" {
		fmt.Printf("\nserver process %d at %s (started by hand)\n", serverPID, serverURL)
		return sweepSteps(serverURL, serverPID, clients, perClient, pages)
	}
	cmd := exec.Command(os.Args[0], "-serve", "-db", dsn, "-memory", strconv.FormatInt(memoryMiB, 10))
	cmd.Env = append(os.Environ(), childEnv+"=1") // a test binary is told to be the server process
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("the server process did not start: %w", err)
	}
	base := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	pid := cmd.Process.Pid
	idle, _ := procStatusKiB(pid, "VmRSS")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 2 * time.Minute}
	// Each page once first, alone: what the server keeps (rankings, summaries) is computed then,
	// so the steps measure the server as visitors meet it once it has run a while.
	start := time.Now()
	if _, _, err := load(client, base, pages, 1, len(pages)); err != nil {
		return fmt.Errorf("the first pass over the pages: %w", err)
	}
	warm, _ := procStatusKiB(pid, "VmRSS")
	fmt.Printf("\nserver process %d, --memory %d MiB: %.0f MiB resident once the home rankings are computed, %.0f MiB after one pass over the pages (%.1f s)\n",
		pid, memoryMiB, float64(idle)/1024, float64(warm)/1024, time.Since(start).Seconds())
	return sweepSteps(base, pid, clients, perClient, pages)
}

// sweepSteps loads the server at base, whose process is pid, with each number of clients.
func sweepSteps(base string, pid int, clients []int, perClient int, pages []page) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 2 * time.Minute}
	fmt.Printf("\n| clients | requests | 503 busy | p50 | p99 | peak RSS |\n|---|---|---|---|---|---|\n")
	for _, n := range clients {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
			return fmt.Errorf("resetting the peak resident set of %d (needs Linux 4.0 and the right to write /proc/%d/clear_refs): %w", pid, pid, err)
		}
		lat, busy, err := load(client, base, pages, n, perClient)
		if err != nil {
			return fmt.Errorf("%d clients: %w", n, err)
		}
		peak, err := procStatusKiB(pid, "VmHWM")
		if err != nil {
			return err
		}
		p50, p99 := "-", "-"
		if len(lat) > 0 {
			p50, p99 = fmt.Sprintf("%.1f ms", ms(lat, 0.5)), fmt.Sprintf("%.1f ms", ms(lat, 0.99))
		}
		fmt.Printf("| %d | %d | %d | %s | %s | %.0f MiB |\n", n, n*perClient, busy, p50, p99, float64(peak)/1024)
	}
	return nil
}

// load has n clients request perClient pages each, cycling through pages from different
// starting points, and returns the sorted latencies of the answered ones and how many were
// turned away busy (503).
func load(client *http.Client, base string, pages []page, n, perClient int) ([]time.Duration, int, error) {
	var (
		lat   latencies
		busy  atomic.Int64
		fails atomic.Int64
		first atomic.Value
		wg    sync.WaitGroup
	)
	for c := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perClient {
				p := pages[(c+j)%len(pages)]
				resp, d, err := timedGet(client, base+p.path(c*perClient+j))
				if err != nil {
					fails.Add(1)
					first.CompareAndSwap(nil, err.Error())
					continue
				}
				switch resp.StatusCode {
				case http.StatusOK:
					lat.add(d)
				case http.StatusServiceUnavailable:
					busy.Add(1)
				default:
					fails.Add(1)
					first.CompareAndSwap(nil, fmt.Sprintf("%s: %s", p.name, resp.Status))
				}
			}
		}()
	}
	wg.Wait()
	if fails.Load() > 0 {
		return nil, 0, fmt.Errorf("%d requests failed, the first: %v", fails.Load(), first.Load())
	}
	return lat.sorted(), int(busy.Load()), nil
}

// procStatusKiB reads one "Name: N kB" line of /proc/PID/status.
func procStatusKiB(pid int, name string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, name)
}
