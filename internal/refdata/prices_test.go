package refdata

import (
	"strings"
	"testing"
)

// statedPrices is every price_usd in the embedded data, each written from its row's own source:
// the figure as printed and the sentence that states it (quoted in the row's notes). A price
// that is not in this table, or one whose row lost its quote, fails TestPricesAreStatedBySources.
var statedPrices = []struct {
	row    int
	source string
	model  string
	price  string // price_usd as printed
	quote  string // the source's own sentence, as the row's notes quote it
}{
	// pipci.jeffgeerling.com/cards_m2/pinedrive-2242-nvme-ssd.html (tested 2024-05-13).
	{108, "pipci-pinedrive-2242-nvme-ssd", "Pinedrive NVMe SSD 256GB (2242)", "50",
		"costs €45,99 EUR (about $50 USD as of this writing)"},
	// geerlingguy/raspberry-pi-pcie-devices#631, the description of 2024-05-13: the
	// row is a comment of the same thread, so the thread is the row's source.
	{116, "pcie-devices-631", "Pinedrive NVMe SSD 256GB (2242)", "50",
		"'The Pinedrive NVMe SSD 256GB (2242) costs €45,99 EUR (about $50 USD as of this writing), " +
			"and is verified to work with the Raspberry Pi 5 (and earlier generations).'"},
}

func TestPricesAreStatedBySources(t *testing.T) {
	results := loadAll(t)
	want := map[int]bool{}
	for _, tt := range statedPrices {
		want[tt.row] = true
		if tt.row < 1 || tt.row > len(results) {
			t.Errorf("row %d: out of range (%d rows)", tt.row, len(results))
			continue
		}
		r := results[tt.row-1]
		if r.SourceID != tt.source || r.MakeModel != tt.model {
			t.Errorf("row %d is %s %q, want %s %q", tt.row, r.SourceID, r.MakeModel, tt.source, tt.model)
			continue
		}
		if r.PriceUSD.Printed != tt.price {
			t.Errorf("row %d (%s): price_usd %q, want %q", tt.row, tt.source, r.PriceUSD.Printed, tt.price)
		}
		if r.PriceUSD.Value == nil || *r.PriceUSD.Value <= 0 {
			t.Errorf("row %d (%s): price_usd %q does not read as a positive number", tt.row, tt.source, r.PriceUSD.Printed)
		}
		if !strings.Contains(r.Notes, tt.quote) {
			t.Errorf("row %d (%s): notes do not quote the price sentence %q:\n%s", tt.row, tt.source, tt.quote, r.Notes)
		}
		// The dollar figure itself is the source's: its quote prints it, so nothing was converted.
		if !strings.Contains(tt.quote, "$"+tt.price) {
			t.Errorf("row %d (%s): the quote %q does not print $%s", tt.row, tt.source, tt.quote, tt.price)
		}
	}
	for _, r := range results {
		if r.PriceUSD.Printed != "" && !want[r.Row] {
			t.Errorf("row %d (%s %q) has price_usd %q that no test pins to its source's sentence",
				r.Row, r.SourceID, r.MakeModel, r.PriceUSD.Printed)
		}
	}
}

// Prices a row's source states in another currency only: kept as printed in notes, never
// converted, so price_usd stays empty.
var statedOtherCurrency = []struct {
	row    int
	source string
	quote  string
}{
	// marcone/teslausb#239, Arthur-Philip-Dent, 2024-01-24: the SSD's price in euros.
	{307, "teslausb-239", "'+ NVMe base =15,80€ + 38€ SSD' (a euro price, so price_usd is empty)"},
}

func TestPricesInOtherCurrenciesStayInNotes(t *testing.T) {
	results := loadAll(t)
	for _, tt := range statedOtherCurrency {
		r, ok := sourceRow(t, results, tt.row, tt.source)
		if !ok {
			continue
		}
		if r.PriceUSD.Printed != "" {
			t.Errorf("row %d (%s): price_usd %q, but the source states no dollar figure", tt.row, tt.source, r.PriceUSD.Printed)
		}
		if !strings.Contains(r.Notes, tt.quote) {
			t.Errorf("row %d (%s): notes do not keep the printed price %q:\n%s", tt.row, tt.source, tt.quote, r.Notes)
		}
	}
}

// A price stated for one capacity is not the price of another: both priced rows are the 256 GB
// Pinedrive, the capacity the sentence names.
func TestStatedPriceMatchesRowCapacity(t *testing.T) {
	results := loadAll(t)
	for _, tt := range statedPrices {
		r := results[tt.row-1]
		if r.CapacityGB.Printed == "" {
			continue
		}
		if !strings.Contains(tt.quote, r.CapacityGB.Printed+"GB") && !strings.Contains(tt.quote, r.CapacityGB.Printed+" GB") &&
			!strings.Contains(r.MakeModel, r.CapacityGB.Printed+"GB") {
			t.Errorf("row %d (%s): capacity %s GB is named neither by the price sentence nor by the row's model",
				tt.row, tt.source, r.CapacityGB.Printed)
		}
	}
}
