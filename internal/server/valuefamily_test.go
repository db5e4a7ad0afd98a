package server

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// With no drive picked, the value page prices a family and class's ranked drives: best value
// first, the frontier marked, the price's source named, one sentence on what to buy; without
// any price it says how to add one.
func TestValueByFamily(t *testing.T) {
	ts := startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1})
	if _, err := SeedPublished(context.Background(), ts.st); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	// Two cards on a Pi 4: CHEAP writes 2.7 MB/s at $8, DEAR 3.3 MB/s at $30 (4K random write).
	for i, c := range []struct {
		model string
		speed float64
		price float64
	}{{"CHEAP", 0.9, 8}, {"CHEAP", 0.9, 8}, {"DEAR", 1.1, 30}} {
		r := honestRun(fmt.Sprintf("v%d", i), c.model, "Raspberry Pi 4 Model B Rev 1.4", c.speed, at)
		r.PriceUSD = &c.price
		if code, out := ts.post(t, encode(t, r)); code != 201 {
			t.Fatal(code, out)
		}
	}
	var v ValueData
	if c := ts.getJSON(t, "/api/v1/value?family="+url.QueryEscape("Pi 4")+"&class=microsd", &v); c != 200 || v.Family == nil {
		t.Fatalf("value: %d %+v", c, v.Family)
	}
	f := v.Family
	var rows []ValueBuy
	for _, s := range f.Settings {
		if s.Setting == "SD DDR50" {
			rows = s.Rows
		}
	}
	if len(rows) != 2 || !strings.Contains(rows[0].Name, "CHEAP") || !rows[0].Frontier || !rows[1].Frontier || rows[0].PriceSources[0] != "sent by its uploader (iomark run --price)" {
		t.Fatalf("priced rows %+v", rows)
	}
	if !strings.HasPrefix(f.Advice, "Best value for the Pi 4 microSD at SD DDR50: SanDisk CHEAP") || !strings.Contains(f.Advice, "The fastest priced drive, SanDisk DEAR") {
		t.Errorf("advice %q", f.Advice)
	}
	// The default page is Pi 5 NVMe; with no price known it says how to add one.
	if c := ts.getJSON(t, "/api/v1/value", &v); c != 200 || v.Family == nil || v.Family.Family != "Pi 5" || v.Family.Class != "nvme" {
		t.Fatalf("default value page: %d %+v", c, v.Family)
	}
	if v.Family.Advice == "" && !strings.Contains(v.Family.NoPrice, "iomark run --price") {
		t.Errorf("no price and no way to add one: %+v", v.Family)
	}
	// Its one priced drive (the Pinedrive 256GB, $50 in two sources of 2024-05-13) has no
	// PiBenchmarks score: listed with its price, sources and figures, given no value.
	var pinedrive *ValueUnranked
	for _, s := range v.Family.Settings {
		for i, u := range s.Unranked {
			if strings.Contains(u.Name, "Pinedrive") {
				pinedrive = &s.Unranked[i]
			}
		}
		for _, r := range s.Rows {
			if strings.Contains(r.Name, "Pinedrive") {
				t.Errorf("the Pinedrive has a value on %s: %+v", s.Basis, r)
			}
		}
	}
	if pinedrive == nil || pinedrive.PriceUSD != 50 || len(pinedrive.PriceSources) == 0 || len(pinedrive.Figures) == 0 {
		t.Errorf("default value page: the priced Pinedrive is %+v", pinedrive)
	}
	if !strings.Contains(v.Family.NoPrice, "1 drive with a price has no PiBenchmarks score") {
		t.Errorf("the no-price sentence does not say why the priced drive has no value: %q", v.Family.NoPrice)
	}
	_, page := ts.get(t, "/value?family="+url.QueryEscape("Pi 4")+"&class=microsd")
	if !strings.Contains(page, "Best value for the Pi 4 microSD") || !strings.Contains(page, `<svg class="valuechart"`) {
		t.Error("the value page shows no advice or chart")
	}
}
