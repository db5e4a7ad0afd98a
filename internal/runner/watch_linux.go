package runner

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/engine"
)

// unmountedError stops a run whose target's filesystem went away under it. A lazy unmount
// (umount -l) detaches the filesystem while the run's open test file keeps it alive, so the
// I/O goes on without error: without this watch the run would end "fine" and the user's
// unmount would only complete when iomark exits.
type unmountedError struct{ msg string }

func (e *unmountedError) Error() string { return e.msg }

// watchInterval is how often the mount is checked: as often as sensors are sampled.
const watchInterval = time.Second

// mountWatch remembers the mount a directory or file target was on when the run began.
type mountWatch struct {
	path     string
	fd       int // O_PATH: keeps nothing busy beyond what the run holds anyway
	dev, ino uint64
	mntID    uint64 // 0 when the kernel cannot say (statx STATX_MNT_ID, Linux 5.8+)
}

// newMountWatch takes note of path's mount, or returns nil where there is nothing to watch.
func newMountWatch(path string) *mountWatch {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	var stx unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_MNT_ID, &stx); err != nil {
		unix.Close(fd)
		return nil
	}
	w := &mountWatch{path: path, fd: fd, dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor), ino: stx.Ino}
	if stx.Mask&unix.STATX_MNT_ID != 0 {
		w.mntID = stx.Mnt_id
	}
	return w
}

// gone says what happened to the mount, or "" while it is in place: the mount no longer in
// this process's mount table (detached: umount -l), or the path now naming something else
// (something mounted over it, or the directory replaced).
func (w *mountWatch) gone() string {
	if w.mntID != 0 {
		if present, ok := mountIDPresent(w.mntID); ok && !present {
			return fmt.Sprintf("the filesystem of %s was unmounted during the run (a lazy unmount, umount -l, detaches it while iomark's open test file keeps it alive): the run stopped; the figures before it are kept", w.path)
		}
	}
	var st unix.Stat_t
	if err := unix.Stat(w.path, &st); err != nil || st.Dev != w.dev || st.Ino != w.ino {
		return fmt.Sprintf("%s no longer names the directory or file the run began on (unmounted, or another filesystem mounted over it): the run stopped; the figures before it are kept", w.path)
	}
	return ""
}

func (w *mountWatch) close() { unix.Close(w.fd) }

// mountIDPresent reports whether /proc/self/mountinfo lists mount id; ok is false when the
// table cannot be read.
func mountIDPresent(id uint64) (present, ok bool) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false, false
	}
	defer f.Close()
	want := strconv.FormatUint(id, 10)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if first, _, _ := strings.Cut(sc.Text(), " "); first == want {
			return true, true
		}
	}
	return false, sc.Err() == nil
}

// watchTarget checks once a second that a directory or file target is still where the run
// began, and cancels the run with an unmountedError when it is not. stop ends the watch (it
// is idempotent).
func (r *runner) watchTarget(cancel context.CancelCauseFunc) (stop func()) {
	if r.decision.Kind == engine.KindBlock {
		return func() {}
	}
	w := newMountWatch(r.decision.Target)
	if w == nil {
		return func() {}
	}
	// The watch's descriptor is closed once the target is gone or the watch stops.
	var closed sync.Once
	stopTicks := every(watchInterval, func() bool {
		if why := w.gone(); why != "" {
			cancel(&unmountedError{msg: why})
			closed.Do(w.close)
			return false
		}
		return true
	})
	return func() { stopTicks(); closed.Do(w.close) }
}
