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
			n, err = pio(r.rawSyscalls, read, fd, buf, off)
			if err != unix.EINTR {
				break
			}
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
