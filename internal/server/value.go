package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/store"
)

// ValueData is the value page: what each MB/s and each IOPS costs, from prices the user gives
// (?drive=KEY&price=P, repeated, in the user's own currency; a drive without a price is listed
// unpriced) and the drives' median figures.
type ValueData struct {
	MBTest   string     `json:"mb_test"`   // test whose MB/s is priced (?mb_test=)
	IOPSTest string     `json:"iops_test"` // test whose IOPS is priced (?iops_test=)
	Tests    []string   `json:"tests"`
	Rows     []ValueRow `json:"rows"`
	Found    []Found    `json:"found"` // drives matching each name typed instead of a key
	// Price per MB/s and per IOPS of the priced drives, a bar each.
	PerMBChart   BarChart `json:"per_mb_chart"`
	PerIOPSChart BarChart `json:"per_iops_chart"`
	// The same from the prices results state (ValueRow.Sent), in US dollars.
	SentPerMBChart   BarChart `json:"sent_per_mb_chart"`
	SentPerIOPSChart BarChart `json:"sent_per_iops_chart"`
	// Family is the priced ranking of a board family and class (?family=&class=, else Pi 5
	// NVMe), shown when no drive is picked.
	Family *FamilyValue `json:"family,omitempty"`
}

// ValueRow is one drive's value; a price per figure is absent when the figure is.
type ValueRow struct {
	DeviceKey      string   `json:"device_key"`
	URL            string   `json:"url"`
	Label          string   `json:"label"`
	Price          *float64 `json:"price,omitempty"` // absent: no price given, nothing priced
	MedianMBPerS   float64  `json:"median_mb_per_s"`
	PricePerMBPerS *float64 `json:"price_per_mb_per_s,omitempty"`
	MedianIOPS     float64  `json:"median_iops"`
	PricePerIOPS   *float64 `json:"price_per_iops,omitempty"`
	Results        int      `json:"results"`
	// Sent is the median price users sent with --price and sources published (US dollars),
	// with what it buys: absent when no result of the drive states a price.
	Sent         *SentPrice `json:"sent_price,omitempty"`
	USDPerMBPerS *float64   `json:"usd_per_mb_per_s,omitempty"`
	USDPerIOPS   *float64   `json:"usd_per_iops,omitempty"`
}

const maxValueDrives = 10

func (s *Server) valueData(r *http.Request) (any, error) {
	q := r.URL.Query()
	d := ValueData{Rows: []ValueRow{}, Tests: []string{}, Found: []Found{}}
	ctx := r.Context()
	if len(q["drive"]) == 0 || q.Get("family") != "" {
		fv, err := s.familyValue(ctx, q.Get("family"), q.Get("class"))
		if err != nil {
			return nil, err
		}
		d.Family = fv
	}
	cols, err := s.valueRows(ctx, q, &d)
	if err != nil {
		return nil, err
	}
	if len(d.Rows) == 0 {
		return d, nil // the empty form
	}
	var all []store.Figure
	for _, figs := range cols {
		all = append(all, figs...)
	}
	d.Tests = testNames(all)
	d.MBTest, d.IOPSTest = q.Get("mb_test"), q.Get("iops_test")
	if d.MBTest == "" {
		d.MBTest = d.Tests[0]
	}
	if d.IOPSTest == "" {
		d.IOPSTest = commonestIOPSTest(d.Tests, all)
	}
	for i, figs := range cols {
		if err := s.valueFigures(ctx, &d.Rows[i], figs, d.MBTest, d.IOPSTest); err != nil {
			return nil, err
		}
	}
	valueCharts(&d)
	return d, nil
}

// valueRows adds a row to d for each drive the query names (?drive=KEY, with its ?price=), and
// the drives a search finds for each one given as words; cols are the rows' figures.
func (s *Server) valueRows(ctx context.Context, q url.Values, d *ValueData) (cols [][]store.Figure, err error) {
	keys, prices := q["drive"], q["price"]
	for i, key := range keys {
		if key == "" {
			continue // a form's blank row
		}
		if isDriveSearch(key) {
			found, err := s.findDrives(ctx, key, func(k string) string { return replacing("/value", q, "drive", i, k) })
			if err != nil {
				return nil, err
			}
			d.Found = append(d.Found, found)
			continue
		}
		row := ValueRow{DeviceKey: key, URL: drivePath(key), Label: key}
		if i < len(prices) {
			price, err := strconv.ParseFloat(prices[i], 64)
			if err != nil || !(price > 0) || price > 1e9 {
				return nil, badInput(errorf("price %q of drive %s must be a positive number", prices[i], key))
			}
			row.Price = &price
		}
		figs, lbl, err := s.driveFigures(ctx, key)
		if err != nil {
			return nil, err
		}
		row.Label = lbl
		if len(figs) == 0 {
			return nil, notFound("no result with figures has drive key " + key)
		}
		d.Rows = append(d.Rows, row)
		cols = append(cols, figs)
	}
	return cols, nil
}

// commonestIOPSTest is the most common test with IOPS figures (published results have none);
// tests are the names, commonest first.
func commonestIOPSTest(tests []string, all []store.Figure) string {
	for _, name := range tests {
		for _, f := range all {
			if f.Test == name && f.IOPS > 0 {
				return name
			}
		}
	}
	return ""
}

// valueFigures sets a row's medians of the two tests, and what they cost: at the prices the
// drive's results state, and at the price given.
func (s *Server) valueFigures(ctx context.Context, row *ValueRow, figs []store.Figure, mbTest, iopsTest string) error {
	var mb, iops []float64
	for _, f := range figs {
		if f.Test == mbTest {
			mb = append(mb, f.MBPerS)
		}
		if f.Test == iopsTest {
			iops = append(iops, f.IOPS)
		}
	}
	row.Results = len(mb)
	row.MedianMBPerS = statsOf(mb).Median
	row.MedianIOPS = statsOf(iops).Median
	if sp, ok, err := s.sentPrice(ctx, row.DeviceKey); err != nil {
		return err
	} else if ok {
		row.Sent = &sp
		if row.MedianMBPerS > 0 {
			row.USDPerMBPerS = perUnit(sp.MedianUSD, row.MedianMBPerS)
		}
		if row.MedianIOPS > 0 {
			row.USDPerIOPS = perUnit(sp.MedianUSD, row.MedianIOPS)
		}
	}
	if row.Price != nil {
		row.PricePerMBPerS = perUnit(*row.Price, row.MedianMBPerS)
		row.PricePerIOPS = perUnit(*row.Price, row.MedianIOPS)
	}
	return nil
}

// valueCharts draws the price per MB/s and per IOPS of each row: at the prices given, and at
// the prices the results state.
func valueCharts(d *ValueData) {
	chart := func(id, title, unit string) BarChart {
		return BarChart{ID: id, Title: title, Unit: unit, Horizontal: true,
			Labels: []string{}, Series: []BarSeries{{Label: unit, Values: []*float64{}}}}
	}
	add := func(c *BarChart, label string, v *float64) {
		if v != nil {
			c.Labels = append(c.Labels, label)
			c.Series[0].Values = append(c.Series[0].Values, v)
		}
	}
	d.PerMBChart = chart("per-mb", "Price per MB/s of "+d.MBTest+" (lower is better)", "price per MB/s")
	d.PerIOPSChart = chart("per-iops", "Price per IOPS of "+d.IOPSTest+" (lower is better)", "price per IOPS")
	d.SentPerMBChart = chart("sent-per-mb", "US dollars per MB/s of "+d.MBTest+" at the prices results state (lower is better)", "USD per MB/s")
	d.SentPerIOPSChart = chart("sent-per-iops", "US dollars per IOPS of "+d.IOPSTest+" at the prices results state (lower is better)", "USD per IOPS")
	for _, row := range d.Rows {
		if row.Sent != nil {
			sent := fmt.Sprintf("%s (%d prices)", row.Label, row.Sent.Count)
			add(&d.SentPerMBChart, sent, row.USDPerMBPerS)
			add(&d.SentPerIOPSChart, sent, row.USDPerIOPS)
		}
	}
	for _, row := range d.Rows {
		add(&d.PerMBChart, row.Label, row.PricePerMBPerS)
		add(&d.PerIOPSChart, row.Label, row.PricePerIOPS)
	}
}

// perUnit is compare.PerUnit as an optional figure: nil when there is nothing to divide.
func perUnit(price, figure float64) *float64 {
	if v, ok := compare.PerUnit(price, figure); ok {
		return &v
	}
	return nil
}
