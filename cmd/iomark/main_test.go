package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPeakRSSAtQD32 runs the real binary at queue depth 32 and checks the memory
// bound: peak resident memory at most 50 MB, for both engines.
func TestPeakRSSAtQD32(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "iomark")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
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
