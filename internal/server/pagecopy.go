package server

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Kept pages. The last rendering of each page (its path and query) that answered 200 is kept,
// bounded in bytes; while the database is down (dbwatch.go) a page that has one is answered with
// it and a note that its results may be out of date, instead of 503. API answers are not kept:
// a program is better told 503 with Retry-After than given old data unmarked.

const (
	pageCopyBytes   = 8 << 20   // all kept pages together
	pageCopyMaxPage = 512 << 10 // a larger page is not kept
)

type pageCopy struct {
	body []byte
	at   time.Time
}

type pageCopies struct {
	mu    sync.Mutex
	m     map[string]pageCopy
	order []string // oldest first, for eviction
	bytes int
}

func newPageCopies() *pageCopies { return &pageCopies{m: map[string]pageCopy{}} }

func (p *pageCopies) put(key string, body []byte) {
	if len(body) > pageCopyMaxPage {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.m[key]; ok {
		p.bytes -= len(old.body)
	} else {
		p.order = append(p.order, key)
	}
	p.m[key] = pageCopy{body: bytes.Clone(body), at: time.Now()}
	p.bytes += len(body)
	for p.bytes > pageCopyBytes && len(p.order) > 0 {
		k := p.order[0]
		p.order = p.order[1:]
		if c, ok := p.m[k]; ok {
			p.bytes -= len(c.body)
			delete(p.m, k)
		}
	}
}

func (p *pageCopies) get(key string) (pageCopy, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.m[key]
	return c, ok
}

// keptPage reports whether r is a page whose rendering is kept.
func keptPage(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) && !isAPI(r) &&
		!strings.HasPrefix(r.URL.Path, "/static/")
}

// staleNote is put at the top of a kept page served while the database is down.
func staleNote(at time.Time) string {
	return `<p class="stale" role="status">The results database cannot be reached right now: this page was kept at ` +
		at.UTC().Format("15:04 UTC") + ` and its results may be out of date.</p>`
}

// serveKept answers r with its kept page and the note; false when there is none.
func (s *Server) serveKept(w http.ResponseWriter, r *http.Request) bool {
	c, ok := s.kept.get(r.URL.RequestURI())
	if !ok {
		return false
	}
	body := string(c.body)
	note := staleNote(c.at)
	if i := strings.Index(body, "<main>"); i >= 0 {
		body = body[:i+len("<main>")] + "\n" + note + body[i+len("<main>"):]
	} else {
		body = note + body
	}
	h := w.Header()
	h.Del("Retry-After")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body))
	}
	return true
}

// recorder buffers a page's answer so that it can be kept, or replaced by the kept copy when
// the database went down while it was made.
type recorder struct {
	header http.Header
	code   int
	buf    bytes.Buffer
}

func (rec *recorder) Header() http.Header { return rec.header }
func (rec *recorder) WriteHeader(code int) {
	if rec.code == 0 {
		rec.code = code
	}
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	return rec.buf.Write(p)
}

// unreachableFlag is set in a request's context when it was answered "database unreachable".
type unreachableFlag struct{ set bool }

type unreachableKey struct{}

func markUnreachable(r *http.Request) {
	if f, ok := r.Context().Value(unreachableKey{}).(*unreachableFlag); ok {
		f.set = true
	}
}

// servePage runs the page's handler into a recorder: a 200 is kept and sent; an answer the
// database's outage spoiled is replaced by the kept copy when there is one.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, next http.Handler) {
	flag := &unreachableFlag{}
	r = r.WithContext(context.WithValue(r.Context(), unreachableKey{}, flag))
	rec := &recorder{header: w.Header()}
	next.ServeHTTP(rec, r)
	if flag.set && s.serveKept(w, r) {
		return
	}
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	if rec.code == http.StatusOK && r.Method == http.MethodGet {
		s.kept.put(r.URL.RequestURI(), rec.buf.Bytes())
	}
	w.WriteHeader(rec.code)
	_, _ = w.Write(rec.buf.Bytes())
}
