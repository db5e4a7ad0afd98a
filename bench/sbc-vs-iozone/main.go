// Command sbc-vs-iozone sets the block `iomark export RUN --format sbc-reviews` prints beside
// the sbc-reviews template's own command, iozone run on the same emulated card, read as
// disk-benchmark.sh reads it: each row's two figures, their ratio, the card's limit in the
// unit the rows print (MiB/s, labelled "MB/s"), and whether iomark and iozone agree within 5%.
//
//	sudo go run ./bench/sbc-vs-iozone [-iomark PATH] [-size-mb 3072] [-raw FILE]
//
// The iozone line is the template's (disk-benchmark.sh, TEST_SIZE=1g):
// iozone -e -I -a -s 1g -r 4k -r 1024k -i 0 -i 1 -i 2 -f MNT/iozone. Without -iomark it builds
// ./cmd/iomark from this module. Needs root, the loop driver, the cgroup-v1 blkio controller
// (internal/testkit/lab) and iozone (Debian's iozone3, in non-free: scripts/setup-test-deps.sh). The
// whole takes about 15 minutes (iozone writes 1 GiB in 4 KiB records three times). Progress
// goes to stderr, the Markdown to stdout; BENCHMARKS.md quotes it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// The emulated card: an A2-class microSD's limits (4000/2000 random 4K IOPS), fast enough
// that iozone's 1 GiB passes of 4 KiB records end in minutes, on ext4.
const (
	readIOPS, writeIOPS = 4000, 2000
	readMBps, writeMBps = 80, 60
)

func main() {
	var iomarkPath string
	benchkit.IomarkFlag(&iomarkPath)
	sizeMB := flag.Int("size-mb", 3072, "size of the emulated card, MiB (both tools lay out 1 GiB)")
	rawPath := flag.String("raw", "", "also write iozone's output, iomark's block and record to this file")
	benchkit.Main("sbc-vs-iozone", nil, func(ctx context.Context) error { return run(ctx, iomarkPath, *sizeMB, *rawPath) })
}

var logf = benchkit.Logf

// row is one row of the template's Disk table: iozone's record size and the column
// disk-benchmark.sh's awk takes (fields after `cut -c7-100`: 1 reclen... as SOURCES.md reads
// it: rewrite for the sequential write, reread for the sequential read).
type row struct {
	name   string
	reclen int    // KiB
	column string // iozone's column header
	limit  float64
}

var rows = []row{
	{"iozone 4K random read", 4, "random read", readIOPS * 4096 / float64(1<<20)},
	{"iozone 4K random write", 4, "random write", writeIOPS * 4096 / float64(1<<20)},
	{"iozone 1M random read", 1024, "random read", readMBps * 1e6 / float64(1<<20)},
	{"iozone 1M random write", 1024, "random write", writeMBps * 1e6 / float64(1<<20)},
	{"iozone 1M sequential read", 1024, "reread", readMBps * 1e6 / float64(1<<20)},
	{"iozone 1M sequential write", 1024, "rewrite", writeMBps * 1e6 / float64(1<<20)},
}

// iozoneColumns are the columns of iozone -a -i 0 -i 1 -i 2 after kB and reclen.
var iozoneColumns = []string{"write", "rewrite", "read", "reread", "random read", "random write"}

func run(ctx context.Context, iomarkPath string, sizeMB int, rawPath string) error {
	iomark, err := benchkit.Start(ctx, iomarkPath, "sbc-vs-iozone-", logf,
		lab.Available, benchkit.NeedTools("Debian's iozone3 is in non-free (scripts/setup-test-deps.sh adds it)", "iozone"))
	if err != nil {
		return err
	}
	defer iomark.Cleanup()
	drive, err := lab.Up(lab.Spec{Name: "sbc-iozone", SizeMB: sizeMB, FS: "ext4",
		ReadIOPS: readIOPS, WriteIOPS: writeIOPS, ReadMBps: readMBps, WriteMBps: writeMBps})
	if err != nil {
		return err
	}
	defer func() {
		if err := drive.Down(); err != nil {
			logf("%v", err)
		}
	}()
	load0 := benchkit.LoadAvg()
	var raw strings.Builder

	logf("iomark run --profile sbc-reviews on %s", drive.Mnt)
	db := filepath.Join(os.TempDir(), fmt.Sprintf("sbc-vs-iozone-%d.db", os.Getpid()))
	defer os.Remove(db)
	t0 := time.Now()
	out, err := exec.CommandContext(ctx, iomark.Path, "run", drive.Mnt, "--profile", "sbc-reviews", "--json", "--db", "sqlite:"+db).Output()
	if err != nil {
		return fmt.Errorf("iomark run: %w", err)
	}
	iomarkS := time.Since(t0).Seconds()
	var rec struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &rec); err != nil {
		return fmt.Errorf("iomark run --json: %w", err)
	}
	block, err := exec.CommandContext(ctx, iomark.Path, "export", rec.ID, "--format", "sbc-reviews", "--db", "sqlite:"+db).Output()
	if err != nil {
		return fmt.Errorf("iomark export --format sbc-reviews: %w", err)
	}
	raw.WriteString("## iomark record\n" + string(out) + "\n## iomark export --format sbc-reviews\n" + string(block))
	mine, err := parseBlock(string(block))
	if err != nil {
		return err
	}

	iozoneArgs := []string{"-e", "-I", "-a", "-s", "1g", "-r", "4k", "-r", "1024k", "-i", "0", "-i", "1", "-i", "2", "-f", filepath.Join(drive.Mnt, "iozone")}
	logf("iozone %s", strings.Join(iozoneArgs, " "))
	t0 = time.Now()
	ioz, err := exec.CommandContext(ctx, "iozone", iozoneArgs...).Output()
	os.Remove(filepath.Join(drive.Mnt, "iozone"))
	if err != nil {
		return fmt.Errorf("iozone: %w\n%s", err, ioz)
	}
	iozoneS := time.Since(t0).Seconds()
	raw.WriteString("\n## iozone\n" + string(ioz))
	theirs, err := parseIozone(string(ioz))
	if err != nil {
		return err
	}
	if rawPath != "" {
		if err := os.WriteFile(rawPath, []byte(raw.String()), 0o644); err != nil {
			return err
		}
	}

	fmt.Printf("Emulated card: %d/%d random 4K IOPS, %d/%d MB/s read/write, ext4 on a %d MiB RAM-backed loop device.\n", readIOPS, writeIOPS, readMBps, writeMBps, sizeMB)
	fmt.Printf("iomark: %s, `iomark run MNT --profile sbc-reviews` (%.0f s) then `iomark export RUN --format sbc-reviews`; iozone: `iozone %s` (%.0f s).\n",
		iomark.Version, iomarkS, strings.Join(iozoneArgs, " "), iozoneS)
	fmt.Printf("Load average before: %s; after: %s.\n\n", load0, benchkit.LoadAvg())
	fmt.Println("| row (the template's) | iomark block, \"MB/s\" | iozone, as disk-benchmark.sh reads it (column) | iomark / iozone | card's limit | within 5% |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, r := range rows {
		m, okM := mine[r.name]
		z, okZ := theirs[fmt.Sprintf("%d %s", r.reclen, r.column)]
		if !okM || !okZ {
			fmt.Printf("| %s | %s | %s | — | %.2f | — |\n", r.name, fig(m, okM), fig(z, okZ), r.limit)
			continue
		}
		ratio := m / z
		agree := "yes"
		if ratio < 0.95 || ratio > 1.05 {
			agree = "**no**"
		}
		fmt.Printf("| %s | %.2f | %.2f (%s) | %.3f | %.2f | %s |\n", r.name, m, z, r.column, ratio, r.limit, agree)
	}
	fmt.Println("\nThe same iozone run's first passes, for the sequential rows: " +
		fmt.Sprintf("1M write %.2f, 1M read %.2f (MiB/s).", theirs["1024 write"], theirs["1024 read"]))
	fmt.Println("\n```\n" + strings.TrimSpace(string(block)) + "\n```")
	return nil
}

func fig(v float64, ok bool) string {
	if !ok {
		return "not measured"
	}
	return fmt.Sprintf("%.2f", v)
}

// parseBlock reads the rows of the sbc-reviews block: "| iozone 4K random read | 9.61 MB/s |".
func parseBlock(s string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, l := range strings.Split(s, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if len(cells) != 2 {
			continue
		}
		name, val := strings.TrimSpace(cells[0]), strings.TrimSuffix(strings.TrimSpace(cells[1]), " MB/s")
		if v, err := strconv.ParseFloat(val, 64); err == nil {
			out[name] = v
		}
	}
	if len(out) != len(rows) {
		return nil, fmt.Errorf("the sbc-reviews block has %d rows with figures, want %d:\n%s", len(out), len(rows), s)
	}
	return out, nil
}

// parseIozone reads iozone -a's table (kB reclen write rewrite read reread random-read
// random-write, in kB/s) into "RECLEN COLUMN" → kB/s / 1024, the figure disk-benchmark.sh
// prints as "MB/s".
func parseIozone(s string) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2+len(iozoneColumns) || f[0] != "1048576" {
			continue
		}
		for i, c := range iozoneColumns {
			v, err := strconv.ParseFloat(f[2+i], 64)
			if err != nil {
				return nil, fmt.Errorf("iozone line %q: %v", sc.Text(), err)
			}
			out[f[1]+" "+c] = v / 1024
		}
	}
	if len(out) != 2*len(iozoneColumns) {
		return nil, fmt.Errorf("iozone's output has %d figures for 1 GiB, want %d:\n%s", len(out), 2*len(iozoneColumns), s)
	}
	return out, nil
}
