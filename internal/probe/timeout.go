package probe

import (
	"fmt"
	"time"
)

// WithTimeout runs probe in its own goroutine and gives up after d, as the probes of this
// package do; packages that ask drives themselves (health) use it for the same guarantee.
func WithTimeout[T any](d time.Duration, probe func() (T, error)) (T, error) {
	return withTimeout(d, probe)
}

// withTimeout runs a probe that could block (an ioctl to a USB bridge that never answers) in
// its own goroutine and gives up after d. A blocked call cannot be cancelled: it is abandoned,
// and its goroutine ends whenever the kernel returns; the command itself never hangs.
func withTimeout[T any](d time.Duration, probe func() (T, error)) (T, error) {
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1) // buffered: an abandoned probe must not block on send
	go func() {
		v, err := probe()
		done <- answer{v, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case a := <-done:
		return a.v, a.err
	case <-timer.C:
		var zero T
		return zero, fmt.Errorf("no answer within %v", d)
	}
}
