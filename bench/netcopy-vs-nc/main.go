// Command netcopy-vs-nc measures iomark's network copy (iomark sink + iomark send) beside its
// peer, `nc | dd oflag=direct`, on the same emulated drive over loopback, and prints each
// tool's rate and their ratio per setting: an unthrottled RAM-backed drive (the tools' own
// overhead shows) and a drive throttled like a USB stick (both should reach its limit).
//
//	sudo go run ./bench/netcopy-vs-nc [-iomark PATH] [-pairs 3] [-size-mb 512] [-limit-mbps 40]
//
// Each pair runs both tools back to back, the order flipping every pair; a tool's rate is the
// bytes received divided by the wall time from the sender's start to the receiver's exit
// (both receivers sync the file at the end: dd conv=fsync, the sink's fdatasync). The peer's
// sender is nc reading a random file from /dev/shm; iomark's is iomark send, which makes its
// data as it goes. Needs root, the loop driver, the cgroup-v1 blkio controller (internal/testkit/lab)
// and netcat-openbsd. Progress on stderr, Markdown on stdout (BENCHMARKS.md quotes it).
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

type options struct {
	iomarkPath string
	pairs      int
	sizeMB     int
	limitMBps  int
}

func main() {
	var o options
	benchkit.IomarkFlag(&o.iomarkPath)
	flag.IntVar(&o.pairs, "pairs", 3, "pairs of runs per setting")
	flag.IntVar(&o.sizeMB, "size-mb", 512, "MiB each copy sends")
	flag.IntVar(&o.limitMBps, "limit-mbps", 40, "write limit of the throttled drive, MB/s")
	check := func() error {
		if o.pairs < 1 || o.sizeMB < 64 || o.limitMBps < 1 || flag.NArg() > 0 {
			return errors.New("-pairs ≥ 1, -size-mb ≥ 64, -limit-mbps ≥ 1, no arguments")
		}
		return nil
	}
	benchkit.Main("netcopy-vs-nc", check, func(ctx context.Context) error { return run(ctx, o) })
}

// result is one tool's run.
type result struct {
	Tool       string  `json:"tool"`
	MBPerS     float64 `json:"mb_per_s"`       // bytes received / wall time
	OwnMBPerS  float64 `json:"own_mb_per_s"`   // what the tool itself printed
	DriveMBPer float64 `json:"drive_mb_per_s"` // iomark only: its drive rate
	Limit      string  `json:"limit,omitempty"`
}

type setting struct {
	Name   string
	Limit  int // MB/s, 0 unthrottled
	Pairs  [][2]result
	Ratios []float64
}

func run(ctx context.Context, o options) error {
	iomark, err := benchkit.Start(ctx, o.iomarkPath, "netcopy-vs-nc-", logf,
		lab.Available, benchkit.NeedTools("apt-get install netcat-openbsd", "nc"))
	if err != nil {
		return err
	}
	defer iomark.Cleanup()
	size := int64(o.sizeMB) << 20
	data, err := randomFile(size)
	if err != nil {
		return err
	}
	defer os.Remove(data)
	loadStart := benchkit.LoadAvg()
	var settings []*setting
	for _, st := range []*setting{{Name: "RAM-backed drive, unthrottled"}, {Name: fmt.Sprintf("drive throttled to %d MB/s writes", o.limitMBps), Limit: o.limitMBps}} {
		d, err := lab.Up(lab.Spec{Name: "netcopy-bench", SizeMB: o.sizeMB + 256, FS: "ext4", WriteMBps: st.Limit})
		if err != nil {
			return err
		}
		for i := 0; i < o.pairs && err == nil; i++ {
			var pair [2]result
			order := []int{0, 1}
			if i%2 == 1 {
				order = []int{1, 0}
			}
			for _, k := range order {
				if k == 0 {
					pair[0], err = iomarkCopy(ctx, iomark.Path, d.Mnt, size)
				} else {
					pair[1], err = peerCopy(ctx, data, d.Mnt, size)
				}
				if err != nil {
					break
				}
				logf("%s, pair %d: %s %.1f MB/s", st.Name, i+1, pair[k].Tool, pair[k].MBPerS)
			}
			if err == nil {
				st.Pairs = append(st.Pairs, pair)
				st.Ratios = append(st.Ratios, pair[0].MBPerS/pair[1].MBPerS)
			}
		}
		if derr := d.Down(); derr != nil && err == nil {
			err = derr
		}
		if err != nil {
			return err
		}
		settings = append(settings, st)
	}
	report(os.Stdout, o, iomark.Version, loadStart, settings)
	return nil
}

// randomFile writes size random bytes to /dev/shm for nc to send.
func randomFile(size int64) (string, error) {
	f, err := os.CreateTemp("/dev/shm", "netcopy-bench-*.bin")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.CopyN(f, rand.Reader, size); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var tokenLine = regexp.MustCompile(`iomark send (\S+) --size 10G --token ([0-9a-f]{32})`)

// iomarkCopy runs iomark sink on dir and iomark send over loopback.
func iomarkCopy(ctx context.Context, iomark, dir string, size int64) (result, error) {
	port, err := freePort()
	if err != nil {
		return result{}, err
	}
	sink := exec.CommandContext(ctx, iomark, "sink", "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--no-save", "--json", dir)
	stderr, _ := sink.StderrPipe()
	var out strings.Builder
	sink.Stdout = &out
	if err := sink.Start(); err != nil {
		return result{}, err
	}
	sc := bufio.NewScanner(stderr)
	var m []string
	for m == nil && sc.Scan() {
		m = tokenLine.FindStringSubmatch(sc.Text())
	}
	go io.Copy(io.Discard, stderr)
	if m == nil {
		sink.Wait()
		return result{}, errors.New("iomark sink printed no token")
	}
	start := time.Now()
	send := exec.CommandContext(ctx, iomark, "send", m[1], "--size", fmt.Sprint(size), "--token", m[2], "--json")
	if b, err := send.CombinedOutput(); err != nil {
		sink.Process.Kill()
		sink.Wait()
		return result{}, fmt.Errorf("iomark send: %v\n%s", err, b)
	}
	if err := sink.Wait(); err != nil {
		return result{}, fmt.Errorf("iomark sink: %v", err)
	}
	wall := time.Since(start).Seconds()
	var rec struct {
		Tests []struct {
			Network struct {
				ReceivedBytes int64   `json:"received_bytes"`
				MBPerS        float64 `json:"mb_per_s"`
				DriveMBPerS   float64 `json:"drive_mb_per_s"`
				Limit         string  `json:"limit"`
			} `json:"network"`
		} `json:"tests"`
	}
	if err := json.Unmarshal([]byte(out.String()), &rec); err != nil || len(rec.Tests) != 1 {
		return result{}, fmt.Errorf("iomark sink's record: %v", err)
	}
	n := rec.Tests[0].Network
	if n.ReceivedBytes != size {
		return result{}, fmt.Errorf("iomark sink received %d of %d bytes", n.ReceivedBytes, size)
	}
	return result{Tool: "iomark", MBPerS: float64(size) / wall / 1e6, OwnMBPerS: n.MBPerS, DriveMBPer: n.DriveMBPerS, Limit: n.Limit}, nil
}

var ddRate = regexp.MustCompile(`copied, [0-9.]+ s, ([0-9.]+) ([kMG]B)/s`)

// peerCopy runs `nc -l | dd oflag=direct conv=fsync` on dir and `nc -N < file` over loopback.
func peerCopy(ctx context.Context, data, dir string, size int64) (result, error) {
	port, err := freePort()
	if err != nil {
		return result{}, err
	}
	out := filepath.Join(dir, "peer.bin")
	defer os.Remove(out)
	recv := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf("nc -l 127.0.0.1 %d | dd of=%s bs=1M iflag=fullblock oflag=direct conv=fsync", port, out))
	var ddErr strings.Builder
	recv.Stderr = &ddErr
	if err := recv.Start(); err != nil {
		return result{}, err
	}
	// Wait for the listener without connecting to it (nc -l takes one connection only).
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !listening(port); time.Sleep(20 * time.Millisecond) {
	}
	start := time.Now()
	send := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf("nc -N 127.0.0.1 %d < %s", port, data))
	if b, err := send.CombinedOutput(); err != nil {
		recv.Process.Kill()
		recv.Wait()
		return result{}, fmt.Errorf("nc sender: %v\n%s", err, b)
	}
	if err := recv.Wait(); err != nil {
		return result{}, fmt.Errorf("nc | dd: %v\n%s", err, ddErr.String())
	}
	wall := time.Since(start).Seconds()
	fi, err := os.Stat(out)
	if err != nil || fi.Size() != size {
		return result{}, fmt.Errorf("dd wrote %v bytes of %d", fi, size)
	}
	r := result{Tool: "nc | dd oflag=direct", MBPerS: float64(size) / wall / 1e6}
	if m := ddRate.FindStringSubmatch(ddErr.String()); m != nil {
		fmt.Sscan(m[1], &r.OwnMBPerS)
		switch m[2] {
		case "kB":
			r.OwnMBPerS /= 1000
		case "GB":
			r.OwnMBPerS *= 1000
		}
	}
	return r, nil
}

// listening reports whether a TCP socket listens on port (from /proc/net/tcp, without
// connecting: nc -l takes one connection only).
func listening(port int) bool {
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return false
	}
	want := fmt.Sprintf(":%04X ", port)
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && strings.HasSuffix(f[1]+" ", want) && f[3] == "0A" {
			return true
		}
	}
	return false
}

func report(w io.Writer, o options, version, loadStart string, settings []*setting) {
	m := benchkit.ReadMachine()
	fmt.Fprintf(w, "%s · %s (%d cores) · kernel %s · %s · load %s → %s\n\n", m.Date, m.CPU, m.Cores, m.Kernel, version, loadStart, benchkit.LoadAvg())
	fmt.Fprintf(w, "`go run ./bench/netcopy-vs-nc -pairs %d -size-mb %d -limit-mbps %d`: %d MiB per copy over loopback onto ext4 on an emulated drive\n\n",
		o.pairs, o.sizeMB, o.limitMBps, o.sizeMB)
	fmt.Fprintln(w, "| drive | iomark sink/send MB/s (median) | nc \\| dd oflag=direct MB/s (median) | ratio iomark/peer, median (min–max) | iomark's drive rate, limit |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, st := range settings {
		var io, peer, drive []float64
		limit := ""
		for _, p := range st.Pairs {
			io, peer, drive = append(io, p[0].MBPerS), append(peer, p[1].MBPerS), append(drive, p[0].DriveMBPer)
			limit = p[0].Limit
		}
		fmt.Fprintf(w, "| %s | %.1f | %.1f | %.2f (%.2f–%.2f) | %.1f MB/s, %s |\n", st.Name, median(io), median(peer),
			median(st.Ratios), slices.Min(st.Ratios), slices.Max(st.Ratios), median(drive), limit)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Rates are bytes received over the wall time from the sender's start to the receiver's exit, both receivers syncing the file at the end.")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

var logf = benchkit.Logf
