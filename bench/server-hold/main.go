// Command server-hold measures what a visitor of the results server sees while it is abused:
// clients that send an upload's headers and then trickle its body, from many loopback addresses
// (127.0.0.0/8), and optionally the database stopped and started again under that load. A
// reader fetches the home, board and search pages at a fixed rate and the table gives its
// latencies and statuses; an uploader records every upload acknowledged (201), and at the end
// each is looked up (an acknowledged upload lost is counted).
//
//	go run ./bench/server-hold -db 'postgres://postgres@127.0.0.1:55471/hold?sslmode=disable' -duration 60s
//	go run ./bench/server-hold -db … -tricklers 0                           # the quiet baseline
//	go run ./bench/server-hold -db … -outage-at 20s -outage-for 10s \
//	    -stop 'pg_ctl -D DATA -m immediate stop' -start 'pg_ctl -D DATA -w start'
//
// Every connection is on loopback; the server listens on 127.0.0.1 only.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/server"
	"github.com/iomark/iomark/internal/store"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.dsn, "db", "", "database URL (sqlite:PATH or postgres://…)")
	flag.DurationVar(&cfg.duration, "duration", 60*time.Second, "how long the load runs")
	flag.IntVar(&cfg.tricklers, "tricklers", 200, "clients trickling upload bodies at once")
	flag.IntVar(&cfg.addrs, "addresses", 50, "loopback addresses the tricklers come from (127.0.1.1 on)")
	flag.Float64Var(&cfg.readPerS, "reads", 5, "page fetches a second by the reader (home, board, search in turn)")
	flag.Float64Var(&cfg.upPerS, "uploads", 2, "honest uploads a second (each from its own address)")
	flag.DurationVar(&cfg.outageAt, "outage-at", 0, "run -stop this long after the start (0: no outage)")
	flag.DurationVar(&cfg.outageFor, "outage-for", 10*time.Second, "then -start after this long")
	flag.StringVar(&cfg.stopCmd, "stop", "", "shell command that stops the database")
	flag.StringVar(&cfg.startCmd, "start", "", "shell command that starts it again")
	flag.Parse()
	if cfg.dsn == "" || cfg.addrs < 1 || cfg.addrs > 250 {
		fmt.Fprintln(os.Stderr, "server-hold: give -db, and -addresses from 1 to 250")
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "server-hold:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	dsn                 string
	duration            time.Duration
	tricklers, addrs    int
	readPerS, upPerS    float64
	outageAt, outageFor time.Duration
	stopCmd, startCmd   string
}

type sample struct {
	at     time.Duration // since the start
	lat    time.Duration
	status int // 0: transport error
}

func run(cfg config) error {
	ctx := context.Background()
	st, err := store.Open(ctx, cfg.dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := server.SeedPublished(ctx, st); err != nil {
		return err
	}
	logs := &bytes.Buffer{}
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logs.Write(p)
	}), nil))
	// Limits as iomark serve has them, except the per-address upload budget of the honest
	// uploader's many addresses, which the bench does not measure.
	srv, err := server.New(st, server.Options{Logger: logger})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	o := cfg.load(ln.Addr().String(), base)
	srv.Close()

	// Every acknowledged upload must be there.
	lost := 0
	for _, id := range o.acked {
		// From the store: the truth, and no request limit in the way.
		if _, _, err := st.GetRun(ctx, id); err != nil {
			lost++
		}
	}

	cfg.report(st.Backend(), o, lost)
	logMu.Lock()
	for _, want := range []string{"the database is unreachable", "the database is reachable again"} {
		fmt.Printf("log lines %q: %d\n", want, bytes.Count(logs.Bytes(), []byte(want)))
	}
	logMu.Unlock()
	return nil
}

// outcome is what the load saw: the reader's and the uploader's requests, the uploads
// acknowledged, how the tricklers were answered, and when the outage began and ended.
type outcome struct {
	reads, ups     []sample
	acked          []string
	trickleAnswers map[int]*atomic.Int64
	outageLog      []string
}

// load runs the tricklers, the reader, the uploader and the outage against the server at addr
// (base is its URL) for cfg.duration, and returns what they saw.
func (cfg config) load(addr, base string) outcome {
	start := time.Now()
	end := start.Add(cfg.duration)
	var wg sync.WaitGroup
	// Tricklers: headers announcing 512 KiB, then a byte every 500 ms, until answered; again.
	trickleAnswers := map[int]*atomic.Int64{}
	var taMu sync.Mutex
	countAnswer := func(code int) {
		taMu.Lock()
		c := trickleAnswers[code]
		if c == nil {
			c = &atomic.Int64{}
			trickleAnswers[code] = c
		}
		taMu.Unlock()
		c.Add(1)
	}
	for i := range cfg.tricklers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from := fmt.Sprintf("127.0.1.%d", 1+i%cfg.addrs)
			for time.Now().Before(end) {
				code := trickle(addr, from, end)
				countAnswer(code)
				if code != 408 && time.Now().Before(end) {
					time.Sleep(time.Second)
				}
			}
		}()
	}
	// The reader.
	var reads []sample
	var readMu sync.Mutex
	pages := []string{"/", "/board?name=" + urlQuery("Raspberry Pi 4 Model B"), "/search?q=samsung"}
	reader := client("127.0.0.2")
	wg.Add(1)
	go func() {
		defer wg.Done()
		every(cfg.readPerS, end, func(i int) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				code := get(reader, base+pages[i%len(pages)])
				readMu.Lock()
				reads = append(reads, sample{at: t0.Sub(start), lat: time.Since(t0), status: code})
				readMu.Unlock()
			}()
		})
	}()
	// The honest uploader: records what was acknowledged.
	var acked []string
	var ups []sample
	var upMu sync.Mutex
	if cfg.upPerS > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			every(cfg.upPerS, end, func(i int) {
				id := fmt.Sprintf("hold-%d-%d", start.UnixNano(), i)
				c := client(fmt.Sprintf("127.0.2.%d", 1+i%250))
				t0 := time.Now()
				code := post(c, base, id)
				upMu.Lock()
				ups = append(ups, sample{at: t0.Sub(start), lat: time.Since(t0), status: code})
				if code == http.StatusCreated {
					acked = append(acked, id)
				}
				upMu.Unlock()
			})
		}()
	}
	var outageLog []string
	if cfg.outageAt > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(cfg.outageAt)
			outageLog = append(outageLog, fmt.Sprintf("%5.1f s  stop: %v", time.Since(start).Seconds(), shell(cfg.stopCmd)))
			time.Sleep(cfg.outageFor)
			outageLog = append(outageLog, fmt.Sprintf("%5.1f s  start: %v", time.Since(start).Seconds(), shell(cfg.startCmd)))
		}()
	}
	wg.Wait()
	return outcome{reads: reads, ups: ups, acked: acked, trickleAnswers: trickleAnswers, outageLog: outageLog}
}

// report prints the table of what the load saw; lost is how many acknowledged uploads the
// store does not hold.
func (cfg config) report(backend string, o outcome, lost int) {
	m := benchkit.ReadMachine()
	fmt.Printf("server-hold: %s, %s, %d cores, load %s\n", time.Now().UTC().Format(time.RFC3339), m.CPU, m.Cores, benchkit.LoadAvg())
	fmt.Printf("database %s, %s load, %d tricklers from %d addresses, reader %.0f/s, uploader %.0f/s\n",
		backend, cfg.duration, cfg.tricklers, cfg.addrs, cfg.readPerS, cfg.upPerS)
	for _, l := range o.outageLog {
		fmt.Println(l)
	}
	fmt.Println()
	printTable("reader (home, board, search)", o.reads, cfg.outageAt, cfg.outageFor)
	printTable("honest uploads", o.ups, cfg.outageAt, cfg.outageFor)
	fmt.Printf("uploads acknowledged %d, lost %d\n", len(o.acked), lost)
	fmt.Print("trickler answers:")
	var codes []int
	for c := range o.trickleAnswers {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	for _, c := range codes {
		fmt.Printf(" %d×%d", c, o.trickleAnswers[c].Load())
	}
	fmt.Println()
}

func printTable(name string, s []sample, outageAt, outageFor time.Duration) {
	fmt.Printf("%-30s %6s %8s %8s %8s %8s  statuses\n", name, "n", "p50 ms", "p99 ms", "max ms", "503")
	phases := []struct {
		name     string
		from, to time.Duration
	}{{"all", 0, 1 << 62}}
	if outageAt > 0 {
		phases = append(phases,
			struct {
				name     string
				from, to time.Duration
			}{"  before the outage", 0, outageAt},
			struct {
				name     string
				from, to time.Duration
			}{"  database stopped", outageAt, outageAt + outageFor},
			struct {
				name     string
				from, to time.Duration
			}{"  after it started", outageAt + outageFor, 1 << 62})
	}
	for _, p := range phases {
		var lats []float64
		statuses := map[int]int{}
		n503 := 0
		for _, x := range s {
			if x.at < p.from || x.at >= p.to {
				continue
			}
			lats = append(lats, float64(x.lat.Microseconds())/1000)
			statuses[x.status]++
			if x.status == 503 {
				n503++
			}
		}
		if len(lats) == 0 {
			continue
		}
		sort.Float64s(lats)
		q := func(f float64) float64 { return lats[min(len(lats)-1, int(f*float64(len(lats))))] }
		b, _ := json.Marshal(statuses)
		fmt.Printf("%-30s %6d %8.1f %8.1f %8.1f %8d  %s\n", p.name, len(lats), q(0.5), q(0.99), lats[len(lats)-1], n503, b)
	}
}

// trickle sends an upload's headers and a byte every 500 ms until the server answers; the
// status, or 0 when the connection failed.
func trickle(addr, from string, end time.Time) int {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		time.Sleep(100 * time.Millisecond)
		return 0
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "POST /api/v1/results HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 512<<10); err != nil {
		return 0
	}
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(newReader(c), nil)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case code := <-answered:
			return code
		case <-tick.C:
			if time.Now().After(end.Add(30 * time.Second)) {
				return -1
			}
			c.SetWriteDeadline(time.Now().Add(time.Second))
			c.Write([]byte(" "))
		}
	}
}

func client(from string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 8}}
}

func get(c *http.Client, u string) int {
	resp, err := c.Get(u)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// post uploads a generated record (placeholder figures: the bench measures the server, not a
// drive).
func post(c *http.Client, base, id string) int {
	rec := record.Run{SchemaVersion: record.SchemaVersion, ID: id, CreatedAt: time.Now().UTC(), ToolVersion: "bench", Profile: "quick",
		Host:   &probe.Board{Model: "Raspberry Pi 4 Model B Rev 1.4"},
		Device: &probe.Device{Class: probe.ClassMicroSD, Vendor: "Bench", Model: "Hold " + id[len(id)-1:], CapacityBytes: 64e9},
		Link:   []probe.Hop{{Bus: "sd", SpeedMbps: 400}},
		Tests:  []record.Test{{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, MBPerS: 40, IOPS: 40, Primary: "mb_per_s", Runs: 1}},
	}
	b, _ := json.Marshal(rec)
	resp, err := c.Post(base+"/api/v1/results", "application/json", bytes.NewReader(b))
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func shell(cmd string) error {
	if cmd == "" {
		return fmt.Errorf("no command given")
	}
	out, err := exec.Command("sh", "-c", cmd).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func newReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

func urlQuery(s string) string { return url.QueryEscape(s) }

// every calls f with the number of each tick, perS ticks a second, until end.
func every(perS float64, end time.Time, f func(i int)) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / perS))
	defer tick.Stop()
	for i := 0; time.Now().Before(end); i++ {
		<-tick.C
		f(i)
	}
}
