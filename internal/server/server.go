package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// MaxBodyBytes bounds an uploaded record (and any request body).
const MaxBodyBytes = 1 << 20

// Options tune a Server. The zero value is usable.
type Options struct {
	// BaseURL is prefixed to the permalinks the API returns, e.g. "https://iomark.example";
	// empty: the scheme and Host of each request.
	BaseURL string
	// Per client address: submissions and all requests, per second with a burst. A rate of 0
	// takes the defaults (and their burst); a negative rate disables that limit (benchmarks,
	// tests).
	SubmitPerS, RequestPerS   float64
	SubmitBurst, RequestBurst int
	// CacheTTL is how long rankings and drive summaries are reused (0: 30 s; negative: never).
	CacheTTL time.Duration
	// Logger receives errors and panics (with stacks); nil discards them.
	Logger *slog.Logger

	now func() time.Time // tests set the clock
}

// Defaults of Options: one upload every 2 s with a burst of 20 and 20 requests per second with a
// burst of 100 per address are far above a person's use and far below what hurts the server.
const (
	defaultSubmitPerS   = 0.5
	defaultSubmitBurst  = 20
	defaultRequestPerS  = 20
	defaultRequestBurst = 100
)

// Server serves the results site from a store.
type Server struct {
	st      *store.Store
	opts    Options
	log     *slog.Logger
	pages   *pages
	mux     *http.ServeMux
	submits *limiter
	reads   *limiter
	cache   *cache // rankings and drive summaries
	// searches keeps search counts and drive lists apart from cache: many distinct queries
	// filling it must not push out the rankings.
	searches *cache
	ingest   *batcher
}

// New returns a server over st. Call SeedPublished once to show the reference results.
func New(st *store.Store, opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	if opts.SubmitPerS == 0 {
		opts.SubmitPerS, opts.SubmitBurst = defaultSubmitPerS, defaultSubmitBurst
	}
	if opts.RequestPerS == 0 {
		opts.RequestPerS, opts.RequestBurst = defaultRequestPerS, defaultRequestBurst
	}
	if opts.CacheTTL == 0 {
		opts.CacheTTL = cacheTTL
	}
	p, err := loadPages()
	if err != nil {
		return nil, err
	}
	s := &Server{st: st, opts: opts, log: opts.Logger, pages: p, mux: http.NewServeMux(),
		submits: newLimiter(opts.SubmitPerS, opts.SubmitBurst, opts.now),
		reads:   newLimiter(opts.RequestPerS, opts.RequestBurst, opts.now),
		cache:   newCache(opts.CacheTTL, opts.now), searches: newCache(opts.CacheTTL, opts.now),
		ingest: newBatcher(st)}
	for _, r := range s.routes() {
		s.mux.HandleFunc(r.method+" "+r.pattern, r.handler)
	}
	return s, nil
}

// Close stops saving uploads after the batch in progress; call it after the HTTP server shut
// down. Later uploads answer 503.
func (s *Server) Close() {
	s.ingest.close()
}

// route is one method and path the server answers; api routes are in the OpenAPI document.
type route struct {
	method, pattern string
	api             bool
	handler         http.HandlerFunc
}

func (s *Server) routes() []route {
	return []route{
		{"GET", "/{$}", false, s.homePage},
		{"GET", "/search", false, s.searchPage},
		{"GET", "/drive", false, s.drivePage},
		{"GET", "/result/{id}", false, s.resultPage},
		{"GET", "/result/{id}/raw", false, s.resultRaw},
		{"GET", "/board", false, s.boardPage},
		{"GET", "/compare", false, s.comparePage},
		{"GET", "/value", false, s.valuePage},
		{"GET", "/static/{file}", false, s.static},
		{"GET", "/", false, s.unknownPath},

		{"GET", "/api/v1/home", true, s.homeAPI},
		{"GET", "/api/v1/search", true, s.searchAPI},
		{"GET", "/api/v1/drive", true, s.driveAPI},
		{"POST", "/api/v1/results", true, s.submitAPI},
		{"GET", "/api/v1/results/{id}", true, s.resultAPI},
		{"GET", "/api/v1/results/{id}/raw", true, s.resultRaw},
		{"GET", "/api/v1/board", true, s.boardAPI},
		{"GET", "/api/v1/compare", true, s.compareAPI},
		{"GET", "/api/v1/value", true, s.valueAPI},
		{"GET", "/api/v1/openapi.json", true, s.openAPI},
	}
}

// unknownPath answers 404 in the site's own page (or JSON under /api/).
func (s *Server) unknownPath(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, "nothing here: "+r.URL.Path+"; the API is described at /api/v1/openapi.json")
}

// ServeHTTP applies the limits and headers every response shares, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			// Never a stack trace to the client; the log has it.
			s.log.Error("panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			s.fail(w, r, http.StatusInternalServerError, "internal error; the server log has the details")
		}
	}()
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	if wait, ok := s.reads.allow(clientAddr(r)); !ok {
		h.Set("Retry-After", fmt.Sprint(wait))
		s.fail(w, r, http.StatusTooManyRequests, fmt.Sprintf("too many requests from your address; retry in %d s", wait))
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	}
	s.mux.ServeHTTP(w, r)
}

// apiError is every JSON error body.
type apiError struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

// fail answers an error as JSON under /api/ and as a plain page elsewhere.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	s.failField(w, r, code, msg, "")
}

func (s *Server) failField(w http.ResponseWriter, r *http.Request, code int, msg, field string) {
	if isAPI(r) {
		writeJSON(w, code, apiError{Error: msg, Field: field})
		return
	}
	s.pages.renderError(w, code, msg)
}

// internal logs err and answers 500 without its text, which may name files or databases.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	s.log.Error("serving request", "path", r.URL.Path, "err", err)
	s.fail(w, r, http.StatusInternalServerError, "internal error; the server log has the details")
}

func isAPI(r *http.Request) bool {
	return len(r.URL.Path) >= 5 && r.URL.Path[:5] == "/api/"
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// baseURL is the scheme and host permalinks start with.
func (s *Server) baseURL(r *http.Request) string {
	if s.opts.BaseURL != "" {
		return s.opts.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
