package record

import "testing"

func TestHopSummary(t *testing.T) {
	for _, c := range []struct {
		hop  Hop
		want string
	}{
		{Hop{Bus: "sd", Name: "mmc0", SpeedMbps: 400, Driver: "sdhci-iproc", Detail: "SD UHS-I DDR50, 50 MHz, 4-bit"},
			"sd mmc0 400 Mb/s sdhci-iproc SD UHS-I DDR50, 50 MHz, 4-bit"},
		{Hop{Bus: "usb", Name: "1-1.3", SpeedMbps: 480, MaxSpeedMbps: 5000, Driver: "uas", Detail: "USB 2.0 High Speed, uas"},
			"usb 1-1.3 480 Mb/s (max 5000 Mb/s) USB 2.0 High Speed, uas"},
		{Hop{Bus: "sata", SpeedMbps: 6000, MaxSpeedMbps: 6000, Driver: "ahci"}, "sata 6000 Mb/s ahci"},
		{Hop{Bus: "loop"}, "loop"},
	} {
		if got := c.hop.Summary(); got != c.want {
			t.Errorf("Summary(%+v) = %q, want %q", c.hop, got, c.want)
		}
	}
}
