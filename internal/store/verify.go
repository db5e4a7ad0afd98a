package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Verify is one `iomark verify` result as the store keeps it: the result JSON exactly as
// given (the store does not interpret it) and the columns the caller extracted from it.
type Verify struct {
	ID           string
	CreatedAt    time.Time
	DeviceKey    string // the product, as a run's device key
	UnitKey      string // this one drive: device key, serial hash, claimed size
	Target       string
	Mode         string // probe, fill or full
	Verdict      string
	ClaimedBytes int64
	UsableBytes  int64
	Result       json.RawMessage
}

func (v Verify) validate() error {
	switch {
	case v.ID == "" || len(v.ID) > 64:
		return invalid("verify id %q: 1-64 characters", v.ID)
	case v.UnitKey == "" || v.DeviceKey == "":
		return invalid("verify %s: device and unit keys are required", v.ID)
	case v.Mode != "probe" && v.Mode != "fill" && v.Mode != "full":
		return invalid("verify %s: mode %q is not probe, fill or full", v.ID, v.Mode)
	case v.Verdict == "":
		return invalid("verify %s: no verdict", v.ID)
	case v.ClaimedBytes < 0 || v.UsableBytes < 0:
		return invalid("verify %s: negative sizes", v.ID)
	case !json.Valid(v.Result) || len(v.Result) == 0 || v.Result[0] != '{':
		return invalid("verify %s: the result is not a JSON object", v.ID)
	}
	return nil
}

// SaveVerify stores a verify result. Bad input returns an error wrapping ErrInvalid; an id
// already stored, one wrapping ErrConflict.
func (s *Store) SaveVerify(ctx context.Context, v Verify) error {
	if err := v.validate(); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO verifies (id, created_at_us, device_key, unit_key, target, mode,
    verdict, claimed_bytes, usable_bytes, result) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (id) DO NOTHING`,
		v.ID, toMicros(v.CreatedAt), v.DeviceKey, v.UnitKey, v.Target, v.Mode, v.Verdict, v.ClaimedBytes, v.UsableBytes, string(v.Result))
	if err != nil {
		return s.wrapErr("saving verify "+v.ID+" to", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: saving verify %s: %w (the id is taken)", v.ID, ErrConflict)
	}
	return nil
}

const verifyColumns = `id, created_at_us, device_key, unit_key, target, mode, verdict, claimed_bytes, usable_bytes, result`

// LatestVerify returns the newest verify of one drive (unit key), or nil when it has none.
func (s *Store) LatestVerify(ctx context.Context, unitKey string) (*Verify, error) {
	vs, err := s.verifies(ctx, `SELECT `+verifyColumns+` FROM verifies WHERE unit_key = $1
ORDER BY created_at_us DESC, id DESC LIMIT 1`, unitKey)
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	return &vs[0], nil
}

// DeviceVerifies returns the newest verifies of a product (device key), newest first, at
// most limit.
func (s *Store) DeviceVerifies(ctx context.Context, deviceKey string, limit int) ([]Verify, error) {
	if limit <= 0 || limit > 1000 {
		return nil, invalid("limit %d: 1-1000", limit)
	}
	return s.verifies(ctx, `SELECT `+verifyColumns+` FROM verifies WHERE device_key = $1
ORDER BY created_at_us DESC, id DESC LIMIT $2`, deviceKey, limit)
}

// VerifiesByID returns the verifies whose id starts or ends with ref (a full id, or the short
// one `iomark verify` prints: its end), at most two: more than one means ref is ambiguous. A
// ref of anything but letters, digits and '-' matches nothing.
func (s *Store) VerifiesByID(ctx context.Context, ref string) ([]Verify, error) {
	prefix := ref
	if prefix == "" || len(prefix) > 64 {
		return nil, nil
	}
	for _, r := range prefix {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
			return nil, nil
		}
	}
	return s.verifies(ctx, `SELECT `+verifyColumns+` FROM verifies WHERE id LIKE $1 OR id LIKE $2
ORDER BY created_at_us DESC, id DESC LIMIT 2`, prefix+"%", "%"+prefix)
}

func (s *Store) verifies(ctx context.Context, query string, args ...any) ([]Verify, error) {
	out, err := queryAll(ctx, s, s.db, "reading verifies from", query, args, func(rows *sql.Rows) (v Verify, err error) {
		var us int64
		var result string
		err = rows.Scan(&v.ID, &us, &v.DeviceKey, &v.UnitKey, &v.Target, &v.Mode, &v.Verdict, &v.ClaimedBytes, &v.UsableBytes, &result)
		v.CreatedAt, v.Result = fromMicros(us), json.RawMessage(result)
		return v, err
	})
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return out, nil
}
