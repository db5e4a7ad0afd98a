package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestRunQuickEndToEnd runs `iomark run` as a user would, on ext4 on an emulated Pi 4
// microSD card, and checks the result record, the saved run and the clean-up.
func TestRunQuickEndToEnd(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "cli-run", SizeMB: 1024, ReadIOPS: 2600, WriteIOPS: 700, ReadMBps: 40, WriteMBps: 20, FS: "ext4"})
	db := filepath.Join(t.TempDir(), "results.db")
	before, _ := os.ReadDir(d.Mnt)
	site := startServer(t).URL
	seedFakeVerify(t, d.Mnt, db)

	code, out, errOut := runCLI(t, "run", d.Mnt, "--json", "--db", db, "--submit", site)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON record: %v\n%s", err, out)
	}
	for _, k := range []string{"id", "created_at", "tool_version", "profile", "duration_s", "bytes_written", "device", "link", "mount", "tests", "scores", "findings"} {
		if _, ok := m[k]; !ok {
			t.Errorf("record lacks %q", k)
		}
	}
	rec, err := record.Decode([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"seq-read-1m", "seq-write-1m", "rand-read-4k-qd1", "rand-write-4k-qd1", "rand-read-4k-qd32", "rand-write-4k-qd32"}
	for _, name := range want {
		tst := rec.TestByName(name)
		if tst == nil {
			t.Errorf("no test %s", name)
			continue
		}
		for _, k := range []string{"name", "op", "bs", "qd", "jobs", "iops", "mb_per_s", "lat_us", "ci95_pct", "runs"} {
			if !strings.Contains(out, `"`+k+`"`) {
				t.Errorf("test keys lack %q", k)
			}
		}
		if tst.Runs < 1 || tst.IOPS <= 0 {
			t.Errorf("%s: %d runs, %.0f IOPS", name, tst.Runs, tst.IOPS)
		}
	}
	// The drive's latest verify found it fake, and the run says so.
	if !hasFindingID(rec, "fake-capacity") {
		t.Errorf("a run of a drive a verify found fake has no fake-capacity finding: %+v", rec.Findings)
	}
	if rec.DurationS > 45 || rec.BytesWritten > 512<<20 || rec.BytesWritten == 0 {
		t.Errorf("quick took %.1f s and wrote %d bytes; its budget is 45 s and 512 MiB", rec.DurationS, rec.BytesWritten)
	}
	if !strings.Contains(errOut, "[6/6]") {
		t.Errorf("no progress lines on stderr:\n%s", errOut)
	}
	after, _ := os.ReadDir(d.Mnt)
	if len(after) != len(before) {
		t.Errorf("the run left files in %s: %d entries before, %d after", d.Mnt, len(before), len(after))
	}
	code, out, _ = runCLI(t, "history", "--db", db)
	if code != 0 || !strings.Contains(out, runstore.ShortID(rec.ID)) {
		t.Errorf("the run was not saved: history says\n%s", out)
	}
	// What happened is said: the run id and where it was saved (stderr, as stdout is JSON),
	// and the summary gives the score with what it means.
	if !strings.Contains(errOut, "iomark: run "+rec.ID+" saved in "+db+" (`iomark show "+runstore.ShortID(rec.ID)+"`") {
		t.Errorf("the run id and database are not printed:\n%s", errOut)
	}
	if strings.Contains(errOut, "(1 runs)") {
		t.Errorf("a progress line gives a test measured once an interval:\n%s", errOut)
	}
	code, out, _ = runCLI(t, "show", "--db", db)
	if code != 0 || !strings.Contains(out, "iomark score: ") || !strings.Contains(out, "100 is a good microSD card in a Raspberry Pi 4") ||
		!strings.Contains(out, "run "+rec.ID) {
		t.Errorf("the summary does not say what the score means or which run it is:\n%s", out)
	}

	// Submitted: the server has it and it shows in search; a loop device is no drive anyone
	// can buy, so it has no drive page and ranks nowhere; neither the paths nor a hostname went
	// with it.
	if !strings.Contains(errOut, "submitted as "+rec.ID) {
		t.Errorf("no permalink printed after --submit:\n%s", errOut)
	}
	if !strings.Contains(errOut, "deletion token kept") {
		t.Errorf("the deletion token was not kept after --submit:\n%s", errOut)
	}
	key := rec.DeviceKey()
	search := httpGet(t, site+"/api/v1/search?class=loop")
	if !strings.Contains(search, rec.ID) {
		t.Errorf("the submitted run is not found by search:\n%.600s", search)
	}
	if resp, err := http.Get(site + "/drive?key=" + url.QueryEscape(key)); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("a loop device's drive page (%s): %v %v, want 404", key, err, resp)
	} else {
		resp.Body.Close()
	}
	raw := httpGet(t, site+"/api/v1/results/"+rec.ID+"/raw")
	if strings.Contains(raw, d.Mnt) {
		t.Errorf("the uploaded record carries the target path %s", d.Mnt)
	}
}

func httpGet(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s\n%.300s", u, resp.Status, b)
	}
	return string(b)
}

// A directory without room for the test file is refused before anything is
// written, saying what the user of `run` can do — never "give a smaller --size", a flag run
// does not have — while `job`, which has --size, still suggests it.
func TestNoRoomNamesOnlyFlagsTheCommandHas(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "cli-full", SizeMB: 160, FS: "ext4"})
	filler := filepath.Join(d.Mnt, "filler")
	if err := os.WriteFile(filler, make([]byte, 100<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "run", d.Mnt, "--no-save")
	if code != exitFailure || !strings.Contains(errOut, "free") || strings.Contains(errOut, "--size") || strings.Contains(errOut, "laying out") {
		t.Errorf("run: exit %d, stderr %q: want a refusal about free space, before any layout, naming no --size", code, errOut)
	}
	code, _, errOut = runCLI(t, "job", "--target", d.Mnt, "--size", "512m", "--rw", "randread")
	if code != exitFailure || !strings.Contains(errOut, "--size") {
		t.Errorf("job: exit %d, stderr %q: want the free-space refusal to suggest a smaller --size", code, errOut)
	}
	if ents, _ := os.ReadDir(d.Mnt); len(ents) != 2 { // filler and lost+found
		t.Errorf("left in %s: %v", d.Mnt, ents)
	}
}
