package record

import (
	"encoding/json"
	"fmt"
)

// Decode reads a record from JSON, refusing a newer schema than this iomark knows.
func Decode(data []byte) (*Run, error) {
	var r Run
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a result record: %w", err)
	}
	if r.SchemaVersion > SchemaVersion {
		return nil, fmt.Errorf("result record schema %d is newer than this iomark knows (%d): upgrade iomark", r.SchemaVersion, SchemaVersion)
	}
	return &r, nil
}
