package cli

import (
	"bufio"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// interruptAfterFirstTest starts cmd, an `iomark run` in a child process, and sends it SIGINT
// as Ctrl-C would once its first test is measured, calling beforeSignal (when not nil) just
// before; it returns what the run wrote to stderr once it ended. No test finished to
// interrupt after fails the test.
func interruptAfterFirstTest(t *testing.T, cmd *exec.Cmd, beforeSignal func()) string {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	sc := bufio.NewScanner(pipe)
	signalled := false
	for sc.Scan() {
		line := sc.Text()
		stderr.WriteString(line + "\n")
		if !signalled && strings.HasPrefix(line, "[1/") && strings.Contains(line, "±") {
			if beforeSignal != nil {
				beforeSignal()
			}
			cmd.Process.Signal(syscall.SIGINT)
			signalled = true
		}
	}
	cmd.Wait()
	if !signalled {
		t.Fatalf("no test finished to interrupt after:\n%s", stderr.String())
	}
	return stderr.String()
}

// TestInterruptedRunIsKeptApart: `iomark run --submit` stopped by Ctrl-C (SIGINT to a child
// process, once the first test is measured) keeps the run but uploads nothing and prints the
// command that would; history marks it; a bare submit takes the newest complete run instead,
// and the interrupted one goes up only when named with --allow-interrupted. The interrupted
// run still carries the finding of the drive's latest verify, looked up after the signal.
func TestInterruptedRunIsKeptApart(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "cli-intr", SizeMB: 1024, ReadIOPS: 2600, WriteIOPS: 700, ReadMBps: 40, WriteMBps: 20, FS: "ext4"})
	db, complete := savedRuns(t) // two complete runs, older than the one measured here
	seedFakeVerify(t, d.Mnt, db)
	site := startServer(t).URL

	cmd := cliCommand("run", d.Mnt, "--db", db, "--submit", site)
	errOut := interruptAfterFirstTest(t, cmd, nil)
	t.Logf("iomark run --submit, SIGINT after the first test:\n%s", errOut)
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if strings.Contains(errOut, "submitted as") || !strings.Contains(errOut, "--allow-interrupted`") {
		t.Errorf("an interrupted run was uploaded, or the command that would upload it is not given:\n%s", errOut)
	}
	runs, skipped, err := latestOf(t, db)
	if err != nil || len(skipped) != 1 || runs != complete[1].ID {
		t.Fatalf("latest = %s, passed over %d, %v; want the newest complete run %s and one interrupted", runs, len(skipped), err, complete[1].ID)
	}
	interrupted := skipped[0]
	if rec := loadRun(t, db, interrupted); !hasFindingID(rec, "fake-capacity") {
		t.Errorf("the interrupted run lost the fake-capacity finding of the drive's verify: %+v", rec.Findings)
	}
	if resp, err := http.Get(site + "/api/v1/results/" + interrupted + "/raw"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("the site holds the interrupted run: %v %v", resp.Status, err)
	}

	code, out, _ := runCLI(t, "history", "--db", db)
	t.Logf("iomark history:\n%s", out)
	if code != 0 || !strings.Contains(out, runstore.ShortID(interrupted)) || !strings.Contains(out, "(interrupted)") {
		t.Errorf("history does not mark the interrupted run:\n%s", out)
	}
	code, out, errOut = runCLI(t, "submit", "--server", site, "--db", db)
	t.Logf("iomark submit (bare): exit %d\n%s%s", code, out, errOut)
	if code != 0 || strings.TrimSpace(out) != site+"/result/"+complete[1].ID || !strings.Contains(errOut, runstore.ShortID(interrupted)) {
		t.Errorf("a bare submit did not take the newest complete run, or did not say which it passed over")
	}
	short := runstore.ShortID(interrupted)
	code, _, errOut = runCLI(t, "submit", short, "--server", site, "--db", db)
	t.Logf("iomark submit %s: exit %d\n%s", short, code, errOut)
	if code != exitFailure || !strings.Contains(errOut, "--allow-interrupted") {
		t.Errorf("submit of a named interrupted run without --allow-interrupted: exit %d", code)
	}
	code, out, errOut = runCLI(t, "submit", short, "--server", site, "--db", db, "--allow-interrupted")
	if code != 0 || strings.TrimSpace(out) != site+"/result/"+interrupted {
		t.Errorf("submit --allow-interrupted: exit %d, %s %s", code, out, errOut)
	}
}
