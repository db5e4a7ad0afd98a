package qemu

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// guestSum is guest shell: sum DEV prints the SHA-256 of a device's content, read past the
// page cache (dropped first: the probe writes with O_DIRECT through a device-mapper device,
// which leaves the cache of the disk below stale).
const guestSum = `sum() { sync; echo 3 > /proc/sys/vm/drop_caches; sha256sum < "$1" | cut -d' ' -f1; }
export XDG_DATA_HOME=/tmp/xdg
`

// verifyOut is the part of `iomark verify --json` these tests read (docs/verify.md).
type verifyOut struct {
	Verdict      string `json:"verdict"`
	Mode         string `json:"mode"`
	ClaimedBytes int64  `json:"claimed_bytes"`
	UsableBytes  int64  `json:"usable_bytes"`
	Failure      string `json:"failure"`
	WrapBytes    int64  `json:"wrap_bytes"`
	BadRegions   []struct {
		StartByte int64  `json:"start_byte"`
		EndByte   int64  `json:"end_byte"`
		Kind      string `json:"kind"`
		Exact     bool   `json:"exact"`
	} `json:"bad_regions"`
	FirstBadByte *int64  `json:"first_bad_byte"`
	BytesWritten int64   `json:"bytes_written"`
	DurationS    float64 `json:"duration_s"`
	Restore      *struct {
		Blocks   int  `json:"blocks"`
		Failed   int  `json:"failed"`
		Verified bool `json:"verified"`
	} `json:"restore"`
}

// TestVerifyDeviceMapper runs `iomark verify` on a real kernel against device-mapper fakes
// a wrap-around fake card (dm-linear segments), a disk with a dm-error stretch
// inside it, and a disk that dies under the probe (its table swapped to dm-error once the
// probe has written). Each is caught, the non-destructive probe leaves the first two
// byte-identical, and the dying one is made byte-identical again by `--restore` from the
// journal the probe kept. One boot of q35-faults: 1m25-2m20 under TCG on this
// machine at load 6-15 (a bare boot there takes about a minute).
func TestVerifyDeviceMapper(t *testing.T) {
	t.Parallel()
	const (
		mib         = int64(1) << 20
		badStartMiB = 32
		badMiB      = 4
	)
	r := BootT(t, "q35-faults",
		// The wrap-around fake: 64 MiB claimed over the 16 MiB drive "small", which holds
		// random data so that a block not put back shows in its checksum.
		Sh("wrap-before", guestSum+`S=$(lab_disk small) || exit 1
dd if=/dev/urandom of="$S" bs=1M count=16 2>/dev/null || exit 1
`+WrapAroundFake("fake", "small", 64)+`
sum "$S"`),
		Sh("wrap", guestSum+`F=$(lab_dm_node fake) && iomark verify "$F" --confirm "$F" --json`),
		Sh("wrap-after", guestSum+`sum "$(lab_disk small)"`),
		Sh("wrap-info", guestSum+`iomark info "$(lab_dm_node fake)" --json`),
		// A disk with a stretch that answers EIO (dm-error) inside it: damaged, not fake.
		Sh("bad-before", guestSum+fmt.Sprintf(`B=$(lab_disk flaky) || exit 1
dd if=/dev/urandom of="$B" bs=1M count=95 2>/dev/null || exit 1
N=$(lab_sectors "$B")
labctl dm create bad "0 %[1]d linear $B 0;%[1]d %[2]d error;%[3]d $((N - %[3]d)) linear $B %[3]d" >/dev/null || exit 1
sum "$B"`, badStartMiB*2048, badMiB*2048, (badStartMiB+badMiB)*2048)),
		// Good blocks above bad ones could be a cache hiding lost writes: the probe flushes
		// up to --max-flush before it believes them (128 MiB by default: 275 MB written
		// here with the restore). 32M keeps the guest's time down and uses the flag.
		Sh("bad", guestSum+`D=$(lab_dm_node bad) && iomark verify "$D" --confirm "$D" --max-flush 32M --json`),
		Sh("bad-after", guestSum+`sum "$(lab_disk flaky)"`),
		// A disk that dies under the probe: once the probe's first write has completed
		// (field 7 of the device's stat: sectors written), every I/O fails. The probe must
		// stop with an error naming its journal; with the disk back, --restore from it.
		Sh("dying-before", guestSum+`B=$(lab_disk base) || exit 1
dd if=/dev/urandom of="$B" bs=1M count=96 2>/dev/null || exit 1
lab_dm_linear dying "$B" >/dev/null || exit 1
sum "$B"`),
		Sh("dying", guestSum+`D=$(lab_dm_node dying) || exit 1
iomark verify "$D" --confirm "$D" --json >/tmp/dying.json 2>/tmp/dying.err &
V=$!
i=0
while [ "$(awk '{print $7}' "/sys/block/${D#/dev/}/stat")" = 0 ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
lab_dm_error dying || exit 1
wait $V
echo "verify-exit $?"
echo "recovery: $(ls /tmp/xdg/iomark/ | grep verify-journal | tr '\n' ' ')"
cat /tmp/dying.err >&2`),
		Sh("dying-restore", guestSum+`B=$(lab_disk base); D=$(lab_dm_node dying) || exit 1
labctl dm reload dying "0 $(lab_sectors "$B") linear $B 0" || exit 1
for F in /tmp/xdg/iomark/verify-journal-*.bin; do
  iomark verify --restore "$F" "$D" --confirm "$D" >&2 || exit 1
done
sum "$B"`),
	)
	get := func(id string) *Output {
		t.Helper()
		o, err := r.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(o.Stderr, "panic") || strings.Contains(o.Stderr, "goroutine ") {
			t.Errorf("%s: iomark panicked: %s", id, o.Stderr)
		}
		if id != "dying" && strings.Contains(o.Stderr, "interrupted") {
			t.Errorf("%s: nothing interrupted the verify, yet it says so: %s", id, o.Stderr)
		}
		return o
	}
	same := func(what, before, after string) {
		t.Helper()
		b, a := get(before), get(after)
		sb, sa := strings.TrimSpace(b.Stdout), strings.TrimSpace(a.Stdout)
		if b.ExitCode != 0 || a.ExitCode != 0 || len(sb) != 64 {
			t.Fatalf("%s: checksum steps failed: %+v %+v", what, b, a)
		}
		if sb != sa {
			t.Errorf("%s: the disk's content changed (sha256 %s before, %s after)", what, sb, sa)
		}
	}

	// Wrap: fake, usable 16 MiB exactly (the probe's granularity divides it), addresses
	// repeating every 16 MiB, content put back.
	decode := func(id string) (*Output, verifyOut) {
		t.Helper()
		o := get(id)
		var v verifyOut
		if err := json.Unmarshal([]byte(o.Stdout), &v); err != nil {
			t.Fatalf("%s: iomark verify --json printed no JSON (exit %d): %v in %q, stderr %q", id, o.ExitCode, err, o.Stdout, o.Stderr)
		}
		return o, v
	}
	w, wrap := decode("wrap")
	t.Logf("wrap: verdict %s %s usable %d of %d, wrote %d B in %.1f s; %s", wrap.Verdict, wrap.Failure, wrap.UsableBytes, wrap.ClaimedBytes, wrap.BytesWritten, wrap.DurationS, w.Stderr)
	if w.ExitCode != 3 || wrap.Verdict != "fake" || wrap.Failure != "wrap" || wrap.ClaimedBytes != 64*mib ||
		wrap.UsableBytes != 16*mib || wrap.WrapBytes != 16*mib {
		t.Errorf("wrap-around fake: exit %d, %+v; want exit 3, fake by wrap at 16 MiB of 64", w.ExitCode, wrap)
	}
	if wrap.Restore == nil || wrap.Restore.Failed != 0 || !wrap.Restore.Verified {
		t.Errorf("wrap-around fake: restore %+v", wrap.Restore)
	}
	same("wrap-around fake", "wrap-before", "wrap-after")
	// The verify was saved; info on the same device shows it.
	var fi info
	if err := r.JSON("wrap-info", &fi); err != nil {
		t.Fatal(err)
	}
	if !fi.hasFinding("fake-capacity") {
		t.Errorf("info after a fake verdict has no fake-capacity finding: %+v", fi.Findings)
	}

	// A dm-error stretch inside the disk: damaged, the region's start exact, its end inside
	// the survey's spacing, content put back.
	b, bad := decode("bad")
	t.Logf("bad: verdict %s regions %+v, wrote %d B in %.1f s; %s", bad.Verdict, bad.BadRegions, bad.BytesWritten, bad.DurationS, b.Stderr)
	if b.ExitCode != 3 || bad.Verdict != "damaged" || len(bad.BadRegions) != 1 {
		t.Errorf("disk with a dm-error stretch: exit %d, %+v; want exit 3, damaged with one region", b.ExitCode, bad)
	} else {
		g := bad.BadRegions[0]
		end := (badStartMiB + badMiB) * mib
		// The first region's start is searched to the block; its end is the next good
		// sample's offset, so Exact (every byte inside is bad) stays false.
		if g.StartByte != badStartMiB*mib || g.Kind != "io-error" || g.EndByte < end || g.EndByte > end+8*mib ||
			bad.FirstBadByte == nil || *bad.FirstBadByte != badStartMiB*mib {
			t.Errorf("bad region %+v, first bad byte %v; want io-error from byte %d to about %d", g, bad.FirstBadByte, badStartMiB*mib, end)
		}
	}
	if bad.Restore == nil || bad.Restore.Failed != 0 || !bad.Restore.Verified {
		t.Errorf("disk with a dm-error stretch: restore %+v", bad.Restore)
	}
	same("disk with a dm-error stretch", "bad-before", "bad-after")

	// Dying: an error (exit 1, not a verdict), what was not put back named with the file,
	// and --restore from it gives the disk back as it was.
	d := get("dying")
	t.Logf("dying: %s%s", d.Stdout, d.Stderr)
	if d.ExitCode != 0 || !strings.Contains(d.Stdout, "verify-exit 1\n") {
		t.Errorf("a disk dying under the probe must end it with an error (exit 1): %s", d.Stdout)
	}
	if !strings.Contains(d.Stderr, "could not be written back") || !strings.Contains(d.Stderr, "iomark verify --restore") ||
		!strings.Contains(d.Stdout, "verify-journal-") {
		t.Errorf("the error must say what was not put back and how to restore it: %q", d.Stderr)
	}
	if rs := get("dying-restore"); rs.ExitCode != 0 {
		t.Errorf("verify --restore after the disk came back: exit %d, %s", rs.ExitCode, rs.Stderr)
	}
	same("disk that died under the probe, restored from its journal", "dying-before", "dying-restore")
}
