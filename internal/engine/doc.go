// Package engine runs one I/O job against a file, a directory or a block device and measures
// it: IOPS, throughput, a latency histogram, a per-interval series and the CPU it cost.
//
// A job (Spec) has a pattern, a block size, a queue depth per job and a number of jobs. Each
// job is driven by one back end: psync (one goroutine per queue slot issuing pread/pwrite) or
// io_uring (one goroutine per job keeping the queue full through a ring, with registered
// buffers). Back ends live one per file behind the worker interface, as fio keeps its engines.
//
// The engine measures the device, not the cache: O_DIRECT by default, data that does not
// compress or deduplicate (random buffers stamped per 512-byte sector on every write), read
// targets laid out with real data first (never a hole), uniform block-aligned random offsets.
//
// What it must not do: create any path but its own test files (a target that does not exist
// is an error, InspectTarget), take anything under /dev but a block device, write to a block
// device that was not named twice (Spec.Destructive and Spec.Confirm), write to a mounted
// device, leave a test file behind (end, error or signal; unnamed with O_TMPFILE where the
// filesystem allows, so not even kill -9 leaves one), return from a job with I/O still in the
// kernel (a failed I/O ends the job once the rest has completed, with an error naming the
// operation and offset), or allocate on the I/O path.
package engine
