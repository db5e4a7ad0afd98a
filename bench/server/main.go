// Command server measures the results server under load: it fills a database with generated
// results (through the HTTP API for the ingest measurement, then directly through the store),
// and times the search, drive and home pages. It prints one table; BENCHMARKS.md quotes it.
//
//	go run ./bench/server -n 1000000 -db sqlite:/tmp/bench.db
//	go run ./bench/server -n 1000000 -db postgres://…
//
// The results are generated, not measured: names are "Bench …" and figures are drawn around
// fixed medians, so pages have realistic shapes (many drives, many boards, spread per drive).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/server"
	"github.com/iomark/iomark/internal/store"
)

func main() {
	var (
		dsn        = flag.String("db", "", "database (default: a SQLite file in a temp dir)")
		n          = flag.Int("n", 1000000, "results to have in the database")
		viaHTTP    = flag.Int("http", 20000, "of which uploaded through POST /api/v1/results (the ingest measurement)")
		workers    = flag.Int("workers", 8, "concurrent page clients (and uploaders unless -uploaders)")
		uploaders  = flag.Int("uploaders", 0, "concurrent uploaders for the ingest measurement (default: -workers)")
		drives     = flag.Int("drives", 5000, "distinct drive models")
		requests   = flag.Int("requests", 300, "requests per page measured")
		cpuProfile = flag.String("cpuprofile", "", "write this process's CPU profile (server, store and clients) to this file")
		onlyFlag   = flag.String("only", "", "measure only the pages whose name contains this")
		fillOnly   = flag.Bool("fill-only", false, "fill the database to n less -http results and stop (measure later)")
		memoryMiB  = flag.Int64("memory", server.DefaultMemoryMiB, "the server's memory budget in MiB, as iomark serve --memory")
		sweepList  = flag.String("sweep", "", "instead of the page table: a clients sweep, e.g. 8,32,100,200, sampling the server process's peak RSS")
		perClient  = flag.Int("sweep-requests", 20, "pages each client of the sweep requests")
		serveOnly  = flag.Bool("serve", false, "internal: be the server process of a sweep")
		serverURL  = flag.String("server-url", "", "sweep this running server (e.g. an iomark serve of another commit) instead of starting one; with -server-pid")
		serverPID  = flag.Int("server-pid", 0, "the process of -server-url, whose peak RSS the sweep reads")
	)
	flag.Parse()
	if *serveOnly {
		if err := serveChild(*dsn, *memoryMiB); err != nil {
			fmt.Fprintln(os.Stderr, "bench/server -serve:", err)
			os.Exit(1)
		}
		return
	}
	var clients []int
	for _, f := range strings.Split(*sweepList, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		c, err := strconv.Atoi(f)
		if err != nil || c < 1 {
			fmt.Fprintf(os.Stderr, "bench/server: -sweep %q: give numbers of clients, e.g. 8,32,100,200\n", *sweepList)
			os.Exit(2)
		}
		clients = append(clients, c)
	}
	only = *onlyFlag
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench/server:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *uploaders <= 0 {
		*uploaders = *workers
	}
	cfg := config{dsn: *dsn, n: *n, viaHTTP: *viaHTTP, workers: *workers, uploaders: *uploaders, drives: *drives,
		requests: *requests, fillOnly: *fillOnly, memoryMiB: *memoryMiB, sweep: clients, perClient: *perClient,
		serverURL: *serverURL, serverPID: *serverPID}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench/server:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

var boards = []string{"Raspberry Pi 5 Model B Rev 1.0", "Raspberry Pi 4 Model B Rev 1.4", "Raspberry Pi 4 Model B Rev 1.5",
	"Raspberry Pi 3 Model B Plus Rev 1.3", "Raspberry Pi Zero 2 W Rev 1.0", "Raspberry Pi Compute Module 4 Rev 1.0",
	"Radxa ROCK 5B", "Orange Pi 5", "ODROID-M1", "Generic x86-64", "Bench Board A", "Bench Board B"}

var classes = []struct {
	class, bus string
	seqMBPerS  float64 // median of the generated figure
}{
	{probe.ClassMicroSD, "sd", 45}, {probe.ClassUSBFlash, "usb", 120}, {probe.ClassUSBSSD, "usb", 380},
	{probe.ClassNVMe, "pcie", 800}, {probe.ClassSATA, "sata", 280}, {probe.ClassEMMC, "mmc", 150},
}

// boardCeiling is the fastest a board's own bus carries for a class at any setting compare's
// table documents; 0 when the table has none (an unknown board, a class without a setting).
func boardCeiling(board, class string) float64 {
	fam, best := compare.Family(board, ""), 0.0
	for _, s := range compare.Settings() {
		for _, c := range s.Classes {
			if s.Family == fam && c == class && s.Ceiling.MBPerS > best {
				best = s.Ceiling.MBPerS
			}
		}
	}
	return best
}

type gen struct {
	drives int
	base   time.Time
}

func (g gen) record(i int, rng *rand.Rand) *record.Run {
	d := int(rng.ExpFloat64()*float64(g.drives)/6) % g.drives // a few drives are popular
	c := classes[d%len(classes)]
	board := boards[int(rng.ExpFloat64()*2)%len(boards)]
	model := fmt.Sprintf("Bench %s %04d", c.class, d)
	// Every figure stays inside the class's ceiling (internal/server plausible.go), as a real
	// drive's would: an upload the server doubts is not listed, and the pages would measure less.
	seq := c.seqMBPerS * (0.8 + 0.4*rng.Float64()) * (1 + float64(d%7)/10)
	// And inside what the board it names carries (the server checks that too, boardcheck.go).
	if ceil := boardCeiling(board, c.class); ceil > 0 {
		seq = min(seq, 0.9*ceil)
	}
	r := &record.Run{SchemaVersion: record.SchemaVersion, ID: fmt.Sprintf("bench-%08d", i),
		CreatedAt: g.base.Add(time.Duration(i) * time.Second), ToolVersion: "bench", Profile: "quick",
		Host:   &probe.Board{Model: board},
		Device: &probe.Device{Class: c.class, Vendor: "Bench", Model: model, CapacityBytes: uint64(32+d%4*32) * 1e9},
		Link:   []probe.Hop{{Bus: c.bus}},
		Tests: []record.Test{
			{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, Direct: true, MBPerS: seq, IOPS: seq, Primary: "mb_per_s", Runs: 3},
			{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 1, Jobs: 1, Direct: true, MBPerS: seq * 0.7, IOPS: seq * 0.7, Primary: "mb_per_s", Runs: 3},
			{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, Direct: true, IOPS: seq * 40, MBPerS: seq * 40 * 4096 / 1e6, Primary: "iops", Runs: 3},
			{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, Direct: true, IOPS: seq * 20, MBPerS: seq * 20 * 4096 / 1e6, Primary: "iops", Runs: 3},
		}}
	// Two results in three are whole quick runs with their iomark score; the third is a custom
	// job of four tests without one. Every test is O_DIRECT, as quick's are, so each result has
	// the headline figures the comparison model ranks by (4K random write, for want of a
	// PiBenchmarks score on any class here).
	if i%3 == 2 {
		r.Profile = "custom"
		return r
	}
	r.Tests = append(r.Tests,
		record.Test{Name: "rand-read-4k-qd32", Op: "randread", BS: 4096, QD: 32, Jobs: 1, Direct: true, IOPS: seq * 120, MBPerS: seq * 120 * 4096 / 1e6, Primary: "iops", Runs: 3},
		record.Test{Name: "rand-write-4k-qd32", Op: "randwrite", BS: 4096, QD: 32, Jobs: 1, Direct: true, IOPS: seq * 50, MBPerS: seq * 50 * 4096 / 1e6, Primary: "iops", Runs: 3})
	if s, ok := profile.IomarkScore(r.Tests); ok {
		r.Scores.Iomark = &s
	}
	return r
}

// config is one run of the benchmark (the flags).
type config struct {
	dsn                                              string
	n, viaHTTP, workers, uploaders, drives, requests int
	fillOnly                                         bool
	memoryMiB                                        int64
	sweep                                            []int // clients of a sweep; none: the page table
	perClient                                        int
	serverURL                                        string // a running server to sweep
	serverPID                                        int
}

// page is one page measured: path(i) is the i-th request's path.
type page struct {
	name string
	path func(i int) string
}

func run(c config) error {
	dsn, n, viaHTTP, workers, drives, fillOnly := c.dsn, c.n, c.viaHTTP, c.workers, c.drives, c.fillOnly
	ctx := context.Background()
	if dsn == "" {
		dir, err := os.MkdirTemp("", "iomark-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		dsn = "sqlite:" + filepath.Join(dir, "bench.db")
	}
	g := gen{drives: drives, base: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if c.serverURL != "" {
		// Another program's server: its database is not opened here (opening migrates it).
		printMachine()
		return sweep("", c.memoryMiB, c.sweep, c.perClient, benchPages(g), c.serverURL, c.serverPID)
	}
	// As iomark serve opens it: at most server.DBConns connections, SQLite's cache from the budget.
	plan := server.PlanMemory(c.memoryMiB << 20)
	st, err := store.OpenWith(ctx, dsn, plan.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	have, err := st.CountRuns(ctx, store.Filter{})
	if err != nil {
		return err
	}
	printMachine()
	fmt.Printf("database %s (%s): %d results before\n", redact(dsn), st.Backend(), have)

	// Fill straight into the store up to n less what the API will add, so ingest is measured
	// against a full database.
	if fillTo := n - viaHTTP; fillTo > have {
		start := time.Now()
		if err := fill(ctx, st, g, have, fillTo, workers); err != nil {
			return err
		}
		fmt.Printf("filled to %d results in %.0f s (direct saves, batches of %d)\n", fillTo, time.Since(start).Seconds(), fillBatch)
		have = fillTo
	}
	if fillOnly {
		return nil
	}
	if len(c.sweep) > 0 {
		fmt.Printf("clients sweep: %d pages per client, cycling through: %s\n", c.perClient, pageNames(benchPages(g)))
		return sweep(dsn, c.memoryMiB, c.sweep, c.perClient, benchPages(g), c.serverURL, c.serverPID)
	}

	return serveAndMeasure(ctx, c, st, g, plan.CacheBytes, have)
}

// serveAndMeasure serves st in this process, ingests c.viaHTTP results through the API (new
// ids from have on), and times the start-up rankings and each page.
func serveAndMeasure(ctx context.Context, c config, st *store.Store, g gen, cacheBytes int64, have int) error {
	viaHTTP, workers, uploaders, requests := c.viaHTTP, c.workers, c.uploaders, c.requests
	srv, err := server.New(st, server.Options{SubmitPerS: -1, RequestPerS: -1, CacheBytes: cacheBytes})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(ln, srv) //nolint:errcheck // ends with the process
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: max(workers, uploaders)}}

	// Ingest through the API: new ids from have on.
	ingested, ingestS, err := ingest(client, base, g, have, viaHTTP, uploaders)
	if err != nil {
		return err
	}
	total, err := st.CountRuns(ctx, store.Filter{})
	if err != nil {
		return err
	}

	pages := benchPages(g)
	// iomark serve computes the home page's rankings once it listens (Server.Warm); timed here
	// on its own, the home page's first request is then as a visitor after the start sees it.
	warmStart := time.Now()
	if err := srv.Warm(ctx); err != nil {
		return fmt.Errorf("computing the home rankings: %w", err)
	}
	warm := time.Since(warmStart)
	fmt.Printf("\n%d results; %d clients, %d requests per page\n\n| measurement | value |\n|---|---|\n", total, workers, requests)
	fmt.Printf("| home rankings computed at start (serve does it once listening) | %.1f ms |\n", float64(warm)/1e6)
	if ingested > 0 {
		fmt.Printf("| ingest via POST /api/v1/results, %d clients | %.0f results/s (%d in %.1f s) |\n", uploaders, float64(ingested)/ingestS, ingested, ingestS)
	}
	for _, p := range pages {
		if !strings.Contains(p.name, only) {
			continue
		}
		// The first request computes what the server keeps (rankings, drive summaries): it is
		// reported on its own, then the page is timed warm.
		cold, err := measure(client, base, func(int) string { return p.path(requests) }, 1, 1) // an i the run does not ask
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		lat, err := measure(client, base, p.path, requests, workers)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		fmt.Printf("| %s: first / p50 / p99 | %.1f / %.1f / %.1f ms |\n", p.name, ms(cold, 0), ms(lat, 0.5), ms(lat, 0.99))
	}
	return nil
}

// benchPages are the pages measured; path(i) is the i-th request's path (most pages ask the same
// one each time, one search a new one).
func benchPages(g gen) []page {
	// Pages: a popular drive, searches for a word in 1 of 6 names and in every name, a rare
	// one, a board, home.
	popular := g.record(0, rand.New(rand.NewPCG(9, 9))).DeviceKey()
	same := func(path string) func(int) string { return func(int) string { return path } }
	return []page{
		{"home", same("/")},
		{"search 'bench nvme' (1 in 6 results)", same("/search?q=bench+nvme")},
		{"search 'bench' (every result)", same("/search?q=bench")},
		{"search 'bench nvme' on one board", same("/search?q=bench+nvme&board=" + url.QueryEscape(boards[1]))},
		{"search 'bench 0042' by score (one drive)", same("/search?q=bench+0042&sort=score&order=desc")},
		{"search API 'bench 0042' (one drive)", same("/api/v1/search?q=bench+0042")},
		// 5 words × 12 boards × 6 classes × 4 capacities: each of 1,440 requests is a new
		// search, so nothing the server keeps can answer it; many find nothing, as real
		// searches with several filters do.
		{"search, a new query each request", func(i int) string {
			return fmt.Sprintf("/search?q=bench+%d&board=%s&class=%s&capacity_gb=%d", i%5,
				url.QueryEscape(boards[i/5%12]), classes[i/60%6].class, 32*(1+i/360%4))
		}},
		{"drive (popular)", same("/drive?key=" + url.QueryEscape(popular))},
		{"board (most results)", same("/board?name=" + url.QueryEscape(boards[0]))},
		{"result", same("/result/bench-00000001")},
	}
}

func pageNames(pages []page) string {
	var names []string
	for _, p := range pages {
		names = append(names, p.name)
	}
	return strings.Join(names, ", ")
}

// ingest uploads count generated results with ids from first on, from workers clients, and
// returns how many and how long it took.
func ingest(client *http.Client, base string, g gen, first, count, workers int) (int, float64, error) {
	failed := failures{first: "first failed upload:"}
	start := time.Now()
	claimRanges(workers, 1, int64(first), int64(first+count), 1, func(i, _ int64, rng *rand.Rand) {
		body, _ := json.Marshal(g.record(int(i), rng))
		resp, err := client.Post(base+"/api/v1/results", "application/json", bytes.NewReader(body))
		if err == nil && resp.StatusCode != http.StatusCreated {
			err = fmt.Errorf("status %s", resp.Status)
		}
		if resp != nil {
			resp.Body.Close()
		}
		failed.note(err)
	})
	if failed.Load() > 0 {
		return 0, 0, fmt.Errorf("%d uploads failed", failed.Load())
	}
	return count, time.Since(start).Seconds(), nil
}

// fill saves the generated results with ids from first to upTo straight into the store. SQLite
// takes one writer at a time, and writers queueing on its busy timeout are not served in
// order (one can wait past the timeout), so there it saves from one goroutine, as the server's
// single SQLite saver does.
func fill(ctx context.Context, st *store.Store, g gen, first, upTo, workers int) error {
	if st.Backend() == "sqlite" {
		workers = 1
	}
	var filled atomic.Int64
	failed := failures{first: "first failed save:"}
	stop := progress(&filled, int64(upTo-first))
	defer stop()
	claimRanges(workers, 2, int64(first), int64(upTo), fillBatch, func(from, to int64, rng *rand.Rand) {
		var batch []store.BatchRun
		for i := from; i < to; i++ {
			row, tests, err := runstore.Row(g.record(int(i), rng), store.SourceSubmitted)
			if err != nil {
				failed.note(err)
				continue
			}
			batch = append(batch, store.BatchRun{Run: row, Tests: tests})
		}
		for _, err := range st.SaveBatch(ctx, batch) {
			failed.note(err)
		}
		filled.Add(int64(len(batch)))
	})
	if failed.Load() > 0 {
		return fmt.Errorf("%d direct saves failed", failed.Load())
	}
	return nil
}

// claimRanges has workers goroutines take ranges [from, to) of up to step ids, from first up
// to upTo, until none is left, and waits for them; each goroutine has a random source of its
// own (rand's sources are not safe for concurrent use), seeded by its number and stream.
func claimRanges(workers int, stream uint64, first, upTo, step int64, do func(from, to int64, rng *rand.Rand)) {
	var next atomic.Int64
	next.Store(first)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), stream))
			for {
				from := next.Add(step) - step
				if from >= upTo {
					return
				}
				do(from, min(from+step, upTo), rng)
			}
		}()
	}
	wg.Wait()
}

// failures counts the failures of many goroutines and prints the first on stderr, after first.
type failures struct {
	atomic.Int64
	first string
}

func (f *failures) note(err error) {
	if err != nil && f.Add(1) == 1 {
		fmt.Fprintln(os.Stderr, f.first, err)
	}
}

// only limits the pages measured (-only).
var only string

// fillBatch is how many generated results one direct save commits.
const fillBatch = 500

// progress prints how far the fill is every 10 s on stderr until the returned func is called.
func progress(done *atomic.Int64, total int64) (stop func()) {
	quit := make(chan struct{})
	start := time.Now()
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				d := done.Load()
				fmt.Fprintf(os.Stderr, "filling: %d of %d (%.0f/s)\n", d, total, float64(d)/time.Since(start).Seconds())
			}
		}
	}()
	return func() { close(quit) }
}

// printMachine prints the line that says where the bench ran.
func printMachine() {
	m := benchkit.ReadMachine()
	fmt.Printf("%s, %s, %d cores, kernel %s, load %s\n", m.Date, m.CPU, m.Cores, m.Kernel, benchkit.LoadAvg())
}

// measure requests url count times from workers clients and returns the sorted latencies.
// path(i) is the i-th request's path: most pages ask the same one each time, one search asks
// a different one each time so that nothing the server keeps can answer it.
func measure(client *http.Client, base string, path func(i int) string, count, workers int) ([]time.Duration, error) {
	var (
		lat  latencies
		errs atomic.Int64
		wg   sync.WaitGroup
		left atomic.Int64
	)
	left.Store(int64(count))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := left.Add(-1)
				if i < 0 {
					break
				}
				resp, d, err := timedGet(client, base+path(int(i)))
				if err != nil || resp.StatusCode != http.StatusOK {
					errs.Add(1)
					continue
				}
				lat.add(d)
			}
		}()
	}
	wg.Wait()
	if errs.Load() > 0 {
		return nil, fmt.Errorf("%d of %d requests failed", errs.Load(), count)
	}
	return lat.sorted(), nil
}

// timedGet requests url, reads the whole answer and closes it, and returns the response (its
// status) and how long that took.
func timedGet(client *http.Client, url string) (*http.Response, time.Duration, error) {
	t := time.Now()
	resp, err := client.Get(url)
	if err != nil {
		return nil, 0, err
	}
	var sink bytes.Buffer
	_, _ = sink.ReadFrom(resp.Body)
	resp.Body.Close()
	return resp, time.Since(t), nil
}

// latencies collects the times of the answered requests from many clients at once.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// sorted is every time added, shortest first; call it once the clients are done.
func (l *latencies) sorted() []time.Duration {
	sort.Slice(l.d, func(i, j int) bool { return l.d[i] < l.d[j] })
	return l.d
}

func ms(sorted []time.Duration, q float64) float64 {
	return float64(sorted[int(q*float64(len(sorted)-1))]) / 1e6
}

func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		u.User = url.User(u.User.Username())
		return u.String()
	}
	return dsn
}
