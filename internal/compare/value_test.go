package compare

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/refdata"
)

// The Pinedrive NVMe SSD 256GB (2242) is the one Pi 5 NVMe drive whose price a source states
// ($50: pipci.jeffgeerling.com and raspberry-pi-pcie-devices#631, 2024-05-13), and neither
// source prints a PiBenchmarks score: it has no value on the score basis, yet it is listed
// as priced, with the figures it has.
func TestPricedDriveWithoutTheBasis(t *testing.T) {
	var found bool
	for _, rk := range Rank(PublishedEntries(loadPublished(t)), refdata.FamilyPi5) {
		if rk.Class != "nvme" {
			continue
		}
		buys, _ := Value(rk)
		for _, b := range buys {
			if strings.Contains(b.Drive.Model.Name, "Pinedrive") {
				t.Errorf("%s has a value on %s, which its sources do not print", b.Drive.Model.Name, rk.Basis)
			}
		}
		for _, u := range PricedUnranked(rk) {
			if !strings.Contains(u.Model.Name, "Pinedrive") {
				continue
			}
			found = true
			if u.PriceUSD != 50 || len(u.PriceSources) == 0 || len(u.Medians) == 0 {
				t.Errorf("Pinedrive: $%v from %v with figures %v", u.PriceUSD, u.PriceSources, u.Medians)
			}
		}
	}
	if !found {
		t.Error("the Pinedrive is not listed as a priced Pi 5 NVMe drive")
	}
}
