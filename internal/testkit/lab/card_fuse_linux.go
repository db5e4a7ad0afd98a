package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

// cardFSType is the FUSE subtype of card mounts (they appear as fuse.iomarkcard in
// /proc/self/mountinfo), which the orphan sweep looks for.
const cardFSType = "iomarkcard"

// cardFile is the name of the one file in a card's FUSE mount.
const cardFile = "card"

// CardAttach says how a card's loop device is attached.
type CardAttach struct {
	ReadOnly bool // losetup --read-only: the kernel refuses writes
	PartScan bool // losetup --partscan: partitions on the card appear as /dev/loopNpM
}

// CardDrive is an emulated flash card served over FUSE (one file, opened with
// FOPEN_DIRECT_IO so nothing is cached between the kernel and the card) and attached to a
// loop device with direct I/O: a block device whose every read and write the Card decides.
// The FUSE server runs in this process; Down detaches the loop device and unmounts.
type CardDrive struct {
	Dev  string // block device, e.g. /dev/loop4
	Mnt  string // FUSE mount point
	File string // the card file inside Mnt
	Card *Card

	server                     *fuse.Server
	attached, mounted, madeMnt bool
}

// CardAvailable reports whether cards can be brought up here: root, /dev/fuse, the loop
// driver and losetup.
func CardAvailable() error {
	var m missing
	m.root()
	_, err := os.Stat("/dev/fuse")
	m.need(err == nil, "/dev/fuse (modprobe fuse; in a container, pass the device)")
	m.loop()
	return m.err("cards")
}

// UpCard serves a card described by s and attaches it to a loop device. On error it undoes
// whatever it did. Call Down when finished.
func UpCard(s CardSpec, a CardAttach) (*CardDrive, error) {
	card, err := NewCard(s)
	if err != nil {
		return nil, err
	}
	if err := CardAvailable(); err != nil {
		return nil, err
	}
	SweepOrphans() // a card whose process died still holds a loop device and a mount
	d := &CardDrive{Card: card}
	if err := d.up(a); err != nil {
		return nil, errors.Join(err, d.Down())
	}
	return d, nil
}

func (d *CardDrive) up(a CardAttach) error {
	mnt, err := os.MkdirTemp("", ownedPrefix()+"card-"+d.Card.spec.Name+"-")
	if err != nil {
		return fmt.Errorf("lab: make card mount point: %w", err)
	}
	d.Mnt, d.madeMnt = mnt, true
	d.File = filepath.Join(mnt, cardFile)

	root := &cardRoot{card: d.Card}
	server, err := fs.Mount(mnt, root, &fs.Options{
		MountOptions: fuse.MountOptions{
			DirectMountStrict: true, // root calls mount(2) itself: no fusermount needed
			FsName:            "iomark-lab-" + d.Card.spec.Name,
			Name:              cardFSType,
			MaxWrite:          fuse.MAX_KERNEL_WRITE,
			DisableXAttrs:     true,
		},
	})
	if err != nil {
		return fmt.Errorf("lab: mount card %s over FUSE on %s: %w", d.Card.spec.Name, mnt, err)
	}
	d.server, d.mounted = server, true // fs.Mount returns once the kernel answered

	args := []string{"--find", "--show", "--direct-io=on"}
	if a.ReadOnly {
		args = append(args, "--read-only")
	}
	if a.PartScan {
		args = append(args, "--partscan")
	}
	out, err := run("losetup", append(args, d.File)...)
	if err != nil {
		return fmt.Errorf("lab: attach card %s to a loop device: %w", d.File, err)
	}
	d.Dev, d.attached = strings.TrimSpace(out), true
	dio, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(d.Dev), "loop", "dio"))
	if err != nil || strings.TrimSpace(string(dio)) != "1" {
		return fmt.Errorf("lab: %s is not using direct I/O on %s (loop/dio=%q, %v): the kernel's page cache would sit between a test and the card",
			d.Dev, d.File, strings.TrimSpace(string(dio)), err)
	}
	return nil
}

// Reattach attaches the card to another loop device and detaches the one it had, as
// unplugging a card and plugging it in again gives it another /dev name. Nothing may hold
// the old device open.
func (d *CardDrive) Reattach() error {
	out, err := run("losetup", "--find", "--show", "--direct-io=on", d.File)
	if err != nil {
		return fmt.Errorf("lab: attach card %s to another loop device: %w", d.File, err)
	}
	old, dev := d.Dev, strings.TrimSpace(out)
	if err := detachLoopBackedBy(old, d.File); err != nil {
		detachLoopBackedBy(dev, d.File)
		return err
	}
	d.Dev = dev
	return nil
}

// Down detaches the loop device, unmounts the card and removes its mount point, each only
// if UpCard did it and Down has not undone it yet; calling it again is harmless.
func (d *CardDrive) Down() error {
	var errs []error
	if d.attached {
		if err := detachLoopBackedBy(d.Dev, d.File); err != nil {
			errs = append(errs, err)
		} else {
			d.attached = false
		}
	}
	if d.mounted && !d.attached {
		if err := unmountCard(d.server, d.Mnt); err != nil {
			errs = append(errs, err)
		} else {
			d.mounted = false
		}
	}
	if d.madeMnt && !d.mounted {
		errs = append(errs, removeMade(&d.madeMnt, d.Mnt, "card mount point"))
	}
	return errors.Join(errs...)
}

// detachLoopBackedBy detaches dev if it is still backed by file, waiting for the kernel to
// let go of the file (a detach of an open loop device is deferred until its last close).
func detachLoopBackedBy(dev, file string) error {
	backing := func() string {
		b, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(dev), "loop", "backing_file"))
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(strings.TrimSpace(string(b)), " (deleted)")
	}
	if backing() != file {
		return nil // detached already; the number may belong to someone else now
	}
	if _, err := run("losetup", "--detach", dev); err != nil && backing() == file {
		return fmt.Errorf("lab: detach %s: %w", dev, err)
	}
	for i := 0; i < 100 && backing() == file; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if backing() == file {
		return fmt.Errorf("lab: %s still attached to %s 5 s after detach: a process still has it open", dev, file)
	}
	return nil
}

// unmountCard unmounts a card's FUSE file system: through its server when this process
// serves it, else (an orphan) with umount(2), lazily if something still holds it.
func unmountCard(server *fuse.Server, mnt string) error {
	var err error
	for i := 0; i < 50; i++ {
		if server != nil {
			err = server.Unmount()
		} else {
			err = syscall.Unmount(mnt, 0)
		}
		if err == nil || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOENT) {
			if server != nil {
				server.Wait()
			}
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	if lerr := syscall.Unmount(mnt, syscall.MNT_DETACH); lerr != nil {
		return fmt.Errorf("lab: unmount card %s: %w (lazy: %v)", mnt, err, lerr)
	}
	if server != nil {
		server.Wait()
	}
	return nil
}

// cardRoot is the FUSE root directory: it holds the card file.
type cardRoot struct {
	fs.Inode
	card *Card
}

var _ = (fs.NodeOnAdder)((*cardRoot)(nil))

func (r *cardRoot) OnAdd(ctx context.Context) {
	ch := r.NewPersistentInode(ctx, &cardNode{card: r.card}, fs.StableAttr{Mode: syscall.S_IFREG, Ino: 2})
	r.AddChild(cardFile, ch, false)
}

// cardNode is the card file: reads and writes go to the Card and take the time it says.
type cardNode struct {
	fs.Inode
	card *Card
}

var (
	_ = (fs.NodeOpener)((*cardNode)(nil))
	_ = (fs.NodeGetattrer)((*cardNode)(nil))
	_ = (fs.NodeSetattrer)((*cardNode)(nil))
	_ = (fs.NodeReader)((*cardNode)(nil))
	_ = (fs.NodeWriter)((*cardNode)(nil))
	_ = (fs.NodeFsyncer)((*cardNode)(nil))
	_ = (fs.NodeFlusher)((*cardNode)(nil))
)

func (n *cardNode) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	// No page cache between the kernel and the card: every read and write reaches it.
	return nil, fuse.FOPEN_DIRECT_IO, 0
}

func (n *cardNode) Getattr(ctx context.Context, fh fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	out.Mode = syscall.S_IFREG | 0o600
	out.Size = uint64(n.card.Size())
	out.Blksize = 4096
	out.Blocks = out.Size / 512
	return 0
}

func (n *cardNode) Setattr(ctx context.Context, fh fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	if sz, ok := in.GetSize(); ok && sz != uint64(n.card.Size()) {
		return syscall.EPERM // a card's size is fixed
	}
	return n.Getattr(ctx, fh, out)
}

func (n *cardNode) Read(ctx context.Context, fh fs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	if off >= n.card.Size() {
		return fuse.ReadResultData(nil), 0
	}
	dest = dest[:min(int64(len(dest)), n.card.Size()-off)]
	done := n.card.Schedule(OpRead, off, int64(len(dest)), time.Now())
	err := n.card.ReadAt(dest, off)
	n.card.wait(done)
	if err != nil {
		return nil, toErrno(err)
	}
	return fuse.ReadResultData(dest), 0
}

func (n *cardNode) Write(ctx context.Context, fh fs.FileHandle, data []byte, off int64) (uint32, syscall.Errno) {
	if off+int64(len(data)) > n.card.Size() {
		return 0, syscall.ENOSPC
	}
	done := n.card.Schedule(OpWrite, off, int64(len(data)), time.Now())
	err := n.card.WriteAt(data, off)
	n.card.wait(done)
	if err != nil {
		return 0, toErrno(err)
	}
	return uint32(len(data)), 0
}

func (n *cardNode) Fsync(ctx context.Context, fh fs.FileHandle, flags uint32) syscall.Errno {
	return 0
}

func (n *cardNode) Flush(ctx context.Context, fh fs.FileHandle) syscall.Errno { return 0 }

// wait blocks until done. Go's timers wake up to a millisecond late on a busy machine, which
// would turn a 200 µs card write into 1-2 ms, so this sleeps in nanosleep(2) (high-resolution
// timers, the thread blocked, its P handed off) and gives the card back what the sleep
// overshot, so that a long run keeps the configured rate.
func (c *Card) wait(done time.Time) {
	for {
		d := time.Until(done)
		if d <= 0 {
			break
		}
		ts := unix.NsecToTimespec(int64(d))
		if err := unix.Nanosleep(&ts, nil); err != nil && !errors.Is(err, unix.EINTR) {
			time.Sleep(d)
		}
	}
	c.overslept(time.Since(done))
}

func toErrno(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return syscall.EIO
}
