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
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/server"
	"github.com/iomark/iomark/internal/store"
)

func main() {
	var (
		dsn      = flag.String("db", "", "database (default: a SQLite file in a temp dir)")
		n        = flag.Int("n", 1000000, "results to have in the database")
		viaHTTP  = flag.Int("http", 20000, "of which uploaded through POST /api/v1/results (the ingest measurement)")
		workers  = flag.Int("workers", 8, "concurrent uploaders and page clients")
		drives   = flag.Int("drives", 5000, "distinct drive models")
		requests = flag.Int("requests", 300, "requests per page measured")
	)
	flag.Parse()
	if err := run(*dsn, *n, *viaHTTP, *workers, *drives, *requests); err != nil {
		fmt.Fprintln(os.Stderr, "bench/server:", err)
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
	{probe.ClassNVMe, "pcie", 800}, {probe.ClassSATA, "sata", 500}, {probe.ClassEMMC, "mmc", 150},
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
	seq := c.seqMBPerS * (0.8 + 0.4*rng.Float64()) * (1 + float64(d%7)/10)
	return &record.Run{SchemaVersion: record.SchemaVersion, ID: fmt.Sprintf("bench-%08d", i),
		CreatedAt: g.base.Add(time.Duration(i) * time.Second), ToolVersion: "bench", Profile: "quick",
		Host:   &probe.Board{Model: board},
		Device: &probe.Device{Class: c.class, Vendor: "Bench", Model: model, CapacityBytes: uint64(32+d%4*32) * 1e9},
		Link:   []probe.Hop{{Bus: c.bus}},
		Tests: []record.Test{
			{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 8, Jobs: 1, MBPerS: seq, IOPS: seq, Primary: "mb_per_s", Runs: 3},
			{Name: "seq-write-1m", Op: "write", BS: 1 << 20, QD: 8, Jobs: 1, MBPerS: seq * 0.7, IOPS: seq * 0.7, Primary: "mb_per_s", Runs: 3},
			{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, IOPS: seq * 40, MBPerS: seq * 40 * 4096 / 1e6, Primary: "iops", Runs: 3},
			{Name: "rand-write-4k-qd1", Op: "randwrite", BS: 4096, QD: 1, Jobs: 1, IOPS: seq * 20, MBPerS: seq * 20 * 4096 / 1e6, Primary: "iops", Runs: 3},
		}}
}

func run(dsn string, n, viaHTTP, workers, drives, requests int) error {
	ctx := context.Background()
	if dsn == "" {
		dir, err := os.MkdirTemp("", "iomark-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		dsn = "sqlite:" + filepath.Join(dir, "bench.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	srv, err := server.New(st, server.Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(ln, srv) //nolint:errcheck // ends with the process
	base := "http://" + ln.Addr().String()
	g := gen{drives: drives, base: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	have, err := st.CountRuns(ctx, store.Filter{})
	if err != nil {
		return err
	}
	fmt.Printf("database %s: %d results before\n", redact(dsn), have)

	// Ingest through the API.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	var next atomic.Int64
	next.Store(int64(have))
	upTo := int64(min(n, have+viaHTTP))
	start := time.Now()
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for {
				i := next.Add(1) - 1
				if i >= upTo {
					return
				}
				body, _ := json.Marshal(g.record(int(i), rng))
				resp, err := client.Post(base+"/api/v1/results", "application/json", bytes.NewReader(body))
				if err != nil || resp.StatusCode != http.StatusCreated {
					failed.Add(1)
				}
				if resp != nil {
					resp.Body.Close()
				}
			}
		}()
	}
	wg.Wait()
	ingested := int(upTo) - have
	ingestS := time.Since(start).Seconds()
	if failed.Load() > 0 {
		return fmt.Errorf("%d uploads failed", failed.Load())
	}

	// The rest straight into the store in batches of fillBatch, as the server's group commit
	// saves them, to reach n quickly.
	fillStart := time.Now()
	next.Store(upTo)
	var filled atomic.Int64
	stop := progress(&filled, int64(n)-upTo)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 2))
			for {
				from := next.Add(fillBatch) - fillBatch
				if from >= int64(n) {
					return
				}
				var batch []store.BatchRun
				for i := from; i < min(from+fillBatch, int64(n)); i++ {
					row, tests, err := g.record(int(i), rng).StoreRow(store.SourceSubmitted)
					if err != nil {
						failed.Add(1)
						continue
					}
					batch = append(batch, store.BatchRun{Run: row, Tests: tests})
				}
				for _, err := range st.SaveBatch(ctx, batch) {
					if err != nil {
						failed.Add(1)
					}
				}
				filled.Add(int64(len(batch)))
			}
		}()
	}
	wg.Wait()
	stop()
	if failed.Load() > 0 {
		return fmt.Errorf("%d direct saves failed", failed.Load())
	}
	fmt.Printf("filled to %d results in %.0f s (direct saves)\n", n, time.Since(fillStart).Seconds())

	// Pages: a popular drive, a rare one, searches, home.
	popular := g.record(0, rand.New(rand.NewPCG(9, 9))).DeviceKey()
	pages := []struct{ name, path string }{
		{"home", "/"},
		{"search 'bench nvme'", "/search?q=bench+nvme"},
		{"search API 'bench 0042'", "/api/v1/search?q=bench+0042"},
		{"drive (popular)", "/drive?key=" + url.QueryEscape(popular)},
		{"board", "/board?name=" + url.QueryEscape(boards[0])},
	}
	fmt.Printf("\n| measurement | value |\n|---|---|\n")
	fmt.Printf("| ingest via POST /api/v1/results, %d workers | %.0f results/s (%d in %.1f s) |\n", workers, float64(ingested)/ingestS, ingested, ingestS)
	for _, p := range pages {
		// The first request computes what the server keeps (home and board rankings): it is
		// reported on its own, then the page is timed warm.
		cold, err := measure(client, base+p.path, 1, 1)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		fmt.Printf("| %s, first request | %.1f ms |\n", p.name, ms(cold, 0))
		lat, err := measure(client, base+p.path, requests, workers)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		fmt.Printf("| %s p50 / p99 | %.1f / %.1f ms |\n", p.name, ms(lat, 0.5), ms(lat, 0.99))
	}
	return nil
}

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

// measure requests url count times from workers clients and returns the sorted latencies.
func measure(client *http.Client, u string, count, workers int) ([]time.Duration, error) {
	var (
		mu   sync.Mutex
		lat  []time.Duration
		errs atomic.Int64
		wg   sync.WaitGroup
		left atomic.Int64
	)
	left.Store(int64(count))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				t := time.Now()
				resp, err := client.Get(u)
				if err != nil || resp.StatusCode != http.StatusOK {
					errs.Add(1)
					if resp != nil {
						resp.Body.Close()
					}
					continue
				}
				var sink bytes.Buffer
				_, _ = sink.ReadFrom(resp.Body)
				resp.Body.Close()
				d := time.Since(t)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if errs.Load() > 0 {
		return nil, fmt.Errorf("%d of %d requests failed", errs.Load(), count)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat, nil
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
