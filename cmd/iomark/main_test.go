package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPeakRSSAtQD32 runs the real binary at queue depth 32 and checks the memory
// bound: peak resident memory at most 50 MB, for both engines.
func TestPeakRSSAtQD32(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	for _, eng := range []string{"psync", "io_uring"} {
		for _, rw := range []string{"randread", "randrw"} {
			dir := t.TempDir()
			cmd := exec.Command(bin, "job", "--target", dir, "--engine", eng, "--rw", rw, "--bs", "4k",
				"--qd", "32", "--size", "64m", "--runtime", "1", "--time-based", "--ramp", "0.2", "--json")
			out, err := cmd.Output()
			if err != nil {
				var stderr []byte
				if ee, ok := err.(*exec.ExitError); ok {
					stderr = ee.Stderr
				}
				t.Fatalf("%s %s: %v %s", eng, rw, err, stderr)
			}
			var res struct{ IOs int64 }
			if err := json.Unmarshal(out, &res); err != nil || res.IOs == 0 {
				t.Fatalf("%s %s: no I/O measured (%v)", eng, rw, err)
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			peak := ru.Maxrss * 1024 // Linux reports KiB
			t.Logf("%s %s QD32: peak RSS %.1f MB", eng, rw, float64(peak)/1e6)
			if peak > 50e6 {
				t.Errorf("%s %s QD32: peak RSS %.1f MB, want ≤ 50 MB", eng, rw, float64(peak)/1e6)
			}
		}
	}
}

// TestSIGINTPrintsWhatWasMeasured sends the real binary SIGINT mid-job: it must print the
// figures so far (JSON with "interrupted": true), exit 130 and leave no test file.
func TestSIGINTPrintsWhatWasMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "job", "--target", dir, "--rw", "randwrite", "--size", "16m", "--time-based",
		"--runtime", "60", "--ramp", "0", "--json")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the job is past its layout (the only line it logs), then let it run a moment.
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	if !strings.Contains(line, "laying out") {
		t.Fatalf("unexpected first stderr line %q", line)
	}
	time.Sleep(1500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit status %d (%v), want 130", code, err)
	}
	var res struct {
		Interrupted bool
		IOs         int64
		DurationS   float64 `json:"duration_s"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("no JSON result after SIGINT: %v\n%s", err, stdout.String())
	}
	if !res.Interrupted || res.IOs == 0 || res.DurationS > 30 {
		t.Errorf("result %+v: want interrupted with the I/O done so far", res)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("SIGINT left %d file(s) behind", len(ents))
	}
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "iomark")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}
