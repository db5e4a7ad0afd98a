package server

import (
	"net/url"
	"strings"
	"testing"
)

// The value page prices each drive at the median of the prices its results state (--price),
// with their count, beside the price the visitor gives.
func TestValueSentPrices(t *testing.T) {
	ts := startUnlimited(t)
	for i, price := range []float64{10, 14, 12} {
		r := sampleRecord("price-"+itoa(i), "SanDisk", "Extreme A2", "Raspberry Pi 4 Model B", 40)
		p := price
		r.PriceUSD = &p
		ts.mustPost(t, r)
	}
	unpriced := sampleRecord("price-none", "Samsung", "EVO Plus", "Raspberry Pi 4 Model B", 20)
	ts.mustPost(t, unpriced)
	key := sampleRecord("price-0", "SanDisk", "Extreme A2", "Raspberry Pi 4 Model B", 40).DeviceKey()
	var v ValueData
	path := "/api/v1/value?mb_test=seq-read-1m&drive=" + url.QueryEscape(key) + "&drive=" + url.QueryEscape(unpriced.DeviceKey())
	if c := ts.getJSON(t, path, &v); c != 200 || len(v.Rows) != 2 {
		t.Fatalf("%d %+v", c, v)
	}
	sent := v.Rows[0].Sent
	if sent == nil || sent.MedianUSD != 12 || sent.Count != 3 || v.Rows[0].USDPerMBPerS == nil || *v.Rows[0].USDPerMBPerS != 12.0/40 {
		t.Errorf("sent price: %+v, USD per MB/s %v", sent, v.Rows[0].USDPerMBPerS)
	}
	if v.Rows[1].Sent != nil {
		t.Errorf("a drive no result prices has %+v", v.Rows[1].Sent)
	}
	if len(v.SentPerMBChart.Labels) != 1 || !strings.Contains(v.SentPerMBChart.Labels[0], "3 prices") {
		t.Errorf("chart: %+v", v.SentPerMBChart)
	}
	if got, ok := recordPrice([]byte(`{"published":{"figures":[{"column":"price_usd","printed":"50"}]}}`)); !ok || got != 50 {
		t.Errorf("a published price: %v %v", got, ok)
	}
	for _, bad := range []string{`{"price_usd":-3}`, `{"published":{"figures":[{"column":"price_usd","printed":"about 50"}]}}`, `not json`} {
		if _, ok := recordPrice([]byte(bad)); ok {
			t.Errorf("%s gave a price", bad)
		}
	}
}

// FuzzRecordPrice: any stored bytes give a positive finite price or none, never a panic.
func FuzzRecordPrice(f *testing.F) {
	f.Add([]byte(`{"price_usd":12.5}`))
	f.Add([]byte(`{"published":{"figures":[{"column":"price_usd","printed":"50"}]}}`))
	f.Add([]byte(`{"price_usd":null,"published":null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if p, ok := recordPrice(raw); ok && !(p > 0 && p < 1e9) {
			t.Errorf("price %v from %q", p, raw)
		}
	})
}
