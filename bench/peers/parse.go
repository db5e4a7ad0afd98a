package main

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// figure is one number a tool printed, in the unit it printed it in.
type figure struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// hdparm prints e.g. " Timing O_DIRECT disk reads: 120 MB in  3.01 seconds =  39.87 MB/sec"
// (" Timing buffered disk reads: …" without --direct); -T adds a "cached reads" line first.
var hdparmDiskRE = regexp.MustCompile(`disk reads:\s+[\d.]+\s+\S+\s+in\s+[\d.]+\s+seconds\s+=\s+([\d.]+)\s+(\S+)/sec`)

// parseHdparm returns the "disk reads" figure, as Storage.sh reads it (awk $11, unit $12).
func parseHdparm(out string) (figure, error) {
	v, unit, err := findRate(hdparmDiskRE, out, `no "disk reads" line in hdparm output`, "hdparm rate")
	if err != nil {
		return figure{}, err
	}
	return figure{v, unit + "/sec"}, nil
}

// findRate reads the rate re finds in out, its first group the number and its second the
// unit; noLine and rate say what is missing or unreadable in the error.
func findRate(re *regexp.Regexp, out, noLine, rate string) (float64, string, error) {
	m := re.FindStringSubmatch(out)
	if m == nil {
		return 0, "", fmt.Errorf("%s: %.300q", noLine, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, "", fmt.Errorf("%s %q: %w", rate, m[1], err)
	}
	return v, m[2], nil
}

// dd (coreutils) ends with e.g. "545259520 bytes (545 MB, 520 MiB) copied, 27.3 s, 20.0 MB/s";
// Storage.sh takes the last line's next-to-last field. Run dd with LC_ALL=C so the decimal
// separator is a point.
var ddRateRE = regexp.MustCompile(`copied,\s+[\d.]+\s+s,\s+([\d.]+)\s+(\S+/s)\s*$`)

func parseDD(out string) (figure, error) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	v, unit, err := findRate(ddRateRE, last, "no rate on dd's last line", "dd rate")
	return figure{v, unit}, err
}

// parseFioMinimal reads the IOPS field of fio's terse (--minimal, version 3) line as Storage.sh
// does: field 8 (1-based, ';'-separated) for reads, field 49 for writes.
func parseFioMinimal(out string, write bool) (figure, error) {
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "3;") {
			line = l
			break
		}
	}
	if line == "" {
		return figure{}, fmt.Errorf("no terse v3 line in fio output: %.300q", out)
	}
	fields := strings.Split(line, ";")
	idx := 8
	if write {
		idx = 49
	}
	if len(fields) < idx {
		return figure{}, fmt.Errorf("fio terse line has %d fields, need %d", len(fields), idx)
	}
	v, err := strconv.ParseFloat(fields[idx-1], 64)
	if err != nil {
		return figure{}, fmt.Errorf("fio terse field %d %q: %w", idx, fields[idx-1], err)
	}
	return figure{v, "IOPS"}, nil
}

// fio's normal output sums a group in "READ: bw=38.1MiB/s (40.0MB/s), …"; the figure in
// parentheses is in 10^n-byte units, as iomark's mb_per_s.
var fioGroupReadRE = regexp.MustCompile(`READ: bw=[\d.]+\S+/s \(([\d.]+)([kMG]B)/s\)`)

func parseFioGroupRead(out string) (figure, error) {
	v, unit, err := findRate(fioGroupReadRE, out, `no "READ: bw=" line in fio output`, "fio bandwidth")
	if err != nil {
		return figure{}, err
	}
	switch unit {
	case "kB":
		v /= 1000
	case "GB":
		v *= 1000
	}
	return figure{v, "MB/s"}, nil
}

// toMiBPerS converts a rate figure to 2^20 bytes/s, for the units peers print rates in.
// hdparm's "MB/sec" and "kB/sec" count 2^20 and 2^10 bytes (hdparm divides by 1024*1024).
func hdparmToMiBPerS(f figure) (float64, error) {
	switch f.Unit {
	case "MB/sec":
		return f.Value, nil
	case "kB/sec":
		return f.Value / 1024, nil
	case "GB/sec":
		return f.Value * 1024, nil
	}
	return 0, fmt.Errorf("unknown hdparm unit %q", f.Unit)
}

// ddToMBPerS converts dd's rate (coreutils prints SI units: kB, MB, GB per s) to 10^6 bytes/s.
func ddToMBPerS(f figure) (float64, error) {
	switch f.Unit {
	case "kB/s":
		return f.Value / 1000, nil
	case "MB/s":
		return f.Value, nil
	case "GB/s":
		return f.Value * 1000, nil
	}
	return 0, fmt.Errorf("unknown dd unit %q", f.Unit)
}

// agreeTolerance is the bound for "the same figure": ±5%, the precision a figure is measured to.
const agreeTolerance = 0.05

// ratio is iomark/peer; ok is false when the peer figure is not a positive number.
func ratio(iomark, peer float64) (r float64, ok bool) {
	if peer <= 0 || math.IsNaN(peer) || math.IsNaN(iomark) {
		return 0, false
	}
	return iomark / peer, true
}

// agrees says whether a ratio is within ±5% of 1.
func agrees(r float64) bool { return math.Abs(r-1) <= agreeTolerance+1e-12 }
