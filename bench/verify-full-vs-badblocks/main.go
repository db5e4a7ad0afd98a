// Command verify-full-vs-badblocks runs `iomark verify DEV --full` beside badblocks and fio on
// the same emulated cards (internal/testkit/lab: a FUSE card behind a loop device whose rates,
// unreadable stretches and slow zones are set here), and prints Markdown tables: wall time,
// read rate, bytes read and written at the card, and whether the bad regions agree, with
// iomark/peer ratios.
//
//	sudo go run ./bench/verify-full-vs-badblocks [-iomark PATH] [-size-mib 1024] [-raw FILE]
//
// Comparisons:
//   - read: a clean card and one with an unreadable stretch: `iomark verify DEV --full
//     --read-only` (and `--full`, with its probe) against `badblocks -sv -b 4096 DEV` and a
//     whole-device `fio --rw=read --bs=1M --direct=1` (psync, QD1).
//   - rewrite: `iomark verify DEV --full --rewrite` against `badblocks -nsv -b 4096 DEV`
//     (both keep the data).
//   - destructive: `iomark verify DEV --full --destructive` against `badblocks -wsv -b 4096
//     DEV` (four patterns, its default) and `badblocks -wsv -t random` (one pattern, as iomark).
//
// Needs root, /dev/fuse, the loop driver, e2fsprogs (badblocks) and fio. Progress goes to
// stderr, the Markdown to stdout.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

var logf = benchkit.Logger("verify-full-vs-badblocks")

type options struct {
	iomarkPath string
	sizeMiB    int64
	rawPath    string
}

func main() {
	var o options
	benchkit.IomarkFlag(&o.iomarkPath)
	flag.Int64Var(&o.sizeMiB, "size-mib", 1024, "size of the read cards, MiB (the write cards are a quarter)")
	flag.StringVar(&o.rawPath, "raw", "", "also write every run's output to this JSON file")
	check := func() error {
		if o.sizeMiB < 64 || flag.NArg() > 0 {
			return errors.New("-size-mib must be ≥ 64; no arguments")
		}
		return nil
	}
	benchkit.Main("verify-full-vs-badblocks", check, func(ctx context.Context) error { return run(ctx, o) })
}

// A USB flash drive: 100 MB/s reads and 40 MB/s writes, 0.2 ms per command.
func stick(name string, size int64) lab.CardSpec {
	return lab.CardSpec{Name: name, ClaimedBytes: size, ReadMBps: 100, WriteMBps: 40,
		ReadLatency: 200 * time.Microsecond, WriteLatency: 200 * time.Microsecond, Seed: 7}
}

type rawRun struct {
	Card, Tool string
	Args       []string
	Output     string
	WallS      float64
	Err        string `json:",omitempty"`
}

type bench struct {
	o      options
	iomark *benchkit.Iomark
	raw    []rawRun
}

// result is one tool's run on one card.
type result struct {
	tool                    string
	wallS                   float64
	mbPerS                  float64 // the tool's own read rate where it reports one
	bytesRead, bytesWritten int64   // at the card
	bad                     [][2]int64
	unchanged               bool
}

func run(ctx context.Context, o options) error {
	iomark, err := benchkit.Start(ctx, o.iomarkPath, "verify-full-vs-badblocks-", logf,
		lab.CardAvailable, benchkit.NeedTools("apt-get install e2fsprogs fio", "badblocks", "fio"))
	if err != nil {
		return err
	}
	defer iomark.Cleanup()
	b := &bench{o: o, iomark: iomark}
	// The probe's journal goes to iomark's data directory: one of the bench's own.
	if err := os.MkdirAll(benchData, 0o700); err != nil {
		return err
	}
	defer os.RemoveAll(benchData)
	defer func() {
		if o.rawPath != "" {
			benchkit.WriteJSON(o.rawPath, b.raw)
		}
	}()
	var out bytes.Buffer
	benchkit.ReadMachine().Header(&out, iomark.Version)

	size := o.sizeMiB << 20
	if err := b.readScans(ctx, &out, size); err != nil {
		return err
	}
	if err := b.writeScans(ctx, &out, size/4); err != nil {
		return err
	}
	fmt.Fprintf(&out, "Load average %s at the end.\n", benchkit.LoadAvg())
	os.Stdout.Write(out.Bytes())
	return nil
}

// withBadStretch is spec with 5 MiB unreadable from 30% of the card on, and that stretch as
// the regions a scan should find.
func withBadStretch(spec lab.CardSpec) (lab.CardSpec, [][2]int64) {
	badAt, badLen := spec.ClaimedBytes*3/10/4096*4096+12<<10, int64(5<<20)
	spec.BadRegions = []lab.BadRegion{{OffsetBytes: badAt, LengthBytes: badLen, Kind: lab.BadIOError}}
	return spec, [][2]int64{{badAt, badAt + badLen}}
}

// readScans sets the read-only scans side by side on a clean card of size bytes and on one
// with an unreadable stretch.
func (b *bench) readScans(ctx context.Context, out *bytes.Buffer, size int64) error {
	clean := stick("clean", size)
	damaged, truth := withBadStretch(stick("bad", size))
	fmt.Fprintf(out, "##### Read scan: %s cards at 100 MB/s reads (0.2 ms a command)\n\n", fmtMiB(size))
	fmt.Fprintf(out, "| card | tool | wall, s | read rate, MB/s | read at the card | bad regions found | card as before |\n|---|---|--:|--:|--:|---|---|\n")
	var ratios []string
	for _, c := range []struct {
		name  string
		spec  lab.CardSpec
		truth [][2]int64
	}{{"clean", clean, nil}, {"unreadable 5 MiB at 30%", damaged, truth}} {
		var rs []result
		for _, tool := range []string{"fio", "iomark-ro", "badblocks", "iomark-full"} {
			r, err := b.runOn(ctx, c.spec, tool)
			if err != nil {
				return err
			}
			rs = append(rs, r)
			fmt.Fprintf(out, "| %s | %s | %.1f | %.1f | %s | %s | %v |\n", c.name, toolWords(tool), r.wallS, r.mbPerS,
				fmtMB(r.bytesRead), regionsWords(r.bad, c.truth), r.unchanged)
		}
		fio, ro, bb := rs[0], rs[1], rs[2]
		ratios = append(ratios, fmt.Sprintf("%s card: iomark --full --read-only reads at %.2f× fio's rate and takes %.2f× fio's time and %.2f× badblocks -sv's",
			c.name, ro.mbPerS/fio.mbPerS, ro.wallS/fio.wallS, ro.wallS/bb.wallS))
	}
	fmt.Fprintf(out, "\n%s.\n\n", strings.Join(ratios, "; "))
	return nil
}

// writeScans sets the scans that write side by side, on cards of wsize bytes with an
// unreadable stretch.
func (b *bench) writeScans(ctx context.Context, out *bytes.Buffer, wsize int64) error {
	wdamaged, wtruth := withBadStretch(stick("wbad", wsize))
	fmt.Fprintf(out, "##### Write scans: %s cards at 40 MB/s writes, 100 MB/s reads, an unreadable 5 MiB at 30%%\n\n", fmtMiB(wsize))
	fmt.Fprintf(out, "| test | tool | wall, s | written at the card | read at the card | bad regions found | data kept |\n|---|---|--:|--:|--:|---|---|\n")
	var ratios []string
	for _, pair := range [][]string{{"iomark-rewrite", "badblocks-n"}, {"iomark-destructive", "badblocks-w", "badblocks-w-random"}} {
		var rs []result
		for _, tool := range pair {
			r, err := b.runOn(ctx, wdamaged, tool)
			if err != nil {
				return err
			}
			rs = append(rs, r)
			kept := fmt.Sprint(r.unchanged)
			if strings.Contains(tool, "destructive") || strings.HasPrefix(tool, "badblocks-w") {
				kept = "no (destructive)"
			}
			fmt.Fprintf(out, "| %s | %s | %.1f | %s | %s | %s | %s |\n", pair[0][len("iomark-"):], toolWords(tool), r.wallS,
				fmtMB(r.bytesWritten), fmtMB(r.bytesRead), regionsWords(r.bad, wtruth), kept)
		}
		for _, r := range rs[1:] {
			ratios = append(ratios, fmt.Sprintf("%s takes %.2f× %s's time", toolWords(rs[0].tool), rs[0].wallS/r.wallS, toolWords(r.tool)))
		}
	}
	fmt.Fprintf(out, "\n%s.\n\n", strings.Join(ratios, "; "))
	return nil
}

var benchData = filepath.Join(os.TempDir(), fmt.Sprintf("verify-full-bench-data-%d", os.Getpid()))

func toolWords(tool string) string {
	return map[string]string{
		"fio":                "fio --rw=read --bs=1M --direct=1",
		"iomark-ro":          "iomark verify --full --read-only",
		"iomark-full":        "iomark verify --full (probe, then read scan)",
		"badblocks":          "badblocks -sv -b 4096",
		"iomark-rewrite":     "iomark verify --full --rewrite",
		"badblocks-n":        "badblocks -nsv -b 4096",
		"iomark-destructive": "iomark verify --full --destructive",
		"badblocks-w":        "badblocks -wsv -b 4096 (4 patterns)",
		"badblocks-w-random": "badblocks -wsv -b 4096 -t random",
	}[tool]
}

// runOn brings up a fresh card from spec, runs tool on it and takes the card down.
func (b *bench) runOn(ctx context.Context, spec lab.CardSpec, tool string) (result, error) {
	d, err := lab.UpCard(spec, lab.CardAttach{})
	if err != nil {
		return result{}, err
	}
	defer d.Down()
	state := d.Card.Digest()
	dev := d.Dev
	args := b.args(tool, dev)
	before := d.Card.Counters()
	logf("%s on %s", strings.Join(args, " "), spec.Name)
	start := time.Now()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	if strings.HasPrefix(tool, "iomark") {
		cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+benchData)
	}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	runErr := cmd.Run()
	wall := time.Since(start).Seconds()
	var ee *exec.ExitError
	if errors.As(runErr, &ee) && (strings.HasPrefix(tool, "iomark") && ee.ExitCode() == 3 || tool == "fio") {
		runErr = nil // iomark: the drive is damaged (exit 3); fio: it read what it could
	}
	raw := rawRun{Card: spec.Name, Tool: tool, Args: args, Output: so.String() + se.String(), WallS: wall}
	if runErr != nil {
		raw.Err = runErr.Error()
	}
	b.raw = append(b.raw, raw)
	if runErr != nil {
		return result{}, fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), runErr, se.String())
	}
	after := d.Card.Counters()
	r := result{tool: tool, wallS: wall, bytesRead: after.BytesRead - before.BytesRead, bytesWritten: after.BytesWritten - before.BytesWritten,
		unchanged: d.Card.Digest() == state}
	err = r.read(so.Bytes(), spec.ClaimedBytes)
	return r, err
}

// args is tool's command line on dev.
func (b *bench) args(tool, dev string) []string {
	switch tool {
	case "fio":
		return []string{"fio", "--name=seq", "--filename=" + dev, "--rw=read", "--bs=1M", "--direct=1", "--ioengine=psync",
			"--output-format=json", "--continue_on_error=read"}
	case "iomark-ro":
		return []string{b.iomark.Path, "verify", dev, "--full", "--read-only", "--json", "--no-save"}
	case "iomark-full":
		return []string{b.iomark.Path, "verify", dev, "--full", "--confirm", dev, "--json", "--no-save"}
	case "iomark-rewrite":
		return []string{b.iomark.Path, "verify", dev, "--full", "--rewrite", "--confirm", dev, "--json", "--no-save"}
	case "iomark-destructive":
		return []string{b.iomark.Path, "verify", dev, "--full", "--destructive", "--confirm", dev, "--json", "--no-save"}
	case "badblocks":
		return []string{"badblocks", "-sv", "-b", "4096", dev}
	case "badblocks-n":
		return []string{"badblocks", "-nsv", "-b", "4096", dev}
	case "badblocks-w":
		return []string{"badblocks", "-wsv", "-b", "4096", dev}
	case "badblocks-w-random":
		return []string{"badblocks", "-wsv", "-b", "4096", "-t", "random", dev}
	}
	return nil
}

// read takes what the tool printed, out, into r: its read rate and the bad regions it found
// (claimed is the card's size, for badblocks' rate over its whole run).
func (r *result) read(out []byte, claimed int64) error {
	switch {
	case r.tool == "fio":
		var j struct {
			Jobs []struct {
				Read struct {
					BwBytes float64 `json:"bw_bytes"`
				} `json:"read"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal(out, &j); err == nil && len(j.Jobs) > 0 {
			r.mbPerS = j.Jobs[0].Read.BwBytes / 1e6
		}
	case strings.HasPrefix(r.tool, "iomark"):
		var j struct {
			BadRegions []struct {
				StartByte int64 `json:"start_byte"`
				EndByte   int64 `json:"end_byte"`
			} `json:"bad_regions"`
			Surface struct {
				ReadMBPerS float64 `json:"read_mb_per_s"`
			} `json:"surface"`
		}
		if err := json.Unmarshal(out, &j); err != nil {
			return fmt.Errorf("%s printed no JSON: %v\n%s", r.tool, err, string(out))
		}
		for _, g := range j.BadRegions {
			r.bad = append(r.bad, [2]int64{g.StartByte, g.EndByte})
		}
		r.mbPerS = j.Surface.ReadMBPerS
	default: // badblocks: one bad block number (4096-byte blocks) per line on stdout
		var blocks []int64
		for _, line := range strings.Fields(string(out)) {
			if n, err := strconv.ParseInt(line, 10, 64); err == nil {
				blocks = append(blocks, n)
			}
		}
		sort.Slice(blocks, func(i, j int) bool { return blocks[i] < blocks[j] })
		for _, n := range blocks {
			if k := len(r.bad); k > 0 && r.bad[k-1][1] == n*4096 {
				r.bad[k-1][1] += 4096
			} else {
				r.bad = append(r.bad, [2]int64{n * 4096, n*4096 + 4096})
			}
		}
		if r.tool == "badblocks" && r.wallS > 0 {
			r.mbPerS = float64(claimed) / r.wallS / 1e6 // over its whole run: it prints no rate
		}
	}
	return nil
}

// regionsWords lists the regions found, and whether they match the truth exactly.
func regionsWords(found, truth [][2]int64) string {
	if len(found) == 0 && len(truth) == 0 {
		return "none (right)"
	}
	var parts []string
	for _, f := range found {
		parts = append(parts, fmt.Sprintf("%d-%d", f[0], f[1]))
	}
	s := strings.Join(parts, ", ")
	if s == "" {
		s = "none"
	}
	exact := len(found) == len(truth)
	for i := range found {
		if exact && found[i] != truth[i] {
			exact = false
		}
	}
	if exact {
		return s + " (exact)"
	}
	var tp []string
	for _, t := range truth {
		tp = append(tp, fmt.Sprintf("%d-%d", t[0], t[1]))
	}
	return s + " (truth " + strings.Join(tp, ", ") + ")"
}

func fmtMB(n int64) string  { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
func fmtMiB(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
