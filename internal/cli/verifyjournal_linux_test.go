package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

var (
	iomarkOnce sync.Once
	iomarkDir  string
	iomarkBin  string
	iomarkErr  error
)

// iomarkBinary builds the real iomark command once, for tests that kill it.
func iomarkBinary(t *testing.T) string {
	t.Helper()
	iomarkOnce.Do(func() {
		dir, err := os.MkdirTemp("", "iomark-bin-")
		if err != nil {
			iomarkErr = err
			return
		}
		iomarkDir, iomarkBin = dir, filepath.Join(dir, "iomark")
		build := exec.Command("go", "build", "-o", iomarkBin, "github.com/iomark/iomark/cmd/iomark")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			iomarkErr = err
			iomarkBin = string(out)
		}
	})
	if iomarkErr != nil {
		t.Fatalf("go build: %v\n%s", iomarkErr, iomarkBin)
	}
	return iomarkBin
}

// iomarkChild is the real binary run with its data directory in data.
func iomarkChild(t *testing.T, data string, args ...string) *exec.Cmd {
	cmd := exec.Command(iomarkBinary(t), args...)
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+data)
	return cmd
}

// runChild runs the binary to the end.
func runChild(t *testing.T, data string, args ...string) (int, string, string) {
	t.Helper()
	cmd := iomarkChild(t, data, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run()
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// killAtWrite starts the binary with the card holding its writes after n, SIGKILLs it once
// a write waits at the hold, then lets that write land or drops it (the power went first).
// It reports whether the hold was reached (false: the command finished first).
func killAtWrite(t *testing.T, d *lab.CardDrive, n int64, drop bool, data string, args ...string) (bool, string) {
	t.Helper()
	d.Card.HoldWrites(n)
	defer d.Card.ReleaseWrites(false)
	cmd := iomarkChild(t, data, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(2 * time.Minute)
	for d.Card.WritesHeld() == 0 {
		select {
		case <-exited:
			return false, errb.String()
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("write %d never came: %s", n, errb.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill()
	d.Card.ReleaseWrites(drop)
	<-exited
	return true, errb.String()
}

// pendingJournalIn returns the one journal the data directory records.
func pendingJournalIn(t *testing.T, data string) string {
	t.Helper()
	ptrs, _ := filepath.Glob(filepath.Join(data, "iomark", "verify-pending", "*.json"))
	js, _ := filepath.Glob(filepath.Join(data, "iomark", "verify-journal-*.bin"))
	if len(ptrs) != 1 || len(js) != 1 {
		t.Fatalf("want one pending journal, found pointers %v, journals %v", ptrs, js)
	}
	return js[0]
}

// TestVerifyKilledThenRestored kills `iomark verify` with SIGKILL — before its first write,
// in the middle of a write group, during its own restore — and `iomark --restore` during its
// restore too: each time the pending journal blocks another verify, is found again after the
// card comes back under another /dev name, and `--restore` gives back every byte.
func TestVerifyKilledThenRestored(t *testing.T) {
	iomarkBinary(t)
	for _, tc := range []struct {
		name string
		spec lab.CardSpec
	}{
		// Wrapping: two addresses share one place, so the restore order matters.
		{"wrap", lab.CardSpec{ClaimedBytes: 512 << 20, RealBytes: 100 << 20, Failure: lab.FailWrap}},
		// A cache in front of lost writes: the probe flushes, so the journal holds the flush
		// region too.
		{"drop-cache", lab.CardSpec{ClaimedBytes: 512 << 20, RealBytes: 100 << 20, Failure: lab.FailDropStale, CacheBytes: 1 << 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := upCard(t, tc.spec)
			data := t.TempDir()
			state, sum := d.Card.Digest(), readAll(t, d.Dev)
			// A whole run, to know how many writes it makes.
			w0 := d.Card.Counters().Writes
			if code, _, errOut := runChild(t, data, verifyArgs(d)...); code != exitVerifyFailed || !strings.Contains(errOut, "verify --restore") {
				t.Fatalf("uninterrupted verify: exit %d: %s", code, errOut)
			}
			writes := d.Card.Counters().Writes - w0
			if d.Card.Digest() != state {
				t.Fatal("an uninterrupted verify changed the card")
			}
			if ptrs, _ := filepath.Glob(filepath.Join(data, "iomark", "verify-*", "*")); len(ptrs) > 0 {
				t.Fatalf("a finished verify left %v", ptrs)
			}
			t.Logf("a verify writes %d times", writes)
			for _, kill := range []killPoint{
				{"before the first write", 0, true, false},
				{"mid-group", writes / 3, false, true},
				{"mid-group, write lost", writes / 2, true, false},
				// The restore is the last tenth of the writes at least (the journal's blocks, adjacent
				// ones in one write).
				{"during its own restore", writes - writes/10, false, false},
			} {
				killThenRestore(t, d, data, kill, writes, state, sum)
			}
			// Nothing pending now: a verify runs.
			if code, _, errOut := runChild(t, data, verifyArgs(d)...); code != exitVerifyFailed {
				t.Errorf("a verify after the restores: exit %d: %s", code, errOut)
			}
		})
	}
}

// verifyArgs are the arguments of the probe TestVerifyKilledThenRestored kills, on the card
// under its present /dev name.
func verifyArgs(d *lab.CardDrive) []string {
	return []string{"verify", d.Dev, "--confirm", d.Dev, "--no-save", "--max-flush", "16M"}
}

// killPoint is where TestVerifyKilledThenRestored kills a verify: at write at (of a verify's
// writes), that write landing or dropped; midRst kills the first --restore half-way too.
type killPoint struct {
	name   string
	at     int64
	drop   bool
	midRst bool
}

// killThenRestore kills a verify of the card at kill and checks what follows: the pending
// journal blocks another verify, also once the card is back under another /dev name, and
// --restore puts back the card as it was (state, sum), then has nothing left to do. writes is
// how many writes a whole verify makes.
func killThenRestore(t *testing.T, d *lab.CardDrive, data string, kill killPoint, writes int64, state [32]byte, sum string) {
	t.Helper()
	reached, errOut := killAtWrite(t, d, kill.at, kill.drop, data, verifyArgs(d)...)
	if !reached {
		t.Fatalf("%s: the verify finished before write %d: %s", kill.name, kill.at, errOut)
	}
	if !strings.Contains(errOut, "saving what the probe overwrites in") {
		t.Errorf("%s: the journal's place was not printed before the first write: %s", kill.name, errOut)
	}
	journal := pendingJournalIn(t, data)
	if kill.at > 0 && kill.at < writes/2 && d.Card.Digest() == state {
		t.Fatalf("%s: the killed verify left the card as it was: nothing to restore", kill.name)
	}
	// Another verify of the card refuses, naming the journal and the restore.
	code, _, errOut := runChild(t, data, verifyArgs(d)...)
	if code != exitFailure || !strings.Contains(errOut, journal) || !strings.Contains(errOut, "--restore "+journal) {
		t.Fatalf("%s: a second verify: exit %d: %s", kill.name, code, errOut)
	}
	// Unplugged and plugged in again: another /dev name, the same card.
	old := d.Dev
	if err := d.Reattach(); err != nil {
		t.Fatal(err)
	}
	if d.Dev == old {
		t.Fatalf("reattached under the same name %s", old)
	}
	code, _, errOut = runChild(t, data, verifyArgs(d)...)
	if code != exitFailure || !strings.Contains(errOut, "--restore "+journal+" "+d.Dev) {
		t.Fatalf("%s: a verify of the card as %s (was %s): exit %d: %s", kill.name, d.Dev, old, code, errOut)
	}
	restore := []string{"verify", "--restore", journal, d.Dev, "--confirm", d.Dev}
	if kill.midRst {
		if reached, errOut := killAtWrite(t, d, 3, false, data, restore...); !reached {
			t.Fatalf("%s: the restore finished before its 4th write: %s", kill.name, errOut)
		}
		if _, err := os.Stat(journal); err != nil {
			t.Fatalf("%s: a killed restore removed the journal: %v", kill.name, err)
		}
	}
	code, out, errOut := runChild(t, data, restore...)
	if code != 0 || !strings.Contains(out, "read them back as saved; the journal was removed") {
		t.Fatalf("%s: restore: exit %d: %s%s", kill.name, code, out, errOut)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("%s: the journal is still there: %v", kill.name, err)
	}
	if d.Card.Digest() != state || readAll(t, d.Dev) != sum {
		t.Fatalf("%s: after the restore the card differs from what it was", kill.name)
	}
	t.Logf("%s (write %d): restored: %s", kill.name, kill.at, strings.TrimSpace(out))
	// Run again, the restore has nothing to do and says so.
	if code, _, errOut := runChild(t, data, restore...); code != exitFailure || !strings.Contains(errOut, "nothing to put back") {
		t.Errorf("a second restore: exit %d: %s", code, errOut)
	}
}

// TestVerifyJournalPlace: a journal on the disk under test, or where there is no room for
// it, is refused before anything is written; a journal given up with --discard-journal
// unblocks the disk.
func TestVerifyJournalPlace(t *testing.T) {
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		testkit.Require(t, "mkfs.ext4 missing (apt-get install e2fsprogs)")
	}
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	d := upCard(t, lab.CardSpec{ClaimedBytes: 256 << 20})
	if b, err := exec.Command("mkfs.ext4", "-q", "-F", d.Dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs: %v %s", err, b)
	}
	mnt := t.TempDir()
	// Read-only, so that nothing but the verify could write to the card.
	if b, err := exec.Command("mount", "-o", "ro", d.Dev, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, b)
	}
	w, state := d.Card.Counters().Writes, d.Card.Digest()
	code, _, errOut := runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--journal", filepath.Join(mnt, "j.bin"), "--no-save")
	exec.Command("umount", mnt).Run()
	if code != exitFailure || !strings.Contains(errOut, "the disk under test") || !strings.Contains(errOut, "another drive") {
		t.Errorf("a journal on the disk under test: exit %d: %s", code, errOut)
	}
	if d.Card.Counters().Writes != w {
		t.Error("the refused verify wrote to the card")
	}

	small := t.TempDir()
	if b, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", small).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v %s", err, b)
	}
	defer exec.Command("umount", small).Run()
	w = d.Card.Counters().Writes
	code, _, errOut = runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--journal", filepath.Join(small, "j.bin"), "--no-save")
	if code != exitFailure || !strings.Contains(errOut, "free") || !strings.Contains(errOut, "nothing was written") {
		t.Errorf("a journal with no room: exit %d: %s", code, errOut)
	}
	if d.Card.Counters().Writes != w {
		t.Error("the refused verify wrote to the card")
	}
	if ptrs, _ := filepath.Glob(filepath.Join(data, "iomark", "verify-pending", "*")); len(ptrs) > 0 {
		t.Errorf("refused verifies left pointers %v", ptrs)
	}

	// A journal recorded for this card blocks run and verify until it is discarded.
	journal := filepath.Join(t.TempDir(), "j.bin")
	os.WriteFile(journal, []byte("IOMARK-VERIFY-JOURNAL\n"), 0o600)
	if err := addPending(pendingJournal{Journal: journal, Identity: diskIdentity(identify(d.Dev, ""), 256<<20), Device: d.Dev, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", d.Dev, "--confirm", d.Dev, "--no-save"}, {"run", d.Dev, "--no-save"}} {
		if code, _, errOut := runCLI(t, args...); code != exitFailure || !strings.Contains(errOut, "did not finish") || !strings.Contains(errOut, "--discard-journal "+journal) {
			t.Errorf("%v with a pending journal: exit %d: %s", args, code, errOut)
		}
	}
	// The same for a directory on it: a fill, or a run.
	if b, err := exec.Command("mount", d.Dev, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, b)
	}
	for _, args := range [][]string{{"verify", mnt, "--size", "16M", "--no-save"}, {"run", mnt, "--no-save"}} {
		if code, _, errOut := runCLI(t, args...); code != exitFailure || !strings.Contains(errOut, "did not finish") {
			t.Errorf("%v with a pending journal: exit %d: %s", args, code, errOut)
		}
	}
	if left, _ := os.ReadDir(mnt); len(left) > 1 { // lost+found
		t.Errorf("refused runs left %v", left)
	}
	if b, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
		t.Fatalf("umount: %v %s", err, b)
	}
	state = d.Card.Digest()
	if code, out, errOut := runCLI(t, "verify", "--discard-journal", journal, d.Dev, "--confirm", d.Dev); code != 0 || !strings.Contains(out, "will not be put back") {
		t.Errorf("discard: exit %d: %s%s", code, out, errOut)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("the discarded journal is still there: %v", err)
	}
	if code, out, errOut := runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--no-save"); code != 0 {
		t.Errorf("verify after the discard: exit %d: %s%s", code, out, errOut)
	}
	if d.Card.Digest() != state {
		t.Error("the card changed")
	}
}

// TestPendingJournalBlocks: a recorded journal refuses a verify, fill or run of a disk with
// the same identity (here a loop device's backing file and size), whatever its /dev name,
// until it is discarded.
func TestPendingJournalBlocks(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	journal := filepath.Join(data, "j.bin")
	os.WriteFile(journal, []byte("x"), 0o600)
	card := &probe.Report{Device: &probe.Device{Name: "loop7", Path: "/dev/loop7", Class: "loop", CapacityBytes: 1 << 30},
		Loop: &probe.Loop{BackingFile: "/tmp/card"}}
	if err := addPending(pendingJournal{Journal: journal, Identity: diskIdentity(card, 0), SizeBytes: 1 << 30, Device: "/dev/loop3", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := refusePending(card, 0, ""); err == nil || !strings.Contains(err.Error(), "--restore "+journal+" /dev/loop7") || !strings.Contains(err.Error(), "--discard-journal") {
		t.Errorf("pending journal: %v", err)
	}
	other := &probe.Report{Device: &probe.Device{Name: "loop7", Path: "/dev/loop7", Class: "loop", CapacityBytes: 1 << 30},
		Loop: &probe.Loop{BackingFile: "/tmp/other"}}
	if err := refusePending(other, 0, ""); err != nil {
		t.Errorf("another disk under the same name: %v", err)
	}
	os.Remove(journal)
	if err := refusePending(card, 0, ""); err == nil || !strings.Contains(err.Error(), "is not there") {
		t.Errorf("pending journal whose file is gone: %v", err)
	}
	removePending(journal)
	if err := refusePending(card, 0, ""); err != nil {
		t.Errorf("after the pointer was removed: %v", err)
	}
}
