package qemu

import (
	"fmt"
	"strings"
)

// Step is one command run in the guest; its output comes back as Output under its ID.
type Step struct {
	ID   string
	line string // the line of /lab/steps.sh
}

// Cmd runs argv in the guest (no shell).
func Cmd(id string, argv ...string) Step {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return Step{ID: id, line: "step " + shellQuote(id) + " " + strings.Join(q, " ")}
}

// Iomark runs the guest's iomark with args.
func Iomark(id string, args ...string) Step { return Cmd(id, append([]string{"iomark"}, args...)...) }

// Sh runs a shell script in the guest. It can use the lab's functions (functions.sh):
// lab_disk ID, lab_sectors DEV, lab_dm_linear/error/flakey/wrap/remove, lab_delete_disk.
func Sh(id, script string) Step {
	return Step{ID: id, line: "step_sh " + shellQuote(id) + " " + shellQuote(script)}
}

// Raw is a line of guest shell that makes steps of its own (e.g. one per device in a loop,
// each printed with `step ID …`).
func Raw(line string) Step { return Step{line: line} }

// Inventory is what every identification test needs: the kernel release, `iomark list
// --json`, and `iomark info --json` of every whole disk as step "info:NAME".
func Inventory() []Step {
	return []Step{
		Cmd("uname", "uname", "-r"),
		Iomark("list", "list", "--json"),
		Raw(`for d in $(ls /sys/block); do case $d in loop*|ram*) continue;; esac; step "info:$d" iomark info "/dev/$d" --json; done`),
	}
}

// CaptureStep dumps the sysfs/procfs slice iomark reads as a gzip'd tar in base64 (Result.Tar
// decodes it; Capture writes it out as a fixture tree).
func CaptureStep() Step {
	return Sh("capture", "rm -rf /tmp/cap && labctl capture /tmp/cap >&2 && tar -C /tmp/cap -cz . | base64")
}

// WrapAroundFake is guest shell that makes NAME a fake-capacity card over drive driveID
// claiming fakeMiB (every sector past the drive's real size lands again at its start) and
// sets $FAKE to its node: the device `iomark verify` must catch.
func WrapAroundFake(name, driveID string, fakeMiB int) string {
	return fmt.Sprintf(`FAKE=$(lab_dm_wrap %s "$(lab_disk %s)" %d) || exit 1`, shellQuote(name), shellQuote(driveID), fakeMiB*2048)
}

// FailingUnderJob is guest shell for "a drive fails under a running job": makeDev is shell
// that sets $DEV from the drive $BASE (driveID) — `DEV=$BASE`, `DEV=$(lab_dm_linear NAME
// "$BASE")`, `DEV=$(lab_dm_flakey NAME "$BASE" UP DOWN)` —, an ext2 filesystem on it is
// mounted at /mnt/NAME, jobArgs run as `iomark job --target /mnt/NAME …` in the background,
// after failAfterS seconds breakIt runs (`lab_dm_error NAME`, `lab_delete_disk "$BASE"`, or
// `:` when the device fails by itself), then the script waits for iomark and prints
// "job-exit N" and the files left in /mnt/NAME after "left:".
func FailingUnderJob(name, driveID, makeDev string, failAfterS int, breakIt string, jobArgs ...string) string {
	q := make([]string, len(jobArgs))
	for i, a := range jobArgs {
		q[i] = shellQuote(a)
	}
	dev := strings.ReplaceAll(makeDev, "%", "%%") + ` || exit 1`
	// Progress goes straight to the console (a step's own output is printed when it ends), so a
	// guest that hangs shows where in the console tail of its error.
	return fmt.Sprintf(`set -u
p() { echo "@@progress %[1]s: $*" > /dev/console; }
BASE=$(lab_disk %[2]s) || exit 1
`+dev+`
p "device $DEV"
mke2fs -q "$DEV" >/dev/null || exit 1
mkdir -p /mnt/%[1]s && mount -t ext2 "$DEV" /mnt/%[1]s || exit 1
p mounted
iomark job --target /mnt/%[1]s %[5]s &
JOB=$!
sleep %[3]d
p breaking
%[4]s
p "broken ($?)"
wait $JOB
echo "job-exit $?"
p "job ended"
echo "left: $(ls -A /mnt/%[1]s | grep -v lost+found | tr '\n' ' ')"`, name, shellQuote(driveID), failAfterS, breakIt, strings.Join(q, " "))
}

// shellQuote quotes s for sh: 'it'\”s'.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
