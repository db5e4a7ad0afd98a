package lab

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDriveScript runs scripts/lab/drive.sh, the shell twin of this package, through up,
// limits and down, and checks what each leaves on the machine.
func TestDriveScript(t *testing.T) {
	if err := availableFor(Spec{Name: "sh", FS: "ext4"}); err != nil {
		t.Skip(err)
	}
	script, err := filepath.Abs("../../../scripts/lab/drive.sh")
	if err != nil {
		t.Fatal(err)
	}
	name := "labtest-" + strconv.Itoa(os.Getpid())
	sh := func(args ...string) (string, error) {
		out, err := exec.Command("bash", append([]string{script}, args...)...).CombinedOutput()
		return string(out), err
	}
	out, err := sh("up", name, "--size-mb", "32", "--read-iops", "123", "--write-mbps", "7", "--fs", "ext4")
	if err != nil {
		t.Fatalf("drive.sh up: %v\n%s", err, out)
	}
	t.Cleanup(func() { sh("down", name) })
	state, err := os.ReadFile("/run/iomark-lab/" + name)
	if err != nil {
		t.Fatalf("drive.sh left no state: %v", err)
	}
	vars := map[string]string{}
	for _, line := range strings.Split(string(state), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			vars[k] = v
		}
	}
	if !strings.Contains(out, "DEV="+vars["DEV"]) || vars["MM"] == "" || vars["IMG"] == "" {
		t.Fatalf("drive.sh printed %q, state %v", out, vars)
	}
	if !isMounted(t, vars["MNT"]) {
		t.Errorf("%s not mounted", vars["MNT"])
	}
	if got, err := readThrottle(vars["MM"]); err != nil || got != limitsToValues(123, 0, 0, 7) {
		t.Errorf("rules after up = %v (%v), want %v", got, err, limitsToValues(123, 0, 0, 7))
	}

	if out, err := sh("limits", name, "--write-iops", "456"); err != nil {
		t.Fatalf("drive.sh limits: %v\n%s", err, out)
	}
	if got, err := readThrottle(vars["MM"]); err != nil || got != limitsToValues(0, 456, 0, 0) {
		t.Errorf("rules after limits = %v (%v), want %v", got, err, limitsToValues(0, 456, 0, 0))
	}
	if out, err := sh("up", name); err == nil {
		t.Errorf("a second up of %s succeeded: %s", name, out)
	}

	if out, err := sh("down", name); err != nil {
		t.Fatalf("drive.sh down: %v\n%s", err, out)
	}
	checkGone(t, "after down", vars["MNT"], vars["IMG"], vars["IMG"], "/run/iomark-lab/"+name)
	if got, err := readThrottle(vars["MM"]); err != nil || got != (throttleValues{}) {
		t.Errorf("rules after down = %v (%v), want none", got, err)
	}
	if out, err := sh("down", name); err == nil {
		t.Errorf("down of a drive already down succeeded: %s", out)
	}
}
