package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxIDBytes bounds a run id; ids are permalinks, so they stay short.
const maxIDBytes = 128

// validateRun checks what the database cannot check the same way on both back ends (PostgreSQL
// refuses NUL and invalid UTF-8 in text, SQLite stores them; SQLite turns NaN into NULL).
func validateRun(r Run, tests []Test) error {
	if err := checkID(r.ID); err != nil {
		return err
	}
	if r.CreatedAt.IsZero() {
		return invalid("run %s has no creation time", r.ID)
	}
	switch r.Source {
	case SourceLocal, SourceSubmitted, SourcePublished:
	default:
		return invalid("run %s: source %q is not one of local, submitted, published", r.ID, r.Source)
	}
	for name, s := range map[string]string{
		"id": r.ID, "tool version": r.ToolVersion, "profile": r.Profile, "board": r.Board,
		"board revision": r.BoardRevision, "arch": r.Arch, "device class": r.DeviceClass, "vendor": r.Vendor,
		"model": r.Model, "link bus": r.LinkBus, "device key": r.DeviceKey,
	} {
		if err := checkText(name, s); err != nil {
			return fmt.Errorf("run %s: %w", r.ID, err)
		}
	}
	if r.CapacityBytes < 0 || r.LinkSpeedMbps < 0 || r.LinkSpeedMbps > math.MaxInt32 {
		return invalid("run %s: capacity or link speed out of range", r.ID)
	}
	if !finite(r.ScoreIomark) || !finite(r.ScorePibenchmarks) {
		return invalid("run %s: a score is not a finite number", r.ID)
	}
	if err := checkRecord(r.Record); err != nil {
		return fmt.Errorf("run %s: %w", r.ID, err)
	}
	if err := checkFlags(r.Flags); err != nil {
		return fmt.Errorf("run %s: %w", r.ID, err)
	}
	for i, t := range tests {
		if t.RunID != "" && t.RunID != r.ID {
			return invalid("run %s: test %d belongs to run %q", r.ID, i, t.RunID)
		}
		if t.Name == "" {
			return invalid("run %s: test %d has no name", r.ID, i)
		}
		if err := checkText("test name", t.Name); err != nil {
			return fmt.Errorf("run %s: %w", r.ID, err)
		}
		if err := checkText("test op", t.Op); err != nil {
			return fmt.Errorf("run %s: %w", r.ID, err)
		}
		// INTEGER is 32 bits in PostgreSQL; SQLite would take more, so both refuse it here.
		if t.BS < 0 || t.QD < 0 || t.Jobs < 0 || t.QD > math.MaxInt32 || t.Jobs > math.MaxInt32 {
			return invalid("run %s: test %s has a block size, queue depth or job count out of range", r.ID, t.Name)
		}
		for _, v := range []float64{t.IOPS, t.MBPerS, t.LatP50US, t.LatP99US, t.LatMaxUS} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return invalid("run %s: test %s has a figure that is not a finite number", r.ID, t.Name)
			}
		}
		if !finite(t.CI95Pct) {
			return invalid("run %s: test %s has a confidence interval that is not a finite number", r.ID, t.Name)
		}
	}
	return nil
}

// checkID tells whether id can name a run: ids are permalinks, so short, printable and free of
// spaces.
func checkID(id string) error {
	if id == "" {
		return invalid("run id is empty")
	}
	if len(id) > maxIDBytes {
		return invalid("run id is %d bytes, at most %d allowed", len(id), maxIDBytes)
	}
	if !utf8.ValidString(id) {
		return invalid("run id %q is not valid UTF-8", id)
	}
	if strings.IndexFunc(id, func(c rune) bool { return c < 0x21 || c == 0x7f || unicode.IsSpace(c) }) >= 0 {
		return invalid("run id %q holds a space or control character", id)
	}
	return nil
}

func checkText(name, s string) error {
	if !utf8.ValidString(s) {
		return invalid("%s is not valid UTF-8", name)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return invalid("%s holds a NUL byte", name)
	}
	return nil
}

func checkRecord(rec json.RawMessage) error {
	trimmed := bytes.TrimSpace(rec)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return invalid("the result record is not a JSON object")
	}
	if !utf8.Valid(rec) || !json.Valid(rec) {
		return invalid("the result record is not valid JSON")
	}
	if bytes.IndexByte(rec, 0) >= 0 {
		return invalid("the result record holds a NUL byte")
	}
	return nil
}

// checkFlags accepts no flags (empty) or a non-empty JSON array.
func checkFlags(flags json.RawMessage) error {
	if len(flags) == 0 {
		return nil
	}
	trimmed := bytes.TrimSpace(flags)
	if len(trimmed) == 0 || trimmed[0] != '[' || !utf8.Valid(flags) || !json.Valid(flags) || bytes.IndexByte(flags, 0) >= 0 {
		return invalid("the flags are not a JSON array")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(flags, &items); err != nil || len(items) == 0 {
		return invalid("the flags are an empty JSON array: give none instead")
	}
	return nil
}

func finite(p *float64) bool {
	return p == nil || !(math.IsNaN(*p) || math.IsInf(*p, 0))
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// sameRecord reports whether two records hold the same JSON value: whitespace and key order do
// not matter, numbers compare as written.
func sameRecord(a, b []byte) bool {
	va, errA := decodeJSON(a)
	vb, errB := decodeJSON(b)
	if errA != nil || errB != nil {
		return bytes.Equal(a, b)
	}
	return jsonEqual(va, vb)
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b // string, json.Number, bool, nil
	}
}
