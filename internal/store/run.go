package store

import (
	"encoding/json"
	"errors"
	"time"
)

// Sources of a run.
const (
	SourceLocal     = "local"     // measured on this machine (iomark run)
	SourceSubmitted = "submitted" // uploaded to a server
	SourcePublished = "published" // a reference result from internal/refdata
)

// Run is one stored run: the result record as given, plus the columns lists and filters need,
// which the caller extracts from that record.
type Run struct {
	ID                string
	CreatedAt         time.Time // stored in UTC to the microsecond
	ToolVersion       string
	Profile           string
	Board             string
	BoardRevision     string
	Arch              string // the host kernel's machine name (uname -m); "" when the record has none
	DeviceClass       string
	Vendor            string
	Model             string
	CapacityBytes     int64
	LinkBus           string
	LinkSpeedMbps     int
	DeviceKey         string   // stable identity key, e.g. sd:manfid:oemid:name or usb:vid:pid:model
	ScoreIomark       *float64 // nil when the profile has no such score
	ScorePibenchmarks *float64
	Source            string          // SourceLocal, SourceSubmitted or SourcePublished
	Record            json.RawMessage // the versioned result record JSON object, byte for byte
	// Flags are the reasons the caller (the results server) doubts the run, a JSON array, empty
	// for none. A run with flags is not listed: it stays out of lists, searches, counts and
	// figures, and only GetRun returns it (doc.go).
	Flags json.RawMessage
	// Moderation is what the operator decided (SetModeration): ModerationAuto, ModerationHidden
	// or ModerationApproved. Saving ignores it; read back.
	Moderation string
	// DeleteTokenSHA256 is the hex SHA-256 of the token that lets the uploader delete the run
	// (deletion.go); empty: none. Saving keeps it when the run is new (not for a duplicate);
	// reading never returns it.
	DeleteTokenSHA256 string
	// Listed reports whether the run counts in lists, searches, counts and figures: approved,
	// or neither hidden nor flagged. Saving ignores it; read back.
	Listed bool
	// Decision, when set, is saved with the run (run_rank) in the same transaction.
	Decision *Decision
}

// Moderation states of a run.
const (
	ModerationAuto     = ""         // listed unless flagged
	ModerationHidden   = "hidden"   // never listed
	ModerationApproved = "approved" // listed even when flagged
)

// listed is whether a run with those flags and that moderation counts.
func listed(flags json.RawMessage, moderation string) bool {
	switch moderation {
	case ModerationHidden:
		return false
	case ModerationApproved:
		return true
	}
	return len(flags) == 0
}

// Test is one figure of a run, in the order of the record's tests array.
type Test struct {
	RunID    string // empty or the run's ID when saving; always set when read back
	Name     string // stable test name, e.g. rand-read-4k-qd32
	Op       string
	BS       int // block size, bytes
	QD       int
	Jobs     int
	IOPS     float64
	MBPerS   float64 // 10^6 bytes per second
	LatP50US float64
	LatP99US float64
	LatMaxUS float64
	CI95Pct  *float64 // half-width of the 95% confidence interval, % of the median; nil if not computed
}

// Filter selects runs for ListRuns. Empty fields select everything.
type Filter struct {
	Limit       int // 0 means DefaultLimit; at most MaxLimit
	Offset      int
	DeviceKey   string // exact match
	Board       string // exact match
	DeviceClass string // exact match
	Source      string // exact match
	Text        string // brand/model search: every word must start a word of the vendor or model
	WithRecord  bool   // fill Run.Record too (GetRun always does); lists rarely need it
	// Matched, when above 0, is what CountRuns (or Summarize) returned for this filter, and
	// MatchedKeys, when not nil, what Summary.Keys returned (empty: too many): SortedRuns then
	// picks its plan for a text search without counting again. Either may be a little old;
	// MatchedKeys must not be, or runs of a drive new to the filter are missed.
	Matched     int
	MatchedKeys []string
}

// Page sizes of ListRuns.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

var (
	// ErrNotFound: no run has that id.
	ErrNotFound = errors.New("run not found")
	// ErrDuplicate: the run is already stored with the same record; nothing was written. A
	// server answers with the stored run's permalink. The error is a *DuplicateError.
	ErrDuplicate = errors.New("run already stored")
	// ErrConflict: another record is already stored under that id; nothing was written.
	ErrConflict = errors.New("a different run is already stored under this id")
	// ErrInvalid: the run, a test or a filter breaks a rule the store enforces.
	ErrInvalid = errors.New("invalid input")
	// ErrFull: the database's disk (or PostgreSQL's) is full; nothing was written. Retry once
	// space is freed.
	ErrFull = errors.New("the database's disk is full")
)

// DuplicateError is returned by SaveRun for a run stored before with the same record.
// errors.Is(err, ErrDuplicate) holds.
type DuplicateError struct {
	ID        string
	CreatedAt time.Time // of the stored run
	Source    string    // of the stored run
}

func (e *DuplicateError) Error() string { return "store: run " + e.ID + " is already stored" }

// Is makes errors.Is(err, ErrDuplicate) true.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }
