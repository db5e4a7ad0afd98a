package advice

import (
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// sdIDSuspect: the card's identification registers look like a counterfeit's (manufacturer
// and OEM ids that never go together, blank or patterned serials, impossible dates).
func sdIDSuspect(r *probe.Report) []record.Finding {
	s := r.SD
	if s == nil || !s.Suspect {
		return nil
	}
	return one(record.Finding{
		ID:       "sd-id-suspect",
		Severity: record.SeverityWarn,
		Message:  fmt.Sprintf("the card's registers do not look like a genuine card's (manfid 0x%02x, oemid %q, name %q): counterfeits show this, and may have less real capacity or speed than claimed", s.ManfID, s.OEMID, s.Name),
		Fix:      fmt.Sprintf("check its real capacity before trusting it with data: sudo iomark verify %s --confirm %s (saves and restores what it overwrites), or iomark verify on a directory of the mounted card; buy cards from the maker's authorised sellers", diskPath(r), diskPath(r)),
		Evidence: strings.Join(s.SuspectReasons, "; "),
	})
}

// diskPath is the whole disk of a report, for commands in fixes.
func diskPath(r *probe.Report) string {
	if r.Device != nil && r.Device.Path != "" {
		return r.Device.Path
	}
	return "DISK"
}
