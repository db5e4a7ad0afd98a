package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestVerifyFullDamagedCard runs `iomark verify DISK --full` on a card with an unreadable
// stretch, end to end: the time and bytes said before any I/O, one verdict (damaged) with its
// evidence and nothing that contradicts it, the region where it is, the chart written, the
// card as it was, exit 3; then info shows the finding.
func TestVerifyFullDamagedCard(t *testing.T) {
	badAt, badLen := int64(150<<20)+8<<10, int64(5<<20)
	d := upCard(t, lab.CardSpec{ClaimedBytes: 384 << 20, ReadMBps: 300, WriteMBps: 150,
		BadRegions: []lab.BadRegion{{OffsetBytes: badAt, LengthBytes: badLen, Kind: lab.BadIOError}}})
	state := d.Card.Digest()
	db := filepath.Join(t.TempDir(), "results.db")
	chart := filepath.Join(t.TempDir(), "surface.png")
	code, out, errOut := runCLI(t, "verify", d.Dev, "--full", "--confirm", d.Dev, "--db", db, "--max-flush", "16M", "--chart", chart)
	t.Logf("iomark verify %s --full: exit %d\n%s%s", d.Dev, code, errOut, out)
	if code != exitVerifyFailed {
		t.Fatalf("exit %d, want %d", code, exitVerifyFailed)
	}
	for _, want := range []string{"the probe (writing back everything it overwrites): writes at most", "takes about",
		"the surface scan (every block): writes nothing and reads 402.7 MB (402653184 bytes)", "--error-time"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], d.Dev+": DAMAGED — 5.2 MB of its 402.7 MB cannot be read") {
		t.Errorf("first line %q, want the damaged verdict with the bad bytes", lines[0])
	}
	// One verdict: no line may speak of the drive as whole or genuine.
	for _, bad := range []string{"GENUINE", "FAKE", "READABLE", "no verdict", "not scanned", "held what was written"} {
		if strings.Contains(out, bad) {
			t.Errorf("the damaged card's report says %q", bad)
		}
	}
	if !strings.Contains(out, "bad (io-error) at bytes 157294592-162537472") {
		t.Errorf("the exact region is not reported")
	}
	if d.Card.Digest() != state {
		t.Error("the card's readable content changed")
	}
	f, err := os.Open(chart)
	if err != nil {
		t.Fatalf("chart: %v", err)
	}
	if _, err := png.Decode(f); err != nil {
		t.Errorf("chart is not a PNG: %v", err)
	}
	f.Close()
	// The saved verify exports its chart.
	id := out[strings.LastIndex(out, "saved as verify ")+len("saved as verify "):]
	id = strings.TrimSpace(id)
	svg := filepath.Join(t.TempDir(), "surface.svg")
	if code, _, errOut := runCLI(t, "export", id, "--format", "svg", "--out", svg, "--db", db); code != 0 {
		t.Errorf("export %s --format svg: exit %d: %s", id, code, errOut)
	} else if b, _ := os.ReadFile(svg); !strings.Contains(string(b), "DAMAGED") || !strings.Contains(string(b), "bad: unreadable") {
		t.Errorf("the exported chart lacks the verdict or the bad region")
	}
	if code, _, errOut := runCLI(t, "export", id, "--format", "csv", "--db", db); code == 0 || !strings.Contains(errOut, "png, svg or json") {
		t.Errorf("a verify exported as csv: exit %d: %s", code, errOut)
	}
	code, out, errOut = runCLI(t, "info", d.Dev, "--db", db)
	if code != 0 || !strings.Contains(out, "flash-damaged") {
		t.Errorf("info after the verify: exit %d\n%s%s", code, out, errOut)
	}
	// The sampled verify of the same card: its time and bytes before the first write, and one
	// verdict. A sample may miss the stretch: then it says the surface was not scanned.
	code, out, errOut = runCLI(t, "verify", d.Dev, "--confirm", d.Dev, "--no-save", "--max-flush", "16M")
	t.Logf("iomark verify %s: exit %d\n%s%s", d.Dev, code, errOut, out)
	if !strings.Contains(errOut, "the probe (writing back everything it overwrites): writes at most") || !strings.Contains(errOut, "takes about") {
		t.Errorf("the sampled verify does not say its bytes and time up front")
	}
	verdicts := 0
	for _, v := range []string{": GENUINE", ": DAMAGED", ": FAKE"} {
		verdicts += strings.Count(out, v)
	}
	if verdicts != 1 {
		t.Errorf("the sampled verify's report has %d verdicts", verdicts)
	}
	if strings.Contains(out, ": GENUINE") && !strings.Contains(out, "surface: not scanned") {
		t.Errorf("a genuine sample of a damaged card does not say the surface was not scanned")
	}
	if strings.Contains(out, ": DAMAGED") && (strings.Contains(out, "held what was written") || code != exitVerifyFailed) {
		t.Errorf("a damaged verdict contradicted (exit %d)", code)
	}
}

// TestVerifyFullReadOnlySlowZone: --full --read-only needs no --confirm, writes nothing, and
// reports a slow zone as a finding on a card whose capacity it says it did not check.
func TestVerifyFullReadOnlySlowZone(t *testing.T) {
	d := upCard(t, lab.CardSpec{ClaimedBytes: 256 << 20, ReadMBps: 200,
		SlowZones: []lab.SlowZone{{OffsetBytes: 96 << 20, LengthBytes: 32 << 20, ReadMBps: 20}}})
	code, out, errOut := runCLI(t, "verify", d.Dev, "--full", "--read-only", "--json", "--no-save")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if w := d.Card.Counters().Writes; w != 0 {
		t.Errorf("--read-only wrote %d times", w)
	}
	var m struct {
		Verdict   string `json:"verdict"`
		Mode      string `json:"mode"`
		SlowZones []struct {
			StartByte int64 `json:"start_byte"`
			EndByte   int64 `json:"end_byte"`
		} `json:"slow_zones"`
		Surface struct {
			Series []map[string]float64 `json:"series"`
		} `json:"surface"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if m.Verdict != "readable" || m.Mode != "full" || len(m.SlowZones) != 1 || len(m.Surface.Series) == 0 {
		t.Fatalf("verdict %s mode %s slow zones %+v series %d points", m.Verdict, m.Mode, m.SlowZones, len(m.Surface.Series))
	}
	if _, ok := m.Surface.Series[0]["write_mb_per_s"]; ok {
		t.Error("a read-only scan's series carries a write rate")
	}
	db := filepath.Join(t.TempDir(), "results.db")
	code, out, _ = runCLI(t, "verify", d.Dev, "--full", "--read-only", "--db", db)
	if code != 0 || !strings.Contains(out, "READABLE") || !strings.Contains(out, "capacity not checked") || !strings.Contains(out, "slow (a finding, not damage)") {
		t.Errorf("human output: exit %d\n%s", code, out)
	}
	// Kept, the slow zone is a finding wherever the drive is shown; not damage.
	code, out, errOut = runCLI(t, "info", d.Dev, "--db", db)
	if code != 0 || !strings.Contains(out, "flash-slow-zone") || strings.Contains(out, "flash-damaged") {
		t.Errorf("info after the verify: exit %d\n%s%s", code, out, errOut)
	}
}

// TestVerifyFullInterrupted: Ctrl-C during the scan of a --full --rewrite stops it cleanly:
// the map so far, exit 130, the card as it was and no journal left.
func TestVerifyFullInterrupted(t *testing.T) {
	d := upCard(t, lab.CardSpec{ClaimedBytes: 512 << 20, ReadMBps: 60, WriteMBps: 60})
	state := d.Card.Digest()
	journal := filepath.Join(t.TempDir(), "j.bin")
	cmd := cliCommand("verify", d.Dev, "--full", "--rewrite", "--confirm", d.Dev, "--no-save", "--max-flush", "16M", "--journal", journal, "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the scan has rewritten a good part of the card, then Ctrl-C.
	deadline := time.Now().Add(2 * time.Minute)
	for d.Card.Counters().BytesWritten < 100<<20 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	t.Logf("exit %d (%v)\n%s", code, err, stderr.String())
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d", code, exitInterrupted)
	}
	var m struct {
		Interrupted bool `json:"interrupted"`
		Surface     struct {
			Stopped     string `json:"stopped"`
			OKBytes     int64  `json:"ok_bytes"`
			UnreadBytes int64  `json:"unread_bytes"`
		} `json:"surface"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		t.Fatalf("stdout: %v\n%s", err, stdout.String())
	}
	if !m.Interrupted || m.Surface.Stopped != "interrupted" || m.Surface.OKBytes == 0 || m.Surface.UnreadBytes == 0 {
		t.Errorf("result %+v, want the map so far", m)
	}
	if d.Card.Digest() != state {
		t.Error("the card's content changed")
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("the journal is left behind (%v)", err)
	}
}

// TestVerifyDirOnFailingCard: a fill of a filesystem on a card with an unreadable stretch,
// end to end: one verdict and its evidence, the counts adding up to what was tested.
func TestVerifyDirOnFailingCard(t *testing.T) {
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		t.Skip("mkfs.ext4 missing (apt-get install e2fsprogs)")
	}
	d := upCard(t, lab.CardSpec{ClaimedBytes: 384 << 20, ReadMBps: 300, WriteMBps: 150})
	if b, err := exec.Command("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=1,lazy_journal_init=1", d.Dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs: %v %s", err, b)
	}
	mnt := t.TempDir()
	if b, err := exec.Command("mount", d.Dev, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, b)
	}
	defer exec.Command("umount", mnt).Run()
	// The stretch goes bad under the filesystem, inside block group 1's data (past its
	// bitmaps and inode table at 128 MiB).
	if err := d.Card.AddBadRegion(lab.BadRegion{OffsetBytes: 200 << 20, LengthBytes: 6 << 20, Kind: lab.BadIOError}); err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(t.TempDir(), "fill.svg")
	code, out, errOut := runCLI(t, "verify", mnt, "--no-save", "--chart", chart)
	t.Logf("iomark verify %s: exit %d\n%s%s", mnt, code, errOut, out)
	verdicts := 0
	for _, v := range []string{": GENUINE", ": DAMAGED", ": FAKE", "no verdict"} {
		verdicts += strings.Count(out, v)
	}
	if verdicts != 1 {
		t.Errorf("the report has %d verdicts", verdicts)
	}
	if !strings.Contains(out, ": DAMAGED") || code != exitVerifyFailed {
		t.Errorf("a fill over an unreadable stretch is not damaged (exit %d)", code)
	}
	if strings.Contains(out, "held what was written") || strings.Contains(out, " 0 B corrupted, 0 B overwritten, 0 B changed\n") && !strings.Contains(out, "could not be written or read") {
		t.Errorf("the damaged report reads as if everything came back intact")
	}
	if b, err := os.ReadFile(chart); err != nil || !strings.Contains(string(b), "fill of") || !strings.Contains(string(b), "write rate") {
		t.Errorf("the fill's chart: %v", err)
	}
}

// TestVerifyFullRewriteKilledThenRestored: SIGKILL in the middle of --full --rewrite's scan
// (a request's pattern landed, its original not yet back) leaves one request in the journal;
// the disk is refused until --restore, which gives back every byte.
func TestVerifyFullRewriteKilledThenRestored(t *testing.T) {
	iomarkBinary(t)
	d := upCard(t, lab.CardSpec{ClaimedBytes: 128 << 20})
	data := t.TempDir()
	state := d.Card.Digest()
	probeOnly := []string{"verify", d.Dev, "--confirm", d.Dev, "--no-save", "--max-flush", "16M"}
	full := append(append([]string(nil), probeOnly...), "--full", "--rewrite")
	w0 := d.Card.Counters().Writes
	if code, _, errOut := runChild(t, data, probeOnly...); code != 0 {
		t.Fatalf("probe: exit %d: %s", code, errOut)
	}
	w1 := d.Card.Counters().Writes
	if code, _, errOut := runChild(t, data, full...); code != 0 {
		t.Fatalf("full rewrite: exit %d: %s", code, errOut)
	}
	w2 := d.Card.Counters().Writes
	if d.Card.Digest() != state {
		t.Fatal("an uninterrupted --full --rewrite changed the card")
	}
	// Past the probe's writes and a third into the scan's: an odd count lands between a
	// request's pattern and its write-back often enough; the journal holds the request either way.
	n := (w1 - w0) + (w2-w1-(w1-w0))/3
	held, errOut := killAtWrite(t, d, n, false, data, full...)
	if !held {
		t.Fatalf("the run ended before write %d: %s", n, errOut)
	}
	journal := pendingJournalIn(t, data)
	if code, _, errOut := runChild(t, data, full...); code == 0 || !strings.Contains(errOut, "verify --restore "+journal) {
		t.Errorf("a second verify was not refused: exit %d: %s", code, errOut)
	}
	code, out, errOut := runChild(t, data, "verify", "--restore", journal, d.Dev, "--confirm", d.Dev)
	if code != 0 {
		t.Fatalf("--restore: exit %d: %s%s", code, out, errOut)
	}
	if d.Card.Digest() != state {
		t.Error("after --restore the card differs from before")
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Error("the journal is still there after --restore")
	}
	t.Logf("killed at write %d of %d; --restore: %s", n, w2-w1, strings.TrimSpace(out))
}
