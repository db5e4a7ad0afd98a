package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// cliMainEnv makes the test binary act as the iomark command (TestMain), so a test can send
// it signals as a user's Ctrl-C would.
const cliMainEnv = "IOMARK_CLI_TEST_MAIN"

// cliCommand is the iomark command with args, run by the test binary in a child process.
func cliCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliMainEnv+"=1")
	return cmd
}

// mountExt4 makes an ext4 filesystem on dev and mounts it for the test; it returns the mount
// point.
func mountExt4(t *testing.T, dev string) string {
	t.Helper()
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		testkit.Require(t, "mkfs.ext4 missing (apt-get install e2fsprogs)")
	}
	if b, err := exec.Command("mkfs.ext4", "-q", "-F", dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs: %v %s", err, b)
	}
	mnt := t.TempDir()
	if b, err := exec.Command("mount", dev, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, b)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	return mnt
}

func TestMain(m *testing.M) {
	if os.Getenv(cliMainEnv) != "" {
		os.Exit(Main(os.Args[1:]))
	}
	// Journals of verifies and their pointers go to the data directory: never the real one.
	data, err := os.MkdirTemp("", "iomark-cli-data-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli tests: a data directory:", err)
		os.Exit(1)
	}
	os.Setenv("XDG_DATA_HOME", data)
	code := m.Run()
	os.RemoveAll(data)
	if iomarkDir != "" {
		os.RemoveAll(iomarkDir) // the binary iomarkBinary built
	}
	os.Exit(code)
}

func upCard(t *testing.T, s lab.CardSpec) *lab.CardDrive {
	t.Helper()
	s.Name = "cli-verify"
	if s.Seed == 0 {
		s.Seed = rand.Uint64()
	}
	return lab.NewCardDrive(t, s, lab.CardAttach{})
}

// TestVerifyCommand runs `iomark verify` on a fake card: the documented JSON keys, exit
// status 3, the card as it was, and afterwards `iomark info` and `iomark run`'s finding.
func TestVerifyCommand(t *testing.T) {
	d := upCard(t, lab.CardSpec{ClaimedBytes: 1 << 30, RealBytes: 128 << 20, Failure: lab.FailWrap})
	db := filepath.Join(t.TempDir(), "results.db")
	state := d.Card.Digest()

	code, _, errOut := runCLI(t, "verify", d.Dev, "--db", db)
	if code != exitUsage || !strings.Contains(errOut, "--confirm "+d.Dev) || d.Card.Counters().Writes != 0 {
		t.Fatalf("without --confirm: exit %d, %d writes: %s", code, d.Card.Counters().Writes, errOut)
	}
	code, out, errOut := runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--json", "--db", db)
	if code != exitVerifyFailed {
		t.Fatalf("exit %d, want %d: %s", code, exitVerifyFailed, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"verdict", "mode", "claimed_bytes", "usable_bytes", "first_bad_byte", "failure", "bytes_written", "bytes_read", "duration_s", "restore", "partition_fix"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["verdict"] != "fake" || m["mode"] != "probe" || m["failure"] != "wrap" || m["usable_bytes"] != float64(128<<20) {
		t.Errorf("verdict %v mode %v failure %v usable %v", m["verdict"], m["mode"], m["failure"], m["usable_bytes"])
	}
	if d.Card.Digest() != state {
		t.Error("the card's content changed")
	}

	code, out, errOut = runCLI(t, "info", d.Dev, "--db", db)
	if code != 0 || !strings.Contains(out, "fake-capacity") || !strings.Contains(out, "sfdisk "+d.Dev) {
		t.Errorf("info after the verify: exit %d\n%s%s", code, out, errOut)
	}
	// Human output of a second verify.
	code, out, _ = runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--db", db, "--no-save")
	for _, want := range []string{"FAKE", "holds 134.2 MB", "how it fails", "sfdisk", "written back and checked"} {
		if !strings.Contains(out, want) {
			t.Errorf("human output lacks %q:\n%s", want, out)
		}
	}
	if code != exitVerifyFailed {
		t.Errorf("second verify exit %d", code)
	}
}

func TestVerifyCommandGenuineAndFill(t *testing.T) {
	d := upCard(t, lab.CardSpec{ClaimedBytes: 256 << 20})
	db := filepath.Join(t.TempDir(), "results.db")
	code, out, errOut := runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--db", db)
	if code != 0 || !strings.Contains(out, "GENUINE") {
		t.Fatalf("genuine card: exit %d\n%s%s", code, out, errOut)
	}
	mnt := mountExt4(t, d.Dev)
	// The probe refuses the mounted card; the fill takes the directory.
	code, _, errOut = runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--db", db)
	if code != exitFailure || !strings.Contains(errOut, "mounted on "+mnt) {
		t.Errorf("probe of a mounted card: exit %d: %s", code, errOut)
	}
	code, out, errOut = runCLI(t, "verify", mnt, "--size", "64M", "--json", "--db", db)
	if code != 0 {
		t.Fatalf("fill: exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	fill, _ := m["fill"].(map[string]any)
	if m["verdict"] != "genuine" || m["mode"] != "fill" || m["claimed_bytes"] != float64(64<<20) || fill == nil || fill["series"] == nil {
		t.Errorf("fill result %v", m)
	}
	if left, _ := filepath.Glob(filepath.Join(mnt, ".iomark-verify-*")); len(left) > 0 {
		t.Errorf("left behind %v", left)
	}
}

// TestVerifySignals interrupts `iomark verify` (a child process) with SIGINT or SIGTERM at
// random moments: whatever it was doing, it must exit having put the card back byte for
// byte (its state and a full read through the kernel).
func TestVerifySignals(t *testing.T) {
	// A slow card (2 ms per write, as random writes on SD cards take) so that most signals
	// land while the probe writes and reads rather than during start-up or the final save.
	d := upCard(t, lab.CardSpec{ClaimedBytes: 512 << 20, RealBytes: 100 << 20, Failure: lab.FailDropStale,
		CacheBytes: 1 << 20, WriteMBps: 60, ReadMBps: 120, WriteLatency: 2 * time.Millisecond, ReadLatency: 300 * time.Microsecond})
	db := filepath.Join(t.TempDir(), "results.db")
	state, sum := d.Card.Digest(), readAll(t, d.Dev)
	run := func(sig syscall.Signal, after time.Duration) (int, string) {
		cmd := cliCommand("verify", d.Dev, "--confirm", d.Dev, "--db", db, "--max-flush", "16M")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if after >= 0 {
			time.Sleep(after)
			cmd.Process.Signal(sig)
		}
		cmd.Wait()
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
	start := time.Now()
	code, _ := run(0, -1)
	full := time.Since(start)
	if code != exitVerifyFailed {
		t.Fatalf("uninterrupted verify exit %d", code)
	}
	t.Logf("an uninterrupted verify takes %v", full)
	for i := 0; i < 6; i++ {
		sig := syscall.SIGINT
		if i%3 == 2 {
			sig = syscall.SIGTERM
		}
		after := time.Duration(rand.Int64N(int64(full) * 6 / 10))
		code, stderr := run(sig, after)
		t.Logf("%v after %v: exit %d", sig, after.Round(time.Millisecond), code)
		switch code {
		case exitInterrupted:
			if !strings.Contains(stderr, "written back") {
				t.Errorf("interrupted without saying what was restored: %s", stderr)
			}
		case exitVerifyFailed: // finished before the signal
		default:
			t.Errorf("%v after %v: exit %d: %s", sig, after, code, stderr)
		}
		if d.Card.Digest() != state {
			t.Fatalf("%v after %v: the card's content changed", sig, after)
		}
	}
	if readAll(t, d.Dev) != sum {
		t.Error("the card reads differently through the kernel after the interrupted verifies")
	}
}

func readAll(t *testing.T, dev string) string {
	t.Helper()
	out, err := exec.Command("sha256sum", dev).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))[0]
}

// TestInfoGeometry estimates a 4 MiB erase block through `iomark info --geometry`.
func TestInfoGeometry(t *testing.T) {
	d := upCard(t, lab.CardSpec{ClaimedBytes: 2 << 30, ReadLatency: 300 * time.Microsecond, EraseBlockBytes: 4 << 20, BoundaryLatency: 400 * time.Microsecond})
	code, out, errOut := runCLI(t, "info", "--geometry", d.Dev, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Geometry struct {
			EraseBlockBytes int64  `json:"erase_block_bytes"`
			Confidence      string `json:"confidence"`
		} `json:"geometry"`
		Findings []any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if m.Geometry.EraseBlockBytes != 4<<20 || m.Geometry.Confidence == "unknown" || m.Findings == nil {
		t.Errorf("geometry %+v findings %v", m.Geometry, m.Findings)
	}
	if d.Card.Counters().Writes != 0 {
		t.Errorf("--geometry wrote %d times", d.Card.Counters().Writes)
	}
}

// TestVerifyFillKilled kills a fill with SIGKILL (no clean-up possible) part way: the next
// verify of the directory removes what the killed one left.
func TestVerifyFillKilled(t *testing.T) {
	d := upCard(t, lab.CardSpec{ClaimedBytes: 256 << 20, WriteMBps: 40})
	mnt := mountExt4(t, d.Dev)
	db := filepath.Join(t.TempDir(), "results.db")
	cmd := cliCommand("verify", mnt, "--size", "128M", "--db", db)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var left []string
	for i := 0; i < 200 && len(left) == 0; i++ {
		time.Sleep(50 * time.Millisecond)
		left, _ = filepath.Glob(filepath.Join(mnt, ".iomark-verify-*", "0000.bin"))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if len(left) == 0 {
		t.Fatal("the fill never created its first file")
	}
	code, out, errOut := runCLI(t, "verify", mnt, "--size", "16M", "--json", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Fill struct {
			Swept int `json:"swept"`
		} `json:"fill"`
	}
	json.Unmarshal([]byte(out), &m)
	if rest, _ := filepath.Glob(filepath.Join(mnt, ".iomark-verify-*")); len(rest) > 0 || m.Fill.Swept == 0 {
		t.Errorf("after the next verify: left %v, swept %d", rest, m.Fill.Swept)
	}
}
