package engine

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A minimal io_uring on raw syscalls (no cgo, no library: see docs/decisions.md): one ring
// per job, files and buffers registered, READ_FIXED/WRITE_FIXED submitted and reaped by one
// goroutine locked to its thread. Layouts follow include/uapi/linux/io_uring.h.

const (
	uringOpFsync      = 3
	uringOpReadFixed  = 4
	uringOpWriteFixed = 5
	uringOpRead       = 22
	uringOpWrite      = 23

	uringSqeFixedFile = 1 << 0

	uringSetupCoopTaskrun  = 1 << 8
	uringSetupSingleIssuer = 1 << 12
	uringSetupDeferTaskrun = 1 << 13

	uringFeatSingleMmap = 1 << 0

	uringEnterGetEvents = 1 << 0

	uringRegisterBuffers   = 0
	uringUnregisterBuffers = 1
	uringRegisterFiles     = 2
	uringUnregisterFiles   = 3

	uringOffSqRing = 0
	uringOffCqRing = 0x8000000
	uringOffSqes   = 0x10000000
)

type uringSqringOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

type uringCqringOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

type uringParams struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  uringSqringOffsets
	cqOff                                                                  uringCqringOffsets
}

type uringSqe struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	rwFlags     uint32
	userData    uint64
	bufIndex    uint16
	personality uint16
	spliceFdIn  int32
	addr3       uint64
	pad         uint64
}

type uringCqe struct {
	userData uint64
	res      int32
	flags    uint32
}

// The kernel ABI fixes these sizes; a wrong struct layout must fail the build, not corrupt I/O.
var (
	_ [120 - unsafe.Sizeof(uringParams{})]struct{}
	_ [unsafe.Sizeof(uringParams{}) - 120]struct{}
	_ [64 - unsafe.Sizeof(uringSqe{})]struct{}
	_ [unsafe.Sizeof(uringSqe{}) - 64]struct{}
	_ [16 - unsafe.Sizeof(uringCqe{})]struct{}
)

type ring struct {
	fd       int
	ringMem  []byte
	cqMem    []byte // nil when the kernel maps both rings at once
	sqesMem  []byte
	sqHead   *uint32
	sqTail   *uint32
	sqMask   uint32
	sqArray  []uint32
	sqes     []uringSqe
	cqHead   *uint32
	cqTail   *uint32
	cqMask   uint32
	cqes     []uringCqe
	tail     uint32 // our copy of the SQ tail
	fixedBuf bool
	fixedFd  bool
	target   int32 // fd, or 0 (the registered index) when fixedFd
}

func uringSetup(entries uint32, p *uringParams) (int, error) {
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(p)), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// uringUsable reports why io_uring cannot be used here (ENOSYS under qemu-user or old
// kernels, EPERM when kernel.io_uring_disabled or a seccomp policy forbids it), or nil.
func uringUsable() error {
	var p uringParams
	fd, err := uringSetup(4, &p)
	if err != nil {
		return err
	}
	unix.Close(fd)
	return nil
}

// newRing sets up a ring of at least entries slots on the calling thread (which must stay
// locked: the ring is single-issuer), registers fd and bufs, and says what it had to give up.
func newRing(entries int, fd int, bufs [][]byte) (r *ring, note string, err error) {
	var p uringParams
	ringFd := -1
	// Fewer kernel wake-ups first (6.1+), then 5.19's cooperative mode, then plain.
	for _, flags := range []uint32{uringSetupSingleIssuer | uringSetupDeferTaskrun, uringSetupCoopTaskrun, 0} {
		p = uringParams{flags: flags}
		ringFd, err = uringSetup(uint32(entries), &p)
		if err == nil || !errors.Is(err, unix.EINVAL) {
			break
		}
	}
	if err != nil {
		return nil, "", fmt.Errorf("io_uring_setup: %w", err)
	}
	r = &ring{fd: ringFd}
	defer func() {
		if err != nil {
			r.close()
		}
	}()
	sqSize := int(p.sqOff.array + p.sqEntries*4)
	cqSize := int(p.cqOff.cqes + p.cqEntries*uint32(unsafe.Sizeof(uringCqe{})))
	single := p.features&uringFeatSingleMmap != 0
	if single {
		sqSize = max(sqSize, cqSize)
	}
	prot, mflags := unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE
	if r.ringMem, err = unix.Mmap(ringFd, uringOffSqRing, sqSize, prot, mflags); err != nil {
		return nil, "", fmt.Errorf("mapping the io_uring submission ring: %w", err)
	}
	cqMem := r.ringMem
	if !single {
		if r.cqMem, err = unix.Mmap(ringFd, uringOffCqRing, cqSize, prot, mflags); err != nil {
			return nil, "", fmt.Errorf("mapping the io_uring completion ring: %w", err)
		}
		cqMem = r.cqMem
	}
	sqeSize := int(p.sqEntries) * int(unsafe.Sizeof(uringSqe{}))
	if r.sqesMem, err = unix.Mmap(ringFd, uringOffSqes, sqeSize, prot, mflags); err != nil {
		return nil, "", fmt.Errorf("mapping the io_uring entries: %w", err)
	}
	u32 := func(mem []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead = u32(r.ringMem, p.sqOff.head)
	r.sqTail = u32(r.ringMem, p.sqOff.tail)
	r.sqMask = *u32(r.ringMem, p.sqOff.ringMask)
	r.sqArray = unsafe.Slice(u32(r.ringMem, p.sqOff.array), p.sqEntries)
	r.sqes = unsafe.Slice((*uringSqe)(unsafe.Pointer(&r.sqesMem[0])), p.sqEntries)
	r.cqHead = u32(cqMem, p.cqOff.head)
	r.cqTail = u32(cqMem, p.cqOff.tail)
	r.cqMask = *u32(cqMem, p.cqOff.ringMask)
	r.cqes = unsafe.Slice((*uringCqe)(unsafe.Pointer(&cqMem[p.cqOff.cqes])), p.cqEntries)
	r.tail = atomic.LoadUint32(r.sqTail)

	fds := []int32{int32(fd)}
	if _, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(ringFd), uringRegisterFiles, uintptr(unsafe.Pointer(&fds[0])), 1, 0, 0); errno == 0 {
		r.fixedFd = true
	} else {
		r.target = int32(fd)
	}
	iovs := make([]unix.Iovec, len(bufs))
	for i, b := range bufs {
		iovs[i].Base = &b[0]
		iovs[i].SetLen(len(b))
	}
	if _, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(ringFd), uringRegisterBuffers, uintptr(unsafe.Pointer(&iovs[0])), uintptr(len(iovs)), 0, 0); errno == 0 {
		r.fixedBuf = true
	} else {
		// Usually RLIMIT_MEMLOCK for a non-root user: plain READ/WRITE still work (5.6+).
		note = fmt.Sprintf("io_uring buffer registration refused (%v): using unregistered buffers", errno)
	}
	runtime.KeepAlive(iovs)
	return r, note, nil
}

func (r *ring) close() {
	// Drop the registered file and buffers now: a ring's teardown after close is
	// asynchronous, and a file still registered then keeps its filesystem busy (an unmount
	// right after the run would fail).
	if r.fixedFd {
		_, _, _ = unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), uringUnregisterFiles, 0, 0, 0, 0)
	}
	if r.fixedBuf {
		_, _, _ = unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), uringUnregisterBuffers, 0, 0, 0, 0)
	}
	for _, m := range [][]byte{r.sqesMem, r.cqMem, r.ringMem} {
		if m != nil {
			_ = unix.Munmap(m)
		}
	}
	if r.fd >= 0 {
		unix.Close(r.fd)
	}
}

// prep queues one read or write of buf (registered as index slot) at off, tagged with slot.
// The caller guarantees a free submission entry (in flight < ring size).
func (r *ring) prep(slot int, read bool, off int64, buf []byte) {
	idx := r.tail & r.sqMask
	sqe := &r.sqes[idx]
	*sqe = uringSqe{fd: r.target, off: uint64(off), addr: uint64(uintptr(unsafe.Pointer(&buf[0]))),
		len: uint32(len(buf)), userData: uint64(slot)}
	switch {
	case read && r.fixedBuf:
		sqe.opcode = uringOpReadFixed
	case read:
		sqe.opcode = uringOpRead
	case r.fixedBuf:
		sqe.opcode = uringOpWriteFixed
	default:
		sqe.opcode = uringOpWrite
	}
	if r.fixedBuf {
		sqe.bufIndex = uint16(slot)
	}
	if r.fixedFd {
		sqe.flags = uringSqeFixedFile
	}
	r.sqArray[idx] = idx
	r.tail++
	atomic.StoreUint32(r.sqTail, r.tail) // publish the entry (release)
}

// unsubmitted is how many published entries the kernel has not taken yet.
func (r *ring) unsubmitted() uint32 { return r.tail - atomic.LoadUint32(r.sqHead) }

// handIn submits every published entry the kernel has not taken and, with wait, waits until
// at least one completion is ready; it says how many entries the kernel took. GETEVENTS makes
// even a call that does not wait run the ring's deferred completion work (DEFER_TASKRUN posts
// completions only when the task enters), so what finished meanwhile is in the completion
// queue when it returns. With raw the goroutine keeps its P through the call (see uring). A
// wait returns early, with nothing new to reap, when a signal interrupts it (the Go runtime's
// preemption signal among them: the caller's loop then reaches a preemption point) or the
// completion queue is full; what the kernel did not take stays published for the next call.
func (r *ring) handIn(wait, raw bool) (took uint32, err error) {
	n := r.unsubmitted()
	minComplete := uint32(0)
	if wait {
		minComplete = 1
	}
	err = r.call(n, minComplete, raw)
	return n - r.unsubmitted(), err
}

// call is io_uring_enter with GETEVENTS: submit n, wait for minComplete completions.
func (r *ring) call(n, minComplete uint32, raw bool) error {
	var errno unix.Errno
	if raw {
		_, _, errno = unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(n), uintptr(minComplete), uringEnterGetEvents, 0, 0)
	} else {
		_, _, errno = unix.Syscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(n), uintptr(minComplete), uringEnterGetEvents, 0, 0)
	}
	switch errno {
	case 0, unix.EINTR, unix.EAGAIN, unix.EBUSY:
		return nil
	default:
		return fmt.Errorf("io_uring_enter: %w", errno)
	}
}

// uring drives a job through one ring, kept full by one goroutine locked to its thread. Each
// turn of its loop reaps every completion the kernel has posted and refills every free slot;
// it waits for the next completion only when none is ready, so the job waits only with all QD
// I/Os in flight (or while it drains).
//
// How a refill reaches the kernel decides whether the device idles. While the kernel holds
// fewer than half the queue, each I/O is handed in as soon as it is prepared, with its own
// io_uring_enter (as fio does with every I/O); the rest of the refill goes in with the wait,
// in one call (or, when completions are already posted, in a call that does not wait), so
// the device holds every I/O the job counts in flight before the next reap. Gathering every refill into the wait left the device short while the batch was
// prepared: at QD32 on the RAM-backed loop device the ring reached 0.85× fio with 35% of the
// CPU idle or in iowait against fio's 22%. A call for every I/O brought QD32 level with fio but
// cost QD128, where the device never runs short, about 60% more CPU per I/O. Handing in only
// while the kernel holds under half the queue kept both: 3 pairs of each io_uring row, QD32
// 1.01×, QD128 1.14×, 2 × QD16 1.07×, with less CPU per I/O than fio's (docs/decisions.md,
// "io_uring submits each I/O at once"). At QD1 there is nothing to overlap, and the I/O goes
// in with the wait (one call per I/O, not two).
//
// While the ring is busy the goroutine holds its P through its calls (raw syscalls,
// GOMAXPROCS raised by Run; see busyWindow): through the ordinary syscall path, Go's sysmon
// kept taking the P of this never-yielding goroutine while it sat in io_uring_enter, woke
// another thread to hand it off and polled every 20 µs, and the ring thread had to take a P
// back — wake-ups that competed with the device's kernel threads on two cores
// (docs/decisions.md, "io_uring keeps its P").
type uring struct{}

// A ring holds its P through io_uring_enter only while it is busy: at least one enter per
// busyGap on average over the last busyWindow (long enough to smooth a throttled device's
// bursts). Holding the P costs a preemption signal and two thread hand-offs every 10-20 ms of
// the ring's life (sysmon's limit for a goroutine that never yields; ~25 µs of CPU each
// here); releasing it costs a hand-off, ~5 µs, whenever sysmon finds the ring asleep in the
// kernel, which on a busy ring is nearly every time it looks. One ring on the RAM-backed
// device enters every few µs and must hold its P; one ring at QD1 on the emulated SD card
// (2600 enters/s) spent 14-24 µs of CPU per I/O holding it and 26-30 µs releasing it; 16
// rings at QD32 on the same card (~100 enters/s each) spent 30-45 µs holding their Ps
// against 9-21 µs releasing them (docs/decisions.md).
const (
	busyWindow = 100 * time.Millisecond
	busyGap    = 2 * time.Millisecond
)

// busy reports whether enters over elapsed come at least one per busyGap.
func busy(enters int, elapsed time.Duration) bool {
	return time.Duration(enters)*busyGap >= elapsed
}

// ringCounts is what one ring did over a whole job (ramp and drain included): the evidence
// behind "the queue stays full", for tests.
type ringCounts struct {
	enters, submitted, reaped int64 // enters: the waits
	submits                   int64 // calls that only submitted
	maxInflight               int
	// waitsShort counts waits entered with prepared I/Os still to hand in while the kernel
	// held fewer than half the queue: it must stay 0.
	waitsShort int64
	// waitsNotFull counts waits entered with a free slot while the job was still issuing
	// I/O (neither stopping, nor out of budget, nor due an fsync): it must stay 0.
	waitsNotFull int64
	rawEnters    int64 // enters that kept the P (see busyWindow)
	// failed counts completions that were errors or short (reaped counts them too); mixed
	// counts reaps whose batch held both a success and a failure.
	failed, mixed int64
	// resubmitted counts I/Os the kernel canceled and the ring handed in again.
	resubmitted int64
}

// ringDone, when set (tests), receives each ring's counts as its job ends.
var ringDone func(ringCounts)

func (uring) name() Engine { return EngineIOUring }

func (uring) workers(*Spec) int { return 1 }

func (uring) run(j *job, _ int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := j.r
	s := r.spec
	qd := s.QD
	rg, note, err := newRing(qd, r.tgt.fd, j.bufs.bufs)
	if err != nil {
		return err
	}
	defer rg.close()
	if note != "" {
		r.noteOnce(note)
	}
	m := j.meters[0]
	rng := j.newRand(0)
	free := make([]int, qd)
	for i := range free {
		free[i] = qd - 1 - i
	}
	started := make([]time.Duration, qd) // since r.base
	offsets := make([]int64, qd)
	reading := make([]bool, qd)
	canceled := make([]int, qd) // times the kernel canceled the slot's current I/O
	idBase := uint64(j.id) << 48
	var writes uint64
	var c ringCounts
	if ringDone != nil {
		defer func() { ringDone(c) }()
	}
	inflight := 0
	handInBelow := qd / 2 // see uring: while the kernel holds fewer, each I/O goes in at once
	// raw: whether io_uring_enter keeps the P, chosen anew every busyWindow.
	raw, windowStart, windowEnters := false, r.now(), 0
	fsyncDue := false
	// failure is the job's first failed or short I/O. From then on the loop issues nothing and
	// only reaps, and the job returns failure once every I/O in flight has completed: the
	// kernel may still be writing into buffers that Run frees when the job returns, and on
	// Debian's 6.1 closing the ring with requests in flight hung the job in the kernel (in
	// io_rsrc_ref_quiesce, unregistering the file) once a dm-flakey device began failing I/O
	// (docs/decisions.md).
	var failure error
	for {
		issuing := failure == nil && !fsyncDue && !r.stop.Load()
		if issuing && inflight < qd {
			for inflight < qd {
				if !r.claim(s.BlockSize) {
					issuing = false
					break
				}
				slot := free[len(free)-1]
				free = free[:len(free)-1]
				off, read := j.next(rng)
				buf := j.bufs.bufs[slot]
				if !read {
					writes++
					stamp(buf, idBase|writes, r.seed)
				}
				// Each I/O's clock starts as it is prepared, as fio's does, not once per
				// refill, which would charge a refill's last I/O for the calls that handed
				// in the ones before it.
				started[slot], offsets[slot], reading[slot] = r.now(), off, read
				rg.prep(slot, read, off, buf)
				inflight++
				if qd == 1 {
					break // nothing to overlap with: the wait below submits it (one call per I/O)
				}
				if inflight-int(rg.unsubmitted()) >= handInBelow {
					continue // the device has enough to do: this one goes in with the wait
				}
				took, err := rg.handIn(false, raw)
				c.submits++
				c.submitted += int64(took)
				if err != nil {
					return ringFailed(err, failure, inflight, r.tgt.path)
				}
			}
		}
		if inflight == 0 {
			if failure != nil {
				return failure
			}
			if fsyncDue && !r.stop.Load() {
				if err := j.doFsync(); err != nil {
					return err
				}
				fsyncDue = false
				continue
			}
			return nil
		}
		c.maxInflight = max(c.maxInflight, inflight)
		// Wait only when nothing is ready to reap (the submits above ran the completion work);
		// either way, what the refill held back goes in now, so the kernel holds every I/O
		// the job counts in flight before the next reap.
		wait := atomic.LoadUint32(rg.cqTail) == *rg.cqHead
		if held := rg.unsubmitted(); wait || held > 0 {
			if !wait {
				c.submits++
			} else {
				c.enters++
				if issuing && inflight < qd {
					c.waitsNotFull++
				}
				if held > 0 && inflight-int(held) < handInBelow {
					c.waitsShort++
				}
				if raw {
					c.rawEnters++
				}
			}
			took, err := rg.handIn(wait, raw)
			c.submitted += int64(took)
			if err != nil {
				return ringFailed(err, failure, inflight, r.tgt.path)
			}
		}
		now := r.now()
		if windowEnters++; now-windowStart >= busyWindow {
			raw = r.rawSyscalls && busy(windowEnters, now-windowStart)
			windowStart, windowEnters = now, 0
		}
		head := *rg.cqHead
		tail := atomic.LoadUint32(rg.cqTail) // acquire: entries up to tail are written
		ok, bad := 0, 0
		for ; head != tail; head++ {
			cqe := &rg.cqes[head&rg.cqMask]
			slot := int(cqe.userData)
			res := cqe.res
			read := reading[slot]
			if retryCanceled(res, failure == nil, canceled[slot]) {
				// The I/O never reached the drive: it goes in again, from the same slot and
				// buffer, with its clock still running (see cancelRetries).
				canceled[slot]++
				c.resubmitted++
				rg.prep(slot, read, offsets[slot], j.bufs.bufs[slot])
				continue
			}
			canceled[slot] = 0
			free = append(free, slot)
			inflight--
			c.reaped++
			if err := uringResult(r.tgt, read, offsets[slot], s.BlockSize, res); err != nil {
				bad++
				if failure == nil {
					failure = err
					r.fail(err) // the run reports this first error; the other jobs stop issuing
				}
				continue
			}
			ok++
			m.record(r, read, int(res), started[slot], now-started[slot])
			if !read && j.wroteOne() {
				fsyncDue = true
			}
		}
		atomic.StoreUint32(rg.cqHead, head) // release the reaped entries
		c.failed += int64(bad)
		if ok > 0 && bad > 0 {
			c.mixed++
		}
	}
}

// cancelRetries is how many times a ring hands in again an I/O the kernel canceled. iomark
// never cancels an I/O, and never links one to another, yet the kernel can: an io_uring
// request that would block goes to io-wq, the kernel's worker pool for the ring, and when
// io-wq cannot start a worker (a thread it creates for the submitting task, which fails while
// a signal is pending: the Go runtime signals its threads to preempt them) more than a few
// times, it completes all its pending work with -ECANCELED (io_uring/io-wq.c,
// create_worker_cont and WORKER_INIT_LIMIT). On Debian's 6.1 under a device-mapper table
// swapped to dm-error mid-job, the job then reported "operation canceled" instead of the
// drive's I/O error. Such an I/O never reached the drive: handing it in again measures the
// drive, and the failure the job reports is the drive's.
const cancelRetries = 3

// retryCanceled says whether a completion with result res goes in again: the kernel
// canceled it, the job has not failed (after a failure the ring only reaps), and it has not
// been canceled cancelRetries times already.
func retryCanceled(res int32, issuing bool, times int) bool {
	return res == -int32(unix.ECANCELED) && issuing && times < cancelRetries
}

// ringFailed is the error of a ring whose io_uring_enter failed: nothing more can be reaped,
// so it says how much is left in flight, after the job's first failed I/O if there was one.
func ringFailed(err, failure error, inflight int, path string) error {
	err = fmt.Errorf("%w (with %d I/Os of %s still in flight)", err, inflight, path)
	if failure != nil {
		return fmt.Errorf("%w; then %w", failure, err)
	}
	return err
}

// uringResult turns one completion's result into nil (the whole block moved) or the error
// that names the operation, the offset and the target: a negative errno or a short transfer.
func uringResult(t *target, read bool, off int64, size int, res int32) error {
	switch {
	case res == -int32(unix.ECANCELED):
		err := ioError(t, !read, off, size, unix.ECANCELED)
		return fmt.Errorf("%w — the kernel canceled it %d times in a row: io_uring could not start a worker thread for it (`--engine psync` needs none)", err, cancelRetries+1)
	case res < 0:
		return ioError(t, !read, off, size, unix.Errno(-res))
	case int(res) != size:
		return errShortIO(t, !read, off, size, int(res))
	}
	return nil
}
