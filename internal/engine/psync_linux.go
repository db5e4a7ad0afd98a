package engine

import (
	"golang.org/x/sys/unix"
)

// psync drives a job with one goroutine per queue slot, each issuing pread/pwrite and waiting
// for it: queue depth N is N synchronous callers, as fio's psync engine with numjobs does.
type psync struct{}

// pio issues one pread or pwrite. raw keeps the goroutine's P across the syscall
// (RawSyscall): Go's scheduler otherwise hands the P off whenever a syscall outlasts a
// sysmon tick (20 µs, shorter than most I/O), and getting it back costs futex wake-ups —
// about 2-8 µs of system time per I/O at QD1 here (BENCHMARKS.md, engine-vs-fio). Run
// raises GOMAXPROCS so every psync goroutine has a P of its own when raw is set.
func pio(raw, read bool, fd int, buf []byte, off int64) (int, error) {
	if !raw {
		if read {
			return unix.Pread(fd, buf, off)
		}
		return unix.Pwrite(fd, buf, off)
	}
	nr := uintptr(unix.SYS_PREAD64)
	if !read {
		nr = unix.SYS_PWRITE64
	}
	n, _, errno := rawPio(nr, fd, buf, off)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func (psync) name() Engine { return EnginePsync }

func (psync) workers(s *Spec) int { return s.QD }

func (psync) run(j *job, worker int) error {
	r := j.r
	s := r.spec
	fd := r.tgt.fd
	buf := j.bufs.bufs[worker]
	m := j.meters[worker]
	rng := j.newRand(worker)
	idBase := uint64(j.id)<<48 | uint64(worker)<<32
	var writes uint64
	for !r.stop.Load() {
		if !r.claim(s.BlockSize) {
			return nil
		}
		off, read := j.next(rng)
		if !read {
			writes++
			stamp(buf, idBase|writes, r.seed)
		}
		t0 := r.now()
		var n int
		var err error
		for {
			n, err = pio(r.rawSyscalls, read, fd, buf, off-r.fileBase)
			if err == unix.EINTR {
				continue
			}
			if s.NextFile != nil && !read && (err == unix.EFBIG || err == nil && n > 0 && n < len(buf)) {
				// The filesystem's largest file: the copy goes on in a new file, from this
				// block (the bytes of a short write wore the drive but are written again).
				m.writtenBytes += int64(n)
				var more bool
				if fd, more, err = r.nextFile(fd, off); err != nil {
					return err
				}
				if !more {
					r.requestStop()
					return nil
				}
				continue
			}
			break
		}
		lat := r.now() - t0
		if err != nil {
			return ioError(r.tgt, !read, off, len(buf), err)
		}
		if n != len(buf) {
			return errShortIO(r.tgt, !read, off, len(buf), n)
		}
		m.record(r, read, n, t0, lat)
		if !read && j.wroteOne() {
			if err := j.doFsync(); err != nil {
				return err
			}
		}
	}
	return nil
}

// nextFile moves a write split across files (Spec.NextFile) on from the file open as fd,
// which the filesystem refused to grow at job offset off: it is synced (a copy's part is on
// the drive before the next begins) and kept open until the job ends, and the file NextFile
// names is opened in its place, written from its start. more is false when NextFile could
// not give one (the job then ends with its figures).
func (r *run) nextFile(fd int, off int64) (next int, more bool, err error) {
	s := r.spec
	if r.fileLimit == 0 {
		r.fileLimit = off - r.fileBase
	}
	if off == r.fileBase {
		// Not one block fitted in a fresh file: there is no limit to go around.
		return fd, false, ioError(r.tgt, true, off-r.fileBase, s.BlockSize, unix.EFBIG)
	}
	if err := unix.Fsync(fd); err != nil {
		return fd, false, ioError(r.tgt, true, 0, 0, err)
	}
	path, err := s.NextFile()
	if err != nil {
		r.nextErr = err.Error()
		return fd, false, nil
	}
	nfd, err := unix.Open(path, openFlags(s, true), 0)
	if err != nil {
		r.nextErr = openError(path, s.Direct, err).Error()
		return fd, false, nil
	}
	r.parts = append(r.parts, fd)
	r.tgt.fd, r.fileBase = nfd, off
	r.files++
	return nfd, true, nil
}
