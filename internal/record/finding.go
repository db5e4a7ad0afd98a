package record

// Severity says how much a finding matters.
type Severity string

// Severities, mildest first.
const (
	SeverityInfo Severity = "info" // worth knowing; no action needed
	SeverityWarn Severity = "warn" // costs performance or comparability; a fix exists
	SeverityBad  Severity = "bad"  // results will be far from what the hardware can do
)

// Rank orders severities worst first: bad 0, warn 1, anything else 2.
func (s Severity) Rank() int {
	switch s {
	case SeverityBad:
		return 0
	case SeverityWarn:
		return 1
	}
	return 2
}

// Finding is one piece of advice about the target or the figures (docs/findings.md). Package
// advice makes them; the record only carries them.
type Finding struct {
	ID       string   `json:"id"` // stable, see docs/findings.md
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix,omitempty"`
	Evidence string   `json:"evidence,omitempty"` // the facts that triggered it
}
