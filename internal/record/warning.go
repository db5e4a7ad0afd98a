package record

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Warning is a note for people about a figure or the run: a budget that ran out, a test
// skipped, an engine fallback, a claimed class not met. Code is stable for programs (the
// codes are listed in docs/result-record.md); Message is a sentence, starting with the test's
// name when it is about one test.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// UnmarshalJSON reads a warning as schema 2 writes it, an object, or as schema 1 did, a bare
// sentence (its code is then empty), so older records stay readable.
func (w *Warning) UnmarshalJSON(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		var msg string
		if err := json.Unmarshal(t, &msg); err != nil {
			return err
		}
		*w = Warning{Message: msg}
		return nil
	}
	type plain Warning // no UnmarshalJSON: decodes the object's fields
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("a warning is an object {code, message} or a sentence: %w", err)
	}
	*w = Warning(p)
	return nil
}
