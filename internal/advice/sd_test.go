package advice

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestSDIDSuspect(t *testing.T) {
	check(t, "suspect", sdIDSuspect, &probe.Report{SD: &probe.SD{ManfID: 3, OEMID: "JT", Name: "SD128", Suspect: true,
		SuspectReasons: []string{`manufacturer id 0x03 (SanDisk) always comes with OEM id "SD"`}}}, "sd-id-suspect:warn")
	check(t, "genuine", sdIDSuspect, &probe.Report{SD: &probe.SD{ManfID: 3, OEMID: "SD", Name: "SN64G"}})
	check(t, "no card", sdIDSuspect, &probe.Report{})
}
