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
		Message:  fmt.Sprintf("the card's identity looks forged (manfid 0x%02x, oemid %q, name %q): it may be a counterfeit with less real capacity or speed", s.ManfID, s.OEMID, s.Name),
		Fix:      "write the card full and read it back (e.g. f3write and f3read from the f3 package) before trusting it with data; buy cards from the maker's authorised sellers",
		Evidence: strings.Join(s.SuspectReasons, "; "),
	})
}
