package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// MaxBodyBytes bounds an uploaded record (and any request body).
const MaxBodyBytes = 1 << 20

// Options tune a Server. The zero value is usable.
type Options struct {
	// BaseURL is prefixed to the permalinks the API returns, e.g. "https://iomark.example";
	// empty: permalinks are paths ("/result/ID"). The Host header is never used: anyone can set
	// it. `iomark serve` gives --base-url, or else the address it listens on.
	BaseURL string
	// Uploads per address, per network prefix (IPv4 /24, IPv6 /64) and for the whole server,
	// and requests per client (IPv4 address, IPv6 /64), per second with a burst. A rate of 0
	// takes the default (and its burst); a negative SubmitPerS disables every upload limit and a
	// negative RequestPerS the request limit (benchmarks, tests).
	SubmitPerS, PrefixSubmitPerS, GlobalSubmitPerS, RequestPerS     float64
	SubmitBurst, PrefixSubmitBurst, GlobalSubmitBurst, RequestBurst int
	// MaxInFlight requests are served at once (0: defaultInFlight); up to MaxQueued more wait
	// at most QueueWait for a turn (0: defaultQueued, defaultQueueWait); any beyond answer 503
	// with Retry-After. This bounds the memory requests hold whatever the concurrency.
	// Uploads (and any request that is not GET or HEAD) have slots and a queue of their own,
	// of the same sizes, so reads never wait behind them.
	MaxInFlight, MaxQueued int
	QueueWait              time.Duration
	// BodyMemory bounds the bytes of request bodies being received or waiting for a slot
	// (0: defaultBodyMemory, 32 MiB); body.go.
	BodyMemory int64
	// CacheBytes bounds the kept rankings and summaries, estimated (0: defaultCacheBytes).
	CacheBytes int64
	// CacheTTL is how long rankings and drive summaries are reused (0: 30 s; negative: never).
	CacheTTL time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the client (proxy.go);
	// none: forwarding headers are ignored.
	TrustedProxies []netip.Prefix
	// Logger receives errors and panics (with stacks); nil discards them.
	Logger *slog.Logger
	// BurstUploads uploads of one drive model within an hour from BurstAddrs addresses or more
	// hold every further one for review (0: defaultBurstUploads and defaultBurstAddrs;
	// negative: off). Counted per instance.
	BurstUploads, BurstAddrs int

	now       func() time.Time // tests set the clock
	bodyGrace time.Duration    // tests shorten body.go's grace (0: bodyGrace)
}

// Defaults of Options. Per address: one upload every 2 s with a burst of 20, and 20 requests a
// second with a burst of 100: far above a person's use and far below what hurts the server. Per
// /24 or /64: 2 uploads a second, burst 60 (a lab or a school behind one network). The whole
// server: 20 uploads a second, burst 300, well under what one SQLite writer commits (BENCHMARKS.md).
const (
	defaultSubmitPerS        = 0.5
	defaultSubmitBurst       = 20
	defaultPrefixSubmitPerS  = 2
	defaultPrefixSubmitBurst = 60
	defaultGlobalSubmitPerS  = 20
	defaultGlobalSubmitBurst = 300
	defaultRequestPerS       = 20
	defaultRequestBurst      = 100

	defaultInFlight   = 16
	defaultQueued     = 256
	defaultQueueWait  = 10 * time.Second
	defaultCacheBytes = 32 << 20
)

// Server serves the results site from a store.
type Server struct {
	st      *store.Store
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	submits *limiter
	bursts  *bursts
	reads   *limiter
	gate    *gate // pages and API reads
	uploads *gate // requests that change something
	bodies  *bodies
	cache   *cache // rankings and drive summaries
	// searches keeps search counts and drive lists apart from cache: many distinct queries
	// filling it must not push out the rankings.
	searches *cache
	ingest   *batcher
	watch    moderationWatch
	db       *dbWatch
	shared   *sharedLimits // upload limits in PostgreSQL; nil: in memory (submits)
	kept     *pageCopies   // the last rendering of each page, for outages
}

// moderationWatch notices moderation done by another process (iomark moderate) through the
// store's epoch, read at most once a second, and drops what the caches keep when it moves: a
// hidden result leaves the rankings at once, not after the caches' 30 s.
type moderationWatch struct {
	mu      sync.Mutex
	checked time.Time
	epoch   int64
	known   bool
}

func (s *Server) watchModeration(ctx context.Context) {
	if s.st == nil {
		return
	}
	now := s.opts.now()
	w := &s.watch
	w.mu.Lock()
	if w.known && now.Sub(w.checked) < time.Second && !now.Before(w.checked) {
		w.mu.Unlock()
		return
	}
	w.checked = now
	w.mu.Unlock()
	epoch, err := s.st.ModerationEpoch(ctx)
	if err != nil {
		if ctx.Err() == nil && s.db.check() == nil { // a down database is logged once, by dbWatch
			s.log.Warn("reading the moderation epoch", "err", err)
		}
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.known && epoch != w.epoch {
		s.cache.clear()
		s.searches.clear()
	}
	w.epoch, w.known = epoch, true
}

// withDefaults is opts with what it leaves unset (its fields' comments say which values those
// are) set to the defaults.
func (opts Options) withDefaults() Options {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	rate := func(perS *float64, burst *int, defPerS float64, defBurst int) {
		if *perS == 0 {
			*perS, *burst = defPerS, defBurst
		}
	}
	rate(&opts.SubmitPerS, &opts.SubmitBurst, defaultSubmitPerS, defaultSubmitBurst)
	rate(&opts.PrefixSubmitPerS, &opts.PrefixSubmitBurst, defaultPrefixSubmitPerS, defaultPrefixSubmitBurst)
	rate(&opts.GlobalSubmitPerS, &opts.GlobalSubmitBurst, defaultGlobalSubmitPerS, defaultGlobalSubmitBurst)
	rate(&opts.RequestPerS, &opts.RequestBurst, defaultRequestPerS, defaultRequestBurst)
	positiveOr(&opts.MaxInFlight, defaultInFlight)
	positiveOr(&opts.MaxQueued, defaultQueued)
	positiveOr(&opts.QueueWait, defaultQueueWait)
	positiveOr(&opts.bodyGrace, bodyGrace)
	positiveOr(&opts.BodyMemory, defaultBodyMemory)
	positiveOr(&opts.CacheBytes, defaultCacheBytes)
	// A negative CacheTTL or BurstUploads means off, so only 0 takes the default.
	if opts.CacheTTL == 0 {
		opts.CacheTTL = cacheTTL
	}
	if opts.BurstUploads == 0 {
		opts.BurstUploads = defaultBurstUploads
	}
	positiveOr(&opts.BurstAddrs, defaultBurstAddrs)
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	return opts
}

// positiveOr sets *v to def unless it is above zero.
func positiveOr[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// New returns a server over st. Call SeedPublished once to show the reference results.
func New(st *store.Store, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	if set := apiSchemas(); set.err != nil {
		return nil, fmt.Errorf("server: the API schemas do not compile: %w", set.err)
	}
	s := &Server{st: st, opts: opts, log: opts.Logger, mux: http.NewServeMux(),
		bursts: &bursts{window: burstWindow, max: opts.BurstUploads, addrs: opts.BurstAddrs, seen: map[string][]burstHit{}},
		submits: &limiter{now: opts.now, off: opts.SubmitPerS < 0, sets: []*buckets{
			newBuckets(opts.SubmitPerS, opts.SubmitBurst), newBuckets(opts.PrefixSubmitPerS, opts.PrefixSubmitBurst),
			newBuckets(opts.GlobalSubmitPerS, opts.GlobalSubmitBurst)}},
		reads:   &limiter{now: opts.now, off: opts.RequestPerS < 0, sets: []*buckets{newBuckets(opts.RequestPerS, opts.RequestBurst)}},
		gate:    newGate(opts.MaxInFlight, opts.MaxQueued, opts.QueueWait),
		uploads: newGate(opts.MaxInFlight, opts.MaxQueued, opts.QueueWait),
		bodies:  newBodies(opts.BodyMemory),
		// Rankings get three quarters of the cache bytes, searches the rest.
		cache:    newCache(opts.CacheTTL, opts.CacheBytes*3/4, opts.now),
		searches: newCache(opts.CacheTTL, opts.CacheBytes/4, opts.now),
		ingest:   newBatcher(st),
		db:       newDBWatch(st, opts.Logger),
		kept:     newPageCopies()}
	if st != nil && st.Backend() == "postgres" {
		s.shared = newSharedLimits(st, opts)
	}
	byPattern := map[string][]route{}
	var patterns []string
	seen := map[*Schema]bool{}
	for _, r := range s.routes() {
		params := r.params
		if r.op != nil {
			params = r.op.params
		}
		for _, p := range params {
			if err := compileSchema(p.schema, seen); err != nil {
				return nil, fmt.Errorf("server: parameter %s of %s: %w", p.name, r.pattern, err)
			}
		}
		if byPattern[r.pattern] == nil {
			patterns = append(patterns, r.pattern)
		}
		byPattern[r.pattern] = append(byPattern[r.pattern], r)
	}
	for _, p := range patterns {
		s.mux.Handle(p, s.dispatch(byPattern[p]))
	}
	if byPattern["/"] == nil {
		s.mux.HandleFunc("/", s.unknownPath)
	}
	return s, nil
}

// Close stops saving uploads after the batch in progress; call it after the HTTP server shut
// down. Later uploads answer 503.
func (s *Server) Close() {
	s.ingest.close()
	s.db.close()
}

// dispatch serves one path's routes by method: a method the path does not have answers 405 with
// the Allow header naming those it has (GET implies HEAD), as JSON under /api/. Parameters are
// checked against the route's declared schemas before its handler runs.
func (s *Server) dispatch(routes []route) http.Handler {
	var allow []string
	for _, r := range routes {
		allow = append(allow, r.method)
		if r.method == http.MethodGet {
			allow = append(allow, http.MethodHead)
		}
	}
	sort.Strings(allow)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method := r.Method
		if method == http.MethodHead {
			method = http.MethodGet
		}
		for _, rt := range routes {
			if rt.method != method {
				continue
			}
			params := rt.params
			if rt.op != nil {
				params = rt.op.params
			}
			if err := checkParams(params, r); err != nil {
				var fe *fieldError
				if errors.As(err, &fe) {
					s.failField(w, r, http.StatusBadRequest, fe.Error(), fe.Field)
					return
				}
			}
			rt.handler(w, r)
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.fail(w, r, http.StatusMethodNotAllowed, r.Method+" is not served here; this path answers "+strings.Join(allow, ", "))
	})
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
	// Monitors and load balancers ask often and must always get an answer.
	if r.URL.Path == healthzPath {
		s.mux.ServeHTTP(w, r)
		return
	}
	r = withClient(r, s.resolveClient(r))
	client := clientKey(clientIP(r))
	if wait, ok := s.reads.allow(client); !ok {
		h.Set("Retry-After", fmt.Sprint(wait))
		s.fail(w, r, http.StatusTooManyRequests, fmt.Sprintf("too many requests from your address; retry in %d s", wait))
		return
	}
	// A body is read before the request takes a slot (body.go): a slow client holds a reading
	// place of its own, never a slot.
	if hasBody(r) {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes+1)
		free, ok := s.readBody(w, r, client)
		if !ok {
			return
		}
		defer free()
	}
	// Embedded files cost nothing to send: they skip the queue, so pages keep their styles.
	// Uploads queue apart: pages and API reads never wait behind them.
	if !strings.HasPrefix(r.URL.Path, "/static/") && r.URL.Path != "/api/v1/openapi.json" {
		g := s.gate
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			g = s.uploads
		}
		if !g.enter(r.Context()) {
			h.Set("Retry-After", "1")
			s.fail(w, r, http.StatusServiceUnavailable, "the server is busy; retry in a second")
			return
		}
		defer g.leave()
	}
	if !strings.HasPrefix(r.URL.Path, "/static/") && r.URL.Path != "/api/v1/openapi.json" {
		if s.db.isDown() {
			if keptPage(r) && s.serveKept(w, r) {
				return
			}
			s.unreachable(w, r)
			return
		}
		s.watchModeration(r.Context())
	}
	if keptPage(r) {
		s.servePage(w, r, s.mux)
		return
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
	renderError(w, code, msg)
}

// internal logs err and answers 500 without its text, which may name files or databases; a
// full disk, or a database that does not answer a ping, answers 503 with Retry-After.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	if errors.Is(err, store.ErrFull) {
		s.log.Error("the database's disk is full", "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", fullRetryAfterS)
		s.fail(w, r, http.StatusServiceUnavailable, "the server's disk is full; retry later")
		return
	}
	if s.db.check() != nil { // logged once by dbWatch, not per request
		s.unreachable(w, r)
		return
	}
	s.log.Error("serving request", "path", r.URL.Path, "err", err)
	s.fail(w, r, http.StatusInternalServerError, "internal error; the server log has the details")
}

// fullRetryAfterS is what a full disk asks clients to wait: an operator has to free space.
const fullRetryAfterS = "300"

func isAPI(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == healthzPath
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// baseURL is the scheme and host permalinks start with ("" for paths).
func (s *Server) baseURL() string { return s.opts.BaseURL }
