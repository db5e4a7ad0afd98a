package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
)

// Saving a run also keeps two small tables in step, in the same transaction (migrations 00003
// and 00004): search_names, each distinct brand/model text once, which the text search matches
// instead of every run; and run_counts, how many runs share each combination of the columns
// searches filter on, which counts and groupings read instead of every run.
//
// Concurrent transactions (PostgreSQL savers) touch these rows in one global order, names
// sorted, then counts sorted, so two batches sharing rows wait for each other instead of
// deadlocking.

// countKey is one row of run_counts.
type countKey struct {
	DeviceKey, Board, Source string
	NameID                   int64
	DeviceClass              string
	Vendor, Model            string
	LinkBus                  string
	CapacityBytes            int64
}

func countKeyOf(run Run, nameID int64) countKey {
	return countKey{DeviceKey: run.DeviceKey, Board: run.Board, Source: run.Source, NameID: nameID,
		DeviceClass: run.DeviceClass, Vendor: run.Vendor, Model: run.Model, LinkBus: run.LinkBus,
		CapacityBytes: run.CapacityBytes}
}

func compareCountKeys(a, b countKey) int {
	return cmp.Or(cmp.Compare(a.DeviceKey, b.DeviceKey), cmp.Compare(a.Board, b.Board),
		cmp.Compare(a.Source, b.Source), cmp.Compare(a.NameID, b.NameID),
		cmp.Compare(a.DeviceClass, b.DeviceClass), cmp.Compare(a.Vendor, b.Vendor),
		cmp.Compare(a.Model, b.Model), cmp.Compare(a.LinkBus, b.LinkBus),
		cmp.Compare(a.CapacityBytes, b.CapacityBytes))
}

// nameIDs returns the search_names id of each text, adding the texts not yet stored.
func (s *Store) nameIDs(ctx context.Context, tx *sql.Tx, texts []string) (map[string]int64, error) {
	texts = slices.Clone(texts)
	slices.Sort(texts)
	texts = slices.Compact(texts)
	ids := make(map[string]int64, len(texts))
	for _, text := range texts {
		id, err := nameID(ctx, tx, text)
		if err != nil {
			return nil, s.wrapErr("saving the search name "+text+" in", err)
		}
		ids[text] = id
	}
	return ids, nil
}

func nameID(ctx context.Context, tx *sql.Tx, text string) (int64, error) {
	const lookup = `SELECT id FROM search_names WHERE search_text = $1`
	var id int64
	err := tx.QueryRowContext(ctx, lookup, text).Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	// Another transaction may add the same name meanwhile: DO NOTHING waits for it and then
	// yields, and the second lookup, a new statement, sees its row.
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_names (search_text) VALUES ($1)
ON CONFLICT (search_text) DO NOTHING`, text); err != nil {
		return 0, err
	}
	err = tx.QueryRowContext(ctx, lookup, text).Scan(&id)
	return id, err
}

// addCounts adds the saved runs to run_counts.
func (s *Store) addCounts(ctx context.Context, tx *sql.Tx, deltas map[countKey]int64) error {
	keys := make([]countKey, 0, len(deltas))
	for k := range deltas {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareCountKeys)
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO run_counts (device_key, board, source, name_id,
    device_class, vendor, model, link_bus, capacity_bytes, runs)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes)
DO UPDATE SET runs = run_counts.runs + excluded.runs`)
	if err != nil {
		return s.wrapErr("counting runs in", err)
	}
	defer stmt.Close()
	for _, k := range keys {
		if _, err := stmt.ExecContext(ctx, k.DeviceKey, k.Board, k.Source, k.NameID, k.DeviceClass,
			k.Vendor, k.Model, k.LinkBus, k.CapacityBytes, deltas[k]); err != nil {
			return s.wrapErr("counting runs in", err)
		}
	}
	return nil
}
