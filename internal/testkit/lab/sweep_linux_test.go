package lab

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestOwnerPID(t *testing.T) {
	tests := []struct {
		name string
		want int
	}{
		{"iomark-labgo-4242-limits-123456.img", 4242},
		{"iomark-labgo-7-a-b-c-9.img", 7},
		{"iomark-lab-sd-AbC123.img", 0}, // scripts/lab/drive.sh's: never swept
		{"iomark-labgo-x-limits-1.img", 0},
		{"iomark-labgo-0-limits-1.img", 0},
		{"iomark-labgo-12", 0},
		{"PostgreSQL.1462560610", 0},
	}
	for _, tt := range tests {
		if got := ownerPID(tt.name); got != tt.want {
			t.Errorf("ownerPID(%q) = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestParseMountPoints(t *testing.T) {
	// Lines in the format of proc(5) /proc/PID/mountinfo.
	mountinfo := `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
210 28 7:3 / /tmp/iomark-labgo-99-down-1 rw,relatime shared:120 - ext4 /dev/loop3 rw
211 28 7:3 / /tmp/with\040space rw,relatime - ext4 /dev/loop3 rw
212 28 7:30 / /tmp/other rw,relatime - ext4 /dev/loop30 rw
`
	got := parseMountPoints(mountinfo, "/dev/loop3")
	want := []string{"/tmp/iomark-labgo-99-down-1", "/tmp/with space"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parseMountPoints = %q, want %q", got, want)
	}
}

// orphanEnv makes the test binary act as a test process that brings up a drive and dies
// without Down, as one killed by a timeout would.
const orphanEnv = "IOMARK_LAB_ORPHAN"

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(orphanCardEnv) != "":
		exitOrphaned(UpCard(CardSpec{Name: "orphan", ClaimedBytes: 64 << 20}, CardAttach{}))
	case os.Getenv(orphanEnv) != "":
		exitOrphaned(Up(Spec{Name: "orphan", SizeMB: 32, FS: "ext4", ReadIOPS: 1234}))
	}
	os.Exit(m.Run())
}

// exitOrphaned prints the drive the orphan process brought up and exits without Down (a
// card's FUSE server dies with the process).
func exitOrphaned[D any](d D, err error) {
	if err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(d)
	os.Exit(0)
}

// runOrphan runs this test binary as the orphan process env names and reads the drive it
// printed into d.
func runOrphan(t *testing.T, env string, d any) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("orphan process: %v", err)
	}
	if err := json.Unmarshal(out, d); err != nil {
		t.Fatalf("orphan process printed %q: %v", out, err)
	}
}

func TestSweepOrphans(t *testing.T) {
	if err := availableFor(Spec{Name: "orphan", FS: "ext4"}); err != nil {
		t.Skip(err)
	}
	var d Drive
	runOrphan(t, orphanEnv, &d)
	if !strings.HasPrefix(filepath.Base(d.Img), ownedTag) || d.Mnt == "" {
		t.Fatalf("orphan drive %+v: want an owned image and a mount point", d)
	}
	// Cleanup even if the sweep fails, so a failing test leaves nothing behind either.
	t.Cleanup(func() {
		orphan := &Drive{Dev: d.Dev, Img: d.Img, Mnt: d.Mnt, MajMin: d.MajMin,
			attached: true, madeImg: true, madeMnt: true, mounted: isMounted(t, d.Mnt)}
		orphan.Down()
	})
	if !isMounted(t, d.Mnt) {
		t.Fatalf("orphan %s not mounted: the test cannot check the sweep", d.Mnt)
	}

	if err := SweepOrphans(); err != nil {
		t.Fatalf("SweepOrphans: %v", err)
	}
	checkGone(t, "after the sweep", d.Mnt, d.Img, d.Img)
	if rules, err := readThrottle(d.MajMin); err != nil || rules != (throttleValues{}) {
		t.Errorf("rules for orphan %s = %v (%v), want none", d.MajMin, rules, err)
	}
}
