// Command verify-vs-f3 runs `iomark verify` beside f3's tools, and `iomark info --geometry`
// beside flashbench -a, on the same emulated flash cards (internal/testkit/lab: a FUSE card behind a
// loop device, its capacity, failure, rates and erase block set here), and prints Markdown
// tables: time to verdict, bytes written and read (counted at the card, whatever each tool
// says), and whether each found the truth, with iomark/peer ratios.
//
//	sudo go run ./bench/verify-vs-f3 [-iomark PATH] [-pairs 2] [-parts probe,fill,geometry] [-raw FILE]
//
// Parts:
//   - probe: 32 GB-claimed cards written at 20 MB/s (genuine; fake with its writes lost past 4 GB;
//     fake wrapping at 8 GB): `iomark verify DEV --confirm DEV` against `f3probe --time-ops DEV`,
//     both non-destructive, in alternating order, each checked to leave the card as it was.
//   - fill: a 1 GB card with ext4: `iomark verify DIR` against f3write then f3read, and the
//     card's sequential write rate as fio measures it (1 MiB O_DIRECT, QD1); and a fake one.
//   - geometry: 4 GiB cards whose reads across a 1, 4 or 8 MiB boundary cost 300 µs more, and
//     one without: `iomark info --geometry DEV` against `flashbench -a DEV`, whose table is
//     read by its README's rule (the size from which the "diff" column jumps).
//
// Needs root, /dev/fuse, the loop driver, and the peers from Debian: f3, flashbench, fio.
// Progress goes to stderr, the Markdown to stdout.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

type options struct {
	iomarkPath string
	pairs      int
	parts      map[string]bool
	rawPath    string
}

func main() {
	var o options
	var parts string
	benchkit.IomarkFlag(&o.iomarkPath)
	flag.IntVar(&o.pairs, "pairs", 2, "alternating runs of each tool per card")
	flag.StringVar(&parts, "parts", "probe,fill,geometry", "which comparisons to run")
	flag.StringVar(&o.rawPath, "raw", "", "also write every run's output to this JSON file")
	check := func() error {
		o.parts = map[string]bool{}
		for _, p := range strings.Split(parts, ",") {
			o.parts[strings.TrimSpace(p)] = true
		}
		if o.pairs < 1 || flag.NArg() > 0 {
			return errors.New("-pairs must be ≥ 1; no arguments")
		}
		return nil
	}
	benchkit.Main("verify-vs-f3", check, func(ctx context.Context) error { return run(ctx, o) })
}

var logf = benchkit.Logger("verify-vs-f3")

// The emulated SD card: 20 MB/s sequential writes and 40 MB/s reads, with the per-command
// time a slow card takes for small random I/O (1 ms per write, 0.3 ms per read).
func sdCard(name string, claimed int64) lab.CardSpec {
	return lab.CardSpec{Name: name, ClaimedBytes: claimed, WriteMBps: 20, ReadMBps: 40,
		WriteLatency: time.Millisecond, ReadLatency: 300 * time.Microsecond, Seed: 42}
}

const claimed32GB = 32_000_000_000 / 512 * 512

type rawRun struct {
	Part, Card, Tool string
	Output           string
	WallS            float64
	Err              string `json:",omitempty"`
}

type bench struct {
	o      options
	iomark *benchkit.Iomark
	raw    []rawRun
}

func run(ctx context.Context, o options) error {
	iomark, err := benchkit.Start(ctx, o.iomarkPath, "verify-vs-f3-", logf, lab.CardAvailable,
		benchkit.NeedTools("apt-get install f3 flashbench fio e2fsprogs", "f3probe", "f3write", "f3read", "flashbench", "fio", "mkfs.ext4"))
	if err != nil {
		return err
	}
	defer iomark.Cleanup()
	b := &bench{o: o, iomark: iomark}
	defer func() {
		if o.rawPath != "" {
			benchkit.WriteJSON(o.rawPath, b.raw)
		}
	}()
	f3v, _ := exec.Command("f3probe", "--version").CombinedOutput()
	var out bytes.Buffer
	benchkit.ReadMachine().Header(&out, iomark.Version, benchkit.FirstLine(f3v))
	for _, part := range []string{"probe", "fill", "geometry"} {
		if !o.parts[part] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch part {
		case "probe":
			err = b.probe(ctx, &out)
		case "fill":
			err = b.fill(ctx, &out)
		case "geometry":
			err = b.geometry(ctx, &out)
		}
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(&out, "Load average %s at the end.\n", benchkit.LoadAvg())
	os.Stdout.Write(out.Bytes())
	return nil
}

// exec runs a command, keeping its output for -raw.
func (b *bench) exec(ctx context.Context, part, card, tool string, args ...string) (string, float64, error) {
	start := time.Now()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && tool == "iomark" && ee.ExitCode() == 3:
		err = nil // iomark verify: the drive is fake (exit status 3), the run is fine
	case errors.As(err, &ee) && tool == "f3probe" && ee.ExitCode() >= 100:
		err = nil // f3probe: 100 + the fake type (f3probe.c), the run is fine
	}
	r := rawRun{Part: part, Card: card, Tool: tool, Output: so.String() + se.String(), WallS: wall}
	if err != nil {
		r.Err = err.Error()
		err = fmt.Errorf("%s on %s: %v\n%s", strings.Join(args, " "), card, err, se.String())
	}
	b.raw = append(b.raw, r)
	return so.String(), wall, err
}

// probeRun is one tool's run on one card.
type probeRun struct {
	verdictS, wallS         float64
	bytesWritten, bytesRead int64
	usable                  int64
	fake                    bool
	changed                 bool // the card did not hold what it held before the run
}

func (b *bench) probe(ctx context.Context, out *bytes.Buffer) error {
	cards := []struct {
		name string
		spec lab.CardSpec
		real int64
	}{
		{"genuine 32 GB", sdCard("genuine", claimed32GB), claimed32GB},
		{"fake 32 GB, writes lost past 4 GB", withFake(sdCard("limbo", claimed32GB), 4_000_000_000/512*512, lab.FailDropZeros), 4_000_000_000 / 512 * 512},
		{"fake 32 GB, wraps at 8 GiB", withFake(sdCard("wrap", claimed32GB), 8<<30, lab.FailWrap), 8 << 30},
	}
	fmt.Fprintf(out, "##### Probe: `iomark verify DEV` beside `f3probe DEV` (both non-destructive), 32 GB-claimed cards at 20 MB/s\n\n")
	fmt.Fprintf(out, "| card | tool | verdict (usable bytes) | time to verdict, s | total time, s | written at the card | read at the card | card as before |\n|---|---|---|--:|--:|--:|--:|---|\n")
	type agg struct{ verdictS, wallS, written []float64 }
	ratios := map[string]*agg{}
	for _, c := range cards {
		d, err := lab.UpCard(c.spec, lab.CardAttach{})
		if err != nil {
			return err
		}
		state := d.Card.Digest()
		var runs [2][]probeRun
		for pair := 0; pair < b.o.pairs && ctx.Err() == nil; pair++ {
			order := []int{0, 1}
			if pair%2 == 1 {
				order = []int{1, 0}
			}
			for _, tool := range order {
				before := d.Card.Counters()
				var r probeRun
				var err error
				if tool == 0 {
					logf("%s: iomark verify (pair %d)", c.name, pair+1)
					r, err = b.iomarkProbe(ctx, c.name, d.Dev)
				} else {
					logf("%s: f3probe (pair %d)", c.name, pair+1)
					r, err = b.f3probe(ctx, c.name, d.Dev)
				}
				if err != nil {
					d.Down()
					return err
				}
				after := d.Card.Counters()
				r.bytesWritten, r.bytesRead = after.BytesWritten-before.BytesWritten, after.BytesRead-before.BytesRead
				if d.Card.Digest() != state {
					// f3's documentation warns that its restore may not put every fake drive
					// back exactly: note it, and give the next run a fresh card (one seed, one
					// initial content).
					r.changed = true
					logf("%s: %s left the card changed; bringing up a fresh one", c.name, []string{"iomark", "f3probe"}[tool])
					if err := d.Down(); err != nil {
						return err
					}
					if d, err = lab.UpCard(c.spec, lab.CardAttach{}); err != nil {
						return err
					}
				}
				runs[tool] = append(runs[tool], r)
				row(out, c.name, []string{"iomark", "f3probe"}[tool], r, c.real)
			}
		}
		logf("%s: done; the card held %.1f GB of written data", c.name, float64(d.Card.StoredBytes())/1e9)
		if err := d.Down(); err != nil {
			return err
		}
		a := &agg{}
		for i := range runs[0] {
			a.verdictS = append(a.verdictS, runs[0][i].verdictS/runs[1][i].verdictS)
			a.wallS = append(a.wallS, runs[0][i].wallS/runs[1][i].wallS)
			a.written = append(a.written, float64(runs[0][i].bytesWritten)/float64(runs[1][i].bytesWritten))
		}
		ratios[c.name] = a
	}
	fmt.Fprintf(out, "\n| card | iomark/f3probe: time to verdict | total time | bytes written |\n|---|--:|--:|--:|\n")
	for _, c := range cards {
		a := ratios[c.name]
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", c.name, ratioText(a.verdictS), ratioText(a.wallS), ratioText(a.written))
	}
	fmt.Fprintln(out)
	return nil
}

func withFake(s lab.CardSpec, real int64, f lab.Failure) lab.CardSpec {
	s.RealBytes, s.Failure = real, f
	return s
}

func row(out *bytes.Buffer, card, tool string, r probeRun, real int64) {
	verdict := "genuine"
	if r.fake {
		verdict = "fake"
	}
	mark := ""
	if (r.fake && (r.usable > real || float64(real-r.usable) > 0.01*float64(real))) || (!r.fake && real != claimed32GB) {
		mark = " ✗"
	}
	restored := "yes"
	if r.changed {
		restored = "**no**"
	}
	fmt.Fprintf(out, "| %s | %s | %s (%d)%s | %.1f | %.1f | %s | %s | %s |\n", card, tool, verdict, r.usable, mark, r.verdictS, r.wallS, mb(r.bytesWritten), mb(r.bytesRead), restored)
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// ratioText prints the median ratio and, with more than one pair, the range.
func ratioText(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	if len(s) == 1 {
		return fmt.Sprintf("%.3f", med)
	}
	return fmt.Sprintf("%.3f (%.3f–%.3f)", med, s[0], s[len(s)-1])
}

func (b *bench) iomarkProbe(ctx context.Context, card, dev string) (probeRun, error) {
	so, wall, err := b.exec(ctx, "probe", card, "iomark", b.iomark.Path, "verify", dev, "--confirm", dev, "--json", "--no-save")
	if err != nil {
		return probeRun{}, err
	}
	var res struct {
		Verdict     string  `json:"verdict"`
		UsableBytes int64   `json:"usable_bytes"`
		VerdictS    float64 `json:"verdict_s"`
	}
	if err := json.Unmarshal([]byte(so), &res); err != nil {
		return probeRun{}, fmt.Errorf("iomark verify printed %q: %v", so, err)
	}
	return probeRun{verdictS: res.VerdictS, wallS: wall, usable: res.UsableBytes, fake: res.Verdict == "fake"}, nil
}

var (
	f3Usable = regexp.MustCompile(`\*Usable\* size:.*\((\d+) blocks\)`)
	f3Block  = regexp.MustCompile(`Physical block size:.*\(2\^(\d+) Bytes\)`)
	f3Time   = regexp.MustCompile(`Probe time: (.*)`)
)

func (b *bench) f3probe(ctx context.Context, card, dev string) (probeRun, error) {
	so, wall, err := b.exec(ctx, "probe", card, "f3probe", "f3probe", "--time-ops", dev)
	if err != nil {
		return probeRun{}, err
	}
	r := probeRun{wallS: wall, fake: strings.Contains(so, "Bad news")}
	um, bm := f3Usable.FindStringSubmatch(so), f3Block.FindStringSubmatch(so)
	if um == nil || bm == nil {
		return r, fmt.Errorf("f3probe printed no usable size:\n%s", so)
	}
	blocks, _ := strconv.ParseInt(um[1], 10, 64)
	order, _ := strconv.Atoi(bm[1])
	r.usable = blocks << order
	if tm := f3Time.FindStringSubmatch(so); tm != nil {
		r.verdictS = parseF3Time(strings.TrimSpace(tm[1]))
	}
	return r, nil
}

// parseF3Time reads f3's durations: 1'13", 10'06", 55.48s, 472.1ms, 2h03'10".
func parseF3Time(s string) float64 {
	var total float64
	for _, m := range regexp.MustCompile(`([\d.]+)(h|'|"|ms|us|s)`).FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		switch m[2] {
		case "h":
			total += v * 3600
		case "'":
			total += v * 60
		case "\"", "s":
			total += v
		case "ms":
			total += v / 1e3
		case "us":
			total += v / 1e6
		}
	}
	return total
}

func (b *bench) fill(ctx context.Context, out *bytes.Buffer) error {
	fmt.Fprintf(out, "##### Fill: `iomark verify DIR` beside `f3write DIR` + `f3read DIR`, 1 GB cards with ext4 at 20 MB/s\n\n")
	genuine := sdCard("fill", 1_000_000_000/512*512)
	d, err := lab.UpCard(genuine, lab.CardAttach{})
	if err != nil {
		return err
	}
	defer d.Down()
	// The card's own sequential write rate: fio twice (the machine is shared; the better of
	// the two is the card's), 512 MiB each, before the filesystem is made.
	var devMBps float64
	for i := 0; i < 2; i++ {
		fioOut, _, err := b.exec(ctx, "fill", "genuine 1 GB", "fio", "fio", "--name=seq", "--filename="+d.Dev, "--rw=write", "--bs=1m",
			"--direct=1", "--ioengine=psync", "--size=512m", "--output-format=json")
		if err != nil {
			return err
		}
		devMBps = math.Max(devMBps, fioWriteMBps(fioOut))
	}
	mnt, unmount, err := mkfsMount(d.Dev)
	if err != nil {
		return err
	}
	defer unmount()
	fmt.Fprintf(out, "The card's sequential write rate, fio 1 MiB O_DIRECT QD1 on the raw device (better of two 512 MiB runs): **%.1f MB/s** (configured: 20).\n\n", devMBps)
	fmt.Fprintf(out, "| tool | verdict | bytes tested | write MB/s | read MB/s | write rate / fio's | total time, s |\n|---|---|--:|--:|--:|--:|--:|\n")
	var iw, fw, it, ft []float64
	for pair := 0; pair < b.o.pairs && ctx.Err() == nil; pair++ {
		order := []int{0, 1}
		if pair%2 == 1 {
			order = []int{1, 0}
		}
		for _, tool := range order {
			if tool == 0 {
				logf("fill: iomark verify (pair %d)", pair+1)
				so, wall, err := b.exec(ctx, "fill", "genuine 1 GB", "iomark", b.iomark.Path, "verify", mnt, "--json", "--no-save")
				if err != nil {
					return err
				}
				var res struct {
					Verdict      string `json:"verdict"`
					ClaimedBytes int64  `json:"claimed_bytes"`
					Fill         struct {
						WriteMBPerS float64 `json:"write_mb_per_s"`
						ReadMBPerS  float64 `json:"read_mb_per_s"`
					} `json:"fill"`
				}
				if err := json.Unmarshal([]byte(so), &res); err != nil {
					return fmt.Errorf("iomark verify printed %q: %v", so, err)
				}
				iw, it = append(iw, res.Fill.WriteMBPerS), append(it, wall)
				fmt.Fprintf(out, "| iomark | %s | %s | %.1f | %.1f | %.3f | %.1f |\n", res.Verdict, mb(res.ClaimedBytes), res.Fill.WriteMBPerS, res.Fill.ReadMBPerS, res.Fill.WriteMBPerS/devMBps, wall)
			} else {
				logf("fill: f3write + f3read (pair %d)", pair+1)
				wo, ro, wall, err := b.f3WriteRead(ctx, "genuine 1 GB", mnt)
				if err != nil {
					return err
				}
				wr, rr := f3Speed(wo, "Average writing speed"), f3Speed(ro, "Average reading speed")
				lost := strings.Contains(ro, "Data LOST") && !regexp.MustCompile(`Data LOST: 0\.00 Byte`).MatchString(ro)
				verdict := "genuine"
				if lost {
					verdict = "data lost"
				}
				fw, ft = append(fw, wr), append(ft, wall)
				fmt.Fprintf(out, "| f3write+f3read | %s | %s | %.1f | %.1f | %.3f | %.1f |\n", verdict, f3Written(wo), wr, rr, wr/devMBps, wall)
			}
		}
	}
	var wr, tr []float64
	for i := range iw {
		if i < len(fw) {
			wr, tr = append(wr, iw[i]/fw[i]), append(tr, it[i]/ft[i])
		}
	}
	fmt.Fprintf(out, "\niomark/f3: write rate %s, total time %s.\n\n", ratioText(wr), ratioText(tr))
	unmount()
	d.Down()
	return b.fillFake(ctx, out)
}

// fillFake is fill's fake card: 1 GB claimed, 400 MB real, writes past it lost.
func (b *bench) fillFake(ctx context.Context, out *bytes.Buffer) error {
	fake := withFake(sdCard("fillfake", 1_000_000_000/512*512), 400_000_000/512*512, lab.FailDropZeros)
	fd, err := lab.UpCard(fake, lab.CardAttach{})
	if err != nil {
		return err
	}
	defer fd.Down()
	fmnt, fun, err := mkfsMount(fd.Dev)
	if err != nil {
		return err
	}
	defer fun()
	logf("fill: fake card, iomark verify")
	so, iwall, err := b.exec(ctx, "fill", "fake 1 GB", "iomark", b.iomark.Path, "verify", fmnt, "--json", "--no-save")
	if err != nil {
		return err
	}
	var res struct {
		Verdict, Failure string
		Fill             struct {
			OKBytes            int64  `json:"ok_bytes"`
			FirstBadDeviceByte *int64 `json:"first_bad_device_byte"`
		} `json:"fill"`
	}
	json.Unmarshal([]byte(so), &res)
	logf("fill: fake card, f3write + f3read")
	_, ro, fwall, err := b.f3WriteRead(ctx, "fake 1 GB", fmnt)
	if err != nil {
		return err
	}
	first := "-"
	if res.Fill.FirstBadDeviceByte != nil {
		first = fmt.Sprintf("%d", *res.Fill.FirstBadDeviceByte)
	}
	fmt.Fprintf(out, "Fake 1 GB card (400 MB real, writes past it lost), ext4: iomark says **%s** (%s), %s read back intact, first bad byte at device offset %s (real size 400000000), in %.1f s; f3read says %s, in %.1f s.\n\n",
		res.Verdict, res.Failure, mb(res.Fill.OKBytes), first, iwall, f3Summary(ro), fwall)
	return nil
}

// f3WriteRead runs f3write then f3read on the card's filesystem at mnt and removes the files
// they leave; wall is the two runs' time together.
func (b *bench) f3WriteRead(ctx context.Context, card, mnt string) (written, read string, wall float64, err error) {
	wo, w1, err := b.exec(ctx, "fill", card, "f3write", "f3write", mnt)
	if err != nil {
		return "", "", 0, err
	}
	ro, w2, err := b.exec(ctx, "fill", card, "f3read", "f3read", mnt)
	if err != nil {
		return "", "", 0, err
	}
	h2w, _ := filepath.Glob(filepath.Join(mnt, "*.h2w"))
	for _, f := range h2w {
		os.Remove(f)
	}
	return wo, ro, w1 + w2, nil
}

func mkfsMount(dev string) (string, func(), error) {
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", "-O", "^has_journal", "-E", "lazy_itable_init=0", dev).CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("mkfs.ext4 %s: %v %s", dev, err, out)
	}
	mnt, err := os.MkdirTemp("", "verify-vs-f3-")
	if err != nil {
		return "", nil, err
	}
	if out, err := exec.Command("mount", dev, mnt).CombinedOutput(); err != nil {
		os.Remove(mnt)
		return "", nil, fmt.Errorf("mount %s: %v %s", dev, err, out)
	}
	done := false
	return mnt, func() {
		if !done {
			exec.Command("umount", mnt).Run()
			os.Remove(mnt)
			done = true
		}
	}, nil
}

func fioWriteMBps(out string) float64 {
	var r struct {
		Jobs []struct {
			Write struct {
				BW float64 `json:"bw_bytes"`
			} `json:"write"`
		} `json:"jobs"`
	}
	if i := strings.Index(out, "{"); i >= 0 {
		json.Unmarshal([]byte(out[i:]), &r)
	}
	if len(r.Jobs) == 0 {
		return math.NaN()
	}
	return r.Jobs[0].Write.BW / 1e6
}

// f3Speed reads "Average writing speed: 19.02 MB/s" (f3 prints MB as 2^20 bytes).
func f3Speed(out, label string) float64 {
	m := regexp.MustCompile(label + `: ([\d.]+) (KB|MB|GB)/s`).FindStringSubmatch(out)
	if m == nil {
		return math.NaN()
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	mul := map[string]float64{"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[m[2]]
	return v * mul / 1e6
}

func f3Written(out string) string {
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		if strings.Contains(sc.Text(), ".h2w") {
			n++
		}
	}
	return fmt.Sprintf("%d files", n)
}

func f3Summary(out string) string {
	var parts []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "Data OK:") || strings.HasPrefix(l, "Data LOST:") {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

func (b *bench) geometry(ctx context.Context, out *bytes.Buffer) error {
	fmt.Fprintf(out, "##### Erase block: `iomark info --geometry DEV` beside `flashbench -a DEV`, 4 GiB cards, reads across the boundary +300 µs\n\n")
	fmt.Fprintf(out, "| configured | iomark | confidence | time, s | flashbench -a (its README's rule) | time, s |\n|---|---|---|--:|---|--:|\n")
	var ratios []float64
	for _, au := range []int64{1 << 20, 4 << 20, 8 << 20, 0} {
		name := "none"
		if au > 0 {
			name = fmt.Sprintf("%d MiB", au>>20)
		}
		s := lab.CardSpec{Name: "geo", ClaimedBytes: 4 << 30, ReadLatency: 300 * time.Microsecond, ReadMBps: 40,
			EraseBlockBytes: au, BoundaryLatency: 300 * time.Microsecond}
		d, err := lab.UpCard(s, lab.CardAttach{ReadOnly: true})
		if err != nil {
			return err
		}
		logf("geometry %s: iomark info --geometry", name)
		so, iwall, err := b.exec(ctx, "geometry", name, "iomark", b.iomark.Path, "info", "--geometry", d.Dev, "--json")
		if err != nil {
			d.Down()
			return err
		}
		var g struct {
			Geometry struct {
				EraseBlockBytes int64  `json:"erase_block_bytes"`
				Confidence      string `json:"confidence"`
			} `json:"geometry"`
		}
		json.Unmarshal([]byte(so), &g)
		logf("geometry %s: flashbench -a", name)
		// Debian's flashbench 0.1 fails with "Invalid argument" when it opens its default
		// output itself; given -o it prints its table to stdout all the same.
		fo, fwall, err := b.exec(ctx, "geometry", name, "flashbench", "flashbench", "-a", d.Dev, "-o", os.DevNull)
		d.Down()
		if err != nil {
			return err
		}
		fb := flashbenchReading(fo)
		got := "unknown"
		if g.Geometry.EraseBlockBytes > 0 {
			got = fmt.Sprintf("%d MiB", g.Geometry.EraseBlockBytes>>20)
			if g.Geometry.EraseBlockBytes < 1<<20 {
				got = fmt.Sprintf("%d KiB", g.Geometry.EraseBlockBytes>>10)
			}
		}
		mark := func(ok bool) string {
			if ok {
				return " ✓"
			}
			return " ✗"
		}
		fmt.Fprintf(out, "| %s | %s%s | %s | %.1f | %s%s | %.1f |\n", name, got, mark(g.Geometry.EraseBlockBytes == au), g.Geometry.Confidence, iwall,
			fb.text, mark(fb.bytes == au), fwall)
		ratios = append(ratios, iwall/fwall)
	}
	fmt.Fprintf(out, "\niomark/flashbench time: %s.\n\n", ratioText(ratios))
	return nil
}

type fbReading struct {
	bytes int64
	text  string
}

var fbLine = regexp.MustCompile(`align (\d+)\s+pre (\S+)\s+on (\S+)\s+post (\S+)\s+diff (\S+)`)

// flashbenchReading applies flashbench's README to its -a table: the erase block is the
// size from which the "diff" column jumps and stays up. Here: the largest rise between
// neighbouring sizes that at least doubles the diff and after which every larger size stays
// at least half the rise up, with two sizes or more from the jump on (as iomark asks of
// itself); otherwise the table shows no boundary effect, which a reader would call none.
func flashbenchReading(out string) fbReading {
	type pt struct {
		align int64
		diff  float64
	}
	var pts []pt
	for _, m := range fbLine.FindAllStringSubmatch(out, -1) {
		a, _ := strconv.ParseInt(m[1], 10, 64)
		pts = append(pts, pt{a, parseDur(m[5])})
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].align < pts[j].align })
	best, bestRise := -1, 0.0
	for i := 1; i+1 < len(pts); i++ { // at least two sizes from the jump on
		rise := pts[i].diff - pts[i-1].diff
		stays := true
		for _, p := range pts[i:] {
			stays = stays && p.diff >= pts[i-1].diff+rise/2
		}
		if stays && rise > bestRise && pts[i].diff > 2*math.Max(pts[i-1].diff, 1) {
			best, bestRise = i, rise
		}
	}
	if best < 0 {
		return fbReading{text: "no jump"}
	}
	a := pts[best].align
	return fbReading{bytes: a, text: fmt.Sprintf("%d MiB (diff %.0f → %.0f µs)", a>>20, pts[best-1].diff, pts[best].diff)}
}

// parseDur reads flashbench's times: 735µs, 1.08ms, 5.85µs, 812ns, and -16192n (its
// 8-byte buffer cuts a long negative figure's unit).
func parseDur(s string) float64 {
	for _, u := range []struct {
		suffix string
		us     float64
	}{{"ms", 1e3}, {"µs", 1}, {"ns", 1e-3}, {"n", 1e-3}, {"s", 1e6}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f * u.us
		}
	}
	return math.NaN()
}
