package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
)

// csvColumns is the header; units are in the names (MB = 10^6 bytes, MiB = 2^20, µs as us).
var csvColumns = []string{
	"run_id", "created_at", "profile", "device_class", "device_vendor", "device_model", "board",
	"test", "op", "bs_bytes", "qd", "jobs", "iops", "mb_per_s", "mib_per_s",
	"lat_p50_us", "lat_p99_us", "lat_max_us", "ci95_pct", "runs", "ceiling_pct", "noisy",
	"price_usd", "usd_per_mb_per_s", "usd_per_iops",
}

// writeCSV writes one RFC 4180 row per test (encoding/csv: CRLF-free, quotes as needed).
// ci95_pct is empty for a test measured once (no interval); the price columns are empty
// without a price, and otherwise divide it by the row's own MB/s and IOPS.
func writeCSV(w io.Writer, runs []*record.Run, _ Options) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true // RFC 4180 line breaks
	if err := cw.Write(csvColumns); err != nil {
		return fmt.Errorf("csv export: %w", err)
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	// Zero latency means none was recorded (a long write samples throughput only): empty.
	lat := func(v float64) string {
		if v <= 0 {
			return ""
		}
		return num(v)
	}
	for _, r := range runs {
		var class, vendor, model, board string
		if r.Device != nil {
			class, vendor, model = r.Device.Class, r.Device.Vendor, r.Device.Model
		}
		if r.Host != nil {
			board = r.Host.Model
		}
		for _, t := range r.Tests {
			ceil := ""
			if pct, ok := ceilingPct(r, t); ok {
				ceil = strconv.FormatFloat(pct, 'f', 1, 64)
			}
			ci := ""
			if t.Runs > 1 {
				ci = num(t.CI95Pct)
			}
			row := []string{
				r.ID, r.CreatedAt.UTC().Format(time.RFC3339), r.Profile, class, vendor, model, board,
				t.Name, t.Op, strconv.Itoa(t.BS), strconv.Itoa(t.QD), strconv.Itoa(t.Jobs),
				num(t.IOPS), num(t.MBPerS), num(t.MiBPerS),
				lat(t.LatUS.P50), lat(t.LatUS.P99), lat(t.LatUS.Max), ci, strconv.Itoa(t.Runs), ceil,
				strconv.FormatBool(t.Noisy),
			}
			row = append(row, priceColumns(r, t, num)...)
			if err := cw.Write(row); err != nil {
				return fmt.Errorf("csv export: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csv export: %w", err)
	}
	return nil
}

// priceColumns are price_usd, usd_per_mb_per_s and usd_per_iops of one test row.
func priceColumns(r *record.Run, t record.Test, num func(float64) string) []string {
	p, ok := compare.PriceOf(r)
	if !ok {
		return []string{"", "", ""}
	}
	per := func(v float64) string {
		usd, ok := compare.PerUnit(p.PriceUSD, v)
		if !ok {
			return ""
		}
		return strconv.FormatFloat(usd, 'g', 4, 64)
	}
	return []string{num(p.PriceUSD), per(t.MBPerS), per(t.IOPS)}
}
