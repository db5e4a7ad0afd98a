package server

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

// Request bodies are read whole before a request takes a processing slot (gate.go), under a
// size limit and a deadline that grows with what arrived: bodyGrace plus one second per
// bodyRateBytes received, so a Pi on a weak link (64 KiB/s) still uploads its largest record in
// 26 s, and a client trickling bytes is cut off (408) long before it ties anything up. While
// bodies are read they hold at most Options.BodyMemory bytes together, counted as their buffers
// grow (a trickler holds what it sent, not what it announced), and at most bodiesPerClient are
// read per client: a crowd of slow uploaders can neither exhaust memory nor take every slot, and pages
// and API reads, which have no body, never wait for them.

const (
	bodyGrace       = 10 * time.Second
	bodyRateBytes   = 64 << 10
	bodiesPerClient = 2
	// defaultBodyMemory: 32 records of the largest size at once.
	defaultBodyMemory = 32 * MaxBodyBytes
)

// bodies counts the bodies being read per client and the bytes reserved for all of them.
type bodies struct {
	mu        sync.Mutex
	reading   map[string]int
	reserved  int64
	maxMemory int64
}

func newBodies(maxMemory int64) *bodies {
	return &bodies{reading: map[string]int{}, maxMemory: maxMemory}
}

// errBodyClient and errBodyMemory are why a body cannot be read now.
var (
	errBodyClient = errors.New("two uploads from your address are already being received; send one at a time")
	errBodyMemory = errors.New("the server is receiving too many uploads; retry in a few seconds")
)

// hold is one body being received: a reading place of its client and the bytes its buffer
// holds, reserved as the buffer grows.
type hold struct {
	b        *bodies
	client   string
	reserved int64
	reading  bool
}

// reserve takes one of client's reading places; nothing is reserved until bytes arrive.
func (b *bodies) reserve(client string) (*hold, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reading[client] >= bodiesPerClient {
		return nil, errBodyClient
	}
	b.reading[client]++
	return &hold{b: b, client: client, reading: true}, nil
}

// grow reserves up to total bytes for the buffer; errBodyMemory when all bodies together would
// pass the bound.
func (h *hold) grow(total int64) error {
	b := h.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reserved+total-h.reserved > b.maxMemory {
		return errBodyMemory
	}
	b.reserved += total - h.reserved
	h.reserved = total
	return nil
}

// done gives the reading place back (the body is read, or refused).
func (h *hold) done() {
	b := h.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if h.reading {
		h.reading = false
		if b.reading[h.client]--; b.reading[h.client] <= 0 {
			delete(b.reading, h.client)
		}
	}
}

// free gives the bytes back (the request is answered).
func (h *hold) free() {
	b := h.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= h.reserved
	h.reserved = 0
}

// held is the bytes reserved for bodies.
func (b *bodies) held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reserved
}

// count is how many of client's bodies are being read.
func (b *bodies) count(client string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reading[client]
}

// hasBody: a request whose body may hold bytes (a known length above 0, or chunked).
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// readBody reads r's body into memory under the limits above and replaces it with what was
// read. It answers the request itself when it cannot (413, 408, 429, 503, 400) and returns
// false; otherwise free must be called once the request is answered.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, client string) (free func(), ok bool) {
	// A body announced above the limit is still read up to it, then refused: a client that
	// answers only once its body is sent (Go's, curl's) then sees the 413, not a broken pipe.
	n := r.ContentLength
	if n < 0 || n > MaxBodyBytes {
		n = MaxBodyBytes
	}
	h, err := s.bodies.reserve(client)
	if err != nil {
		w.Header().Set("Retry-After", "2")
		s.refuseBody(w, r, http.StatusTooManyRequests, err.Error())
		return nil, false
	}
	defer h.done()
	body, err := readWithDeadline(http.NewResponseController(w), r.Body, n, s.opts.bodyGrace, h.grow)
	free = h.free
	switch {
	case err == nil:
	case errors.Is(err, errBodyMemory):
		free()
		w.Header().Set("Retry-After", "2")
		s.refuseBody(w, r, http.StatusServiceUnavailable, err.Error())
		return nil, false
	case errors.Is(err, errTooLarge):
		free()
		s.refuseBody(w, r, http.StatusRequestEntityTooLarge, tooLargeMsg)
		return nil, false
	case errors.Is(err, os.ErrDeadlineExceeded):
		free()
		s.refuseBody(w, r, http.StatusRequestTimeout, "the upload arrived too slowly (under 64 KiB a second after the first 10 s); retry on a better link")
		return nil, false
	default:
		free()
		s.refuseBody(w, r, http.StatusBadRequest, "reading the request body failed")
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return free, true
}

var errTooLarge = errors.New("request body too large")

const tooLargeMsg = "the record is larger than 1 MiB; iomark's records are far smaller, so this is not one"

// refuseBody answers a request whose body was not read whole, and closes its connection
// without reading the rest: net/http would otherwise read what is left of a small body before
// answering, as long as the client takes to send it.
func (s *Server) refuseBody(w http.ResponseWriter, r *http.Request, code int, msg string) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	s.fail(w, r, code, msg)
}

// readWithDeadline reads body to its end (at most MaxBodyBytes) with a read deadline of
// bodyGrace from the start plus a second per bodyRateBytes received, moved as bytes
// arrive. Where the connection takes no deadline (a test's recorder) it reads without one.
// Deadlines are the network's, so the wall clock, whatever clock the server was given.
// grow reserves the buffer's bytes before it is extended (bodies' memory bound).
func readWithDeadline(rc *http.ResponseController, body io.Reader, sizeHint int64, grace time.Duration, grow func(int64) error) ([]byte, error) {
	start := time.Now()
	first := min(sizeHint, bodyRateBytes) + 1
	if err := grow(first); err != nil {
		return nil, err
	}
	buf := make([]byte, 0, first)
	deadlines := true
	for {
		if deadlines {
			allowed := grace + time.Duration(len(buf)/bodyRateBytes+1)*time.Second
			if err := rc.SetReadDeadline(start.Add(allowed)); err != nil {
				deadlines = false
			}
		}
		if len(buf) == cap(buf) {
			// Twice the size, up to what is announced (and one byte more, to see a body
			// longer than announced or than the limit).
			next := min(max(2*int64(cap(buf)), bodyRateBytes), max(sizeHint, int64(cap(buf)))+1, MaxBodyBytes+1)
			if err := grow(next); err != nil {
				return nil, err
			}
			grown := make([]byte, len(buf), next)
			copy(grown, buf)
			buf = grown
		}
		chunk := buf[len(buf):min(cap(buf), len(buf)+bodyRateBytes)]
		n, err := body.Read(chunk)
		buf = buf[:len(buf)+n]
		if len(buf) > MaxBodyBytes {
			return nil, errTooLarge
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, errTooLarge
			}
			return nil, err
		}
	}
	if deadlines {
		// Done reading: the connection's watch for a client hanging up must not time out now.
		_ = rc.SetReadDeadline(time.Time{})
	}
	return buf, nil
}
