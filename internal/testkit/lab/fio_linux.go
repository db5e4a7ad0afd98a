package lab

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// FioAvailable reports whether a usable fio (3.x) is on PATH, with how to get one if not.
func FioAvailable() error {
	path, err := exec.LookPath("fio")
	if err != nil {
		return fmt.Errorf("lab: fio not found on PATH (apt-get install fio)")
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return fmt.Errorf("lab: %s --version: %w", path, err)
	}
	if v := strings.TrimSpace(string(out)); !strings.HasPrefix(v, "fio-3.") {
		return fmt.Errorf("lab: %s is %q; the lab parses fio 3.x JSON (apt-get install fio)", path, v)
	}
	return nil
}

// RunFio runs fio --output-format=json with args and parses what it printed.
func RunFio(args ...string) (*FioResult, error) {
	return RunFioContext(context.Background(), args...)
}

// RunFioContext is RunFio that kills fio when ctx is done.
func RunFioContext(ctx context.Context, args ...string) (*FioResult, error) {
	cmd := exec.CommandContext(ctx, "fio", append([]string{"--output-format=json"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	wall := time.Since(start)
	if runErr != nil {
		return nil, fmt.Errorf("lab: fio %s: %w: %s", strings.Join(args, " "), runErr, strings.TrimSpace(stderr.String()))
	}
	r, err := ParseFioJSON(stdout.Bytes())
	if err != nil {
		return r, fmt.Errorf("%w (fio %s; stderr: %s)", err, strings.Join(args, " "), strings.TrimSpace(stderr.String()))
	}
	r.WallS = wall.Seconds()
	r.ProcCPUS, r.PeakRSSBytes = ProcessCost(cmd)
	return r, nil
}

// ProcessCost returns the user+system CPU seconds and peak RSS of a finished command. The
// rusage wait4 returns covers the process and every descendant it waited for (fio's job
// processes); the peak is the largest of them, not a sum.
func ProcessCost(cmd *exec.Cmd) (cpuS float64, peakRSSBytes int64) {
	if cmd.ProcessState == nil {
		return 0, 0
	}
	cpuS = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakRSSBytes = int64(ru.Maxrss) * 1024 // Linux reports ru_maxrss in KiB
	}
	return cpuS, peakRSSBytes
}
