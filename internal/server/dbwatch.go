package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// Database outages. When a request's store call fails, the server pings the database: if it does
// not answer, the server counts it down, logs that once, and from then on answers what needs the
// database at once (a kept page with a note, else 503 with Retry-After: pagecopy.go) instead of
// waiting on it, while a probe pings it every second. The first ping answered counts it up again
// and logs that once: database/sql opens new connections by itself, so nothing restarts.

const (
	// pingTimeout bounds one ping: /healthz answers within 2 s whatever the database does.
	pingTimeout = 1500 * time.Millisecond
	// probeEvery is how often a down database is pinged.
	probeEvery = time.Second
	// downRetryAfterS is what clients are asked to wait while the database is down.
	downRetryAfterS = "5"
)

type dbWatch struct {
	st   *store.Store
	log  *slog.Logger
	stop chan struct{}
	once sync.Once

	mu       sync.Mutex
	down     bool
	since    time.Time // when it went down
	lastErr  error     // the last ping's
	probing  bool
	inflight chan struct{} // closed when /healthz's ping in flight is answered
}

func newDBWatch(st *store.Store, log *slog.Logger) *dbWatch {
	return &dbWatch{st: st, log: log, stop: make(chan struct{})}
}

func (d *dbWatch) isDown() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.down
}

// check pings the database and records the answer; nil: it answered. It never uses a request's
// context: a client leaving is not the database going down.
func (d *dbWatch) check() error {
	if d.st == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	err := d.st.Ping(ctx)
	d.record(err)
	return err
}

// shared pings the database for /healthz; callers arriving while a ping is in flight share its
// answer, so a flood of health checks costs the database one ping at a time.
func (d *dbWatch) shared() error {
	d.mu.Lock()
	if ch := d.inflight; ch != nil {
		d.mu.Unlock()
		<-ch
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.lastErr
	}
	ch := make(chan struct{})
	d.inflight = ch
	d.mu.Unlock()
	err := d.check()
	d.mu.Lock()
	d.inflight = nil
	d.mu.Unlock()
	close(ch)
	return err
}

func (d *dbWatch) record(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lastErr = err
	switch {
	case err != nil && !d.down:
		d.down, d.since = true, time.Now()
		d.log.Error("the database is unreachable: kept pages are served with a note, everything else that needs it answers 503 until it is back", "err", err)
		if !d.probing {
			d.probing = true
			go d.probe()
		}
	case err == nil && d.down:
		d.down = false
		d.log.Info("the database is reachable again", "down_for", time.Since(d.since).Round(time.Millisecond))
	}
}

// probe pings the down database every probeEvery until it answers or the server closes.
func (d *dbWatch) probe() {
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
		}
		if d.check() == nil {
			d.mu.Lock()
			d.probing = false
			d.mu.Unlock()
			return
		}
	}
}

func (d *dbWatch) close() { d.once.Do(func() { close(d.stop) }) }

// Health is the answer of /healthz.
type Health struct {
	// Status is "ok" when the database answers, "unavailable" when it does not.
	Status string `json:"status"`
	// Database is "up" or "down"; Backend "sqlite" or "postgres".
	Database string `json:"database"`
	Backend  string `json:"backend"`
}

// healthz reports whether the database answers: 200 when it does, 503 with Retry-After when
// not. It is neither rate-limited nor queued (ServeHTTP) and answers within 2 s.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	h := Health{Status: "ok", Database: "up"}
	if s.st != nil {
		h.Backend = s.st.Backend()
	}
	if err := s.db.shared(); err != nil {
		h.Status, h.Database = "unavailable", "down"
		w.Header().Set("Retry-After", downRetryAfterS)
		writeJSON(w, http.StatusServiceUnavailable, h)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// unreachable answers a request that needs the database while it is down.
func (s *Server) unreachable(w http.ResponseWriter, r *http.Request) {
	markUnreachable(r)
	w.Header().Set("Retry-After", downRetryAfterS)
	s.fail(w, r, http.StatusServiceUnavailable, "the results database is unreachable; retry in a few seconds")
}
