package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// runCLI is in info_test.go.

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"iomark ", "commit ", runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH} {
		if !strings.Contains(out, want) {
			t.Errorf("version output %q lacks %q", out, want)
		}
	}
	// --version prints the same text, as users of other tools expect it to.
	code, flagOut, _ := runCLI(t, "--version")
	if code != 0 || flagOut != out {
		t.Errorf("--version: exit %d, output %q, want %q", code, flagOut, out)
	}
}

func TestJobJSONHasTheDocumentedKeys(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "job", "--target", dir, "--rw", "randrw", "--bs", "4k", "--qd", "2",
		"--size", "4m", "--runtime", "0.5", "--time-based", "--ramp", "0", "--engine", "psync", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"iops", "mb_per_s", "mib_per_s", "bytes", "ios", "duration_s", "lat_us", "cpu", "engine", "direct", "series", "read", "write", "bytes_written", "interrupted"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	lat, _ := m["lat_us"].(map[string]any)
	for _, k := range []string{"p50", "p90", "p99", "p999", "max", "mean"} {
		if _, ok := lat[k]; !ok {
			t.Errorf("lat_us lacks %q", k)
		}
	}
	cpu, _ := m["cpu"].(map[string]any)
	for _, k := range []string{"usr_s", "sys_s"} {
		if _, ok := cpu[k]; !ok {
			t.Errorf("cpu lacks %q", k)
		}
	}
	if m["engine"] != "psync" || m["direct"] != true {
		t.Errorf("engine %v direct %v", m["engine"], m["direct"])
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("job left %d file(s) in the target directory", len(ents))
	}
}

func TestJobUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"job", "--bs", "3x"}, "--bs"},
		{[]string{"job", "--bs", "32m"}, "out of range"},
		{[]string{"job", "--qd", "0"}, "queue depth"},
		{[]string{"job", "--rw", "sideways"}, "unknown pattern"},
		{[]string{"job", "--runtime", "soon"}, "--runtime"},
		{[]string{"job", "--time-based", "--runtime", "1s"}, "--time-based"},
		{[]string{"job", "--confirm", "/dev/sdz"}, "--destructive"},
		{[]string{"job", "--engine", "libaio"}, "unknown engine"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}

func TestJobRefusesToWriteAFileItDidNotCreate(t *testing.T) {
	path := t.TempDir() + "/mine"
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "job", "--target", path, "--rw", "randwrite", "--runtime", "1")
	if code != exitFailure || !strings.Contains(errOut, "--destructive") {
		t.Fatalf("exit %d, stderr %q; want exit 1 naming --destructive", code, errOut)
	}
}

// `iomark run` and `iomark job` refuse a target that does not exist alike (one
// decision, engine.InspectTarget), naming what does exist, and create nothing.
func TestRunAndJobRefuseAMissingTargetAlike(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ target, want string }{
		{dir + "/mnt/usb", "the nearest existing directory is " + dir},
		{"/dev/iomark-no-such-disk", "`iomark list` shows the drives"},
		{"/dev/null", "under /dev only block devices are targets"},
	} {
		codeRun, _, errRun := runCLI(t, "run", c.target, "--no-save")
		codeJob, _, errJob := runCLI(t, "job", "--target", c.target, "--rw", "randwrite")
		for _, r := range []struct {
			cmd    string
			code   int
			stderr string
		}{{"run", codeRun, errRun}, {"job", codeJob, errJob}} {
			if r.code != exitFailure || !strings.Contains(r.stderr, c.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want exit %d saying %q", r.cmd, c.target, r.code, r.stderr, exitFailure, c.want)
			}
			if strings.Contains(r.stderr, "measuring anyway") {
				t.Errorf("%s %s: said it would measure before refusing: %q", r.cmd, c.target, r.stderr)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a refused command created %v", ents)
	}
}

// TestMeasuredBefore: a run that stopped early never speaks of "the figures above" when it
// measured nothing.
func TestMeasuredBefore(t *testing.T) {
	for n, want := range map[int]string{0: "nothing was measured before the signal", 1: "the one test printed was measured before the signal",
		3: "the 3 tests printed were measured before the signal"} {
		rec := &record.Run{Tests: make([]record.Test, n)}
		if got := measuredBefore(rec, "the signal"); got != want {
			t.Errorf("%d tests: %q, want %q", n, got, want)
		}
	}
}

// TestRunSuggestsTheMountPointMeant: a mistyped mount point next to a real one (a loop device
// with ext4, mounted) is answered with that mount point and the drive behind it, not with its
// parent directory (another filesystem); nothing is benchmarked or created.
func TestRunSuggestsTheMountPointMeant(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "cli-typo", SizeMB: 64, FS: "ext4"})
	// Two neighbouring characters swapped, as a typo does: two that differ (the random suffix
	// may repeat a digit, and swapping equal ones would give the real path).
	base := []rune(filepath.Base(d.Mnt))
	i := len(base) - 3
	for i > 0 && base[i] == base[i+1] {
		i--
	}
	base[i], base[i+1] = base[i+1], base[i]
	typo := filepath.Join(filepath.Dir(d.Mnt), string(base))
	for _, args := range [][]string{{"run", typo, "--no-save"}, {"job", "--target", typo, "--rw", "randread"}} {
		code, out, errOut := runCLI(t, args...)
		t.Logf("iomark %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		if code != exitFailure || out != "" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
		if !strings.Contains(errOut, "did you mean "+d.Mnt+" — the loop device (loop") {
			t.Errorf("the mount point meant and its drive are not suggested")
		}
		if strings.Contains(errOut, "`iomark run "+filepath.Dir(d.Mnt)+"`") || strings.Contains(errOut, "--target "+filepath.Dir(d.Mnt)+"`") {
			t.Errorf("the parent directory, another filesystem, is offered as a target")
		}
	}
	if _, err := os.Stat(typo); !os.IsNotExist(err) {
		t.Errorf("the mistyped path exists now: %v", err)
	}
}
