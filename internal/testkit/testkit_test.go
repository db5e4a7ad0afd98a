package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// requireProbe is the message the probe test passes to Require.
const requireProbe = "frobnicator missing (apt-get install frobnicator)"

// TestRequireProbe is run by TestRequire in a child process, with and without CI set.
func TestRequireProbe(t *testing.T) {
	if os.Getenv("IOMARK_TESTKIT_PROBE") == "" {
		return
	}
	Require(t, requireProbe)
	t.Error("Require returned")
}

// TestRequire runs TestRequireProbe in a child: without CI it skips with the message, with CI
// set it fails with it.
func TestRequire(t *testing.T) {
	for _, ci := range []string{"", "1"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRequireProbe$", "-test.v", "-test.count=1")
		cmd.Env = append(withoutCI(os.Environ()), "IOMARK_TESTKIT_PROBE=1")
		if ci != "" {
			cmd.Env = append(cmd.Env, "CI="+ci)
		}
		out, err := cmd.CombinedOutput()
		text := string(out)
		if !strings.Contains(text, requireProbe) {
			t.Errorf("CI=%q: the output does not carry the message:\n%s", ci, text)
		}
		switch {
		case ci == "" && (err != nil || !strings.Contains(text, "--- SKIP: TestRequireProbe")):
			t.Errorf("CI unset: want a skip, got %v:\n%s", err, text)
		case ci != "" && (err == nil || !strings.Contains(text, "--- FAIL: TestRequireProbe")):
			t.Errorf("CI=%s: want a failure, got %v:\n%s", ci, err, text)
		}
	}
}

func withoutCI(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "CI=") {
			out = append(out, e)
		}
	}
	return out
}

// errorRecorder is a testing.TB that keeps what Errorf reports.
type errorRecorder struct {
	testing.TB
	errs []string
}

func (r *errorRecorder) Helper() {}
func (r *errorRecorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestContainsNamesEachMissingPiece(t *testing.T) {
	r := &errorRecorder{TB: t}
	Contains(r, "table", "| a | b |\n", "| a |", "| c |", "| d |")
	if len(r.errs) != 2 || r.errs[0] != "table lacks \"| c |\":\n| a | b |\n" {
		t.Errorf("errors %q", r.errs)
	}
}
