package testkit

import (
	"bytes"
	"sync"
)

// Buffer is an io.Writer that goroutines may write while the test reads it: a command's output
// read while it runs, or a log several handlers write.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
