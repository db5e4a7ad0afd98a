package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Saving a run also keeps two small tables in step, in the same transaction (migrations 00003
// and 00004): search_names, each distinct brand/model text once, which the text search matches
// instead of every run; and run_counts, how many runs share each combination of the columns
// searches filter on, which counts and groupings read instead of every run.
//
// Concurrent transactions (PostgreSQL savers) touch these rows in one global order (names
// looked up or added sorted by text, runs by id, run_counts by key, the names' counts by id),
// so two batches sharing rows wait for each other instead of deadlocking.

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

// nameIDs returns the search_names id of each text, adding the texts not yet stored. Stored
// names, nearly all of them once a server has run a while, are read in one statement.
func (s *Store) nameIDs(ctx context.Context, tx *sql.Tx, texts []string) (map[string]int64, error) {
	texts = slices.Clone(texts)
	slices.Sort(texts)
	texts = slices.Compact(texts)
	ids := make(map[string]int64, len(texts))
	q, arg := `SELECT search_text, id FROM search_names WHERE search_text = ANY($1)`, any(texts)
	if s.dialect != postgresDialect {
		list, _ := json.Marshal(texts) // strings always marshal
		q, arg = `SELECT search_text, id FROM search_names
WHERE search_text IN (SELECT value FROM json_each($1))`, string(list)
	}
	if err := queryMap(ctx, s, tx, "reading search names in", q, []any{arg}, ids); err != nil {
		return nil, err
	}
	for _, text := range texts {
		if _, ok := ids[text]; ok {
			continue
		}
		id, err := addName(ctx, tx, text)
		if err != nil {
			return nil, s.wrapErr("saving the search name "+text+" in", err)
		}
		ids[text] = id
	}
	return ids, nil
}

func addName(ctx context.Context, tx *sql.Tx, text string) (int64, error) {
	// Another transaction may add the same name meanwhile: DO NOTHING waits for it and then
	// yields, and the lookup, a new statement, sees its row.
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_names (search_text) VALUES ($1)
ON CONFLICT (search_text) DO NOTHING`, text); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM search_names WHERE search_text = $1`, text).Scan(&id)
	return id, err
}

// rowsPerStatement bounds a multi-row statement: 13 columns a row stays far below both
// databases' limits on bound values (SQLite 32766, PostgreSQL 65535).
const rowsPerStatement = 500

// insertRows runs head followed by one "($1, $2, …)" group per row and then tail, for rows in
// chunks of rowsPerStatement.
func insertRows(ctx context.Context, tx *sql.Tx, head, tail string, rows [][]any) error {
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), rowsPerStatement)]
		rows = rows[len(chunk):]
		var (
			b    strings.Builder
			args []any
		)
		b.WriteString(head)
		for i, row := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j, v := range row {
				if j > 0 {
					b.WriteString(", ")
				}
				args = append(args, v)
				fmt.Fprintf(&b, "$%d", len(args))
			}
			b.WriteByte(')')
		}
		b.WriteString(tail)
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// addCounts adds the saved runs to run_counts and to their names' counts, each in as few
// statements as rowsPerStatement allows, rows in key order (the lock order).
func (s *Store) addCounts(ctx context.Context, tx *sql.Tx, deltas map[countKey]int64, texts map[int64]string) error {
	keys := make([]countKey, 0, len(deltas))
	for k := range deltas {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareCountKeys)
	rows := make([][]any, len(keys))
	perName := map[int64]int64{}
	for i, k := range keys {
		rows[i] = []any{k.DeviceKey, k.Board, k.Source, k.NameID, k.DeviceClass, k.Vendor, k.Model,
			k.LinkBus, k.CapacityBytes, deltas[k]}
		perName[k.NameID] += deltas[k]
	}
	if err := insertRows(ctx, tx, `INSERT INTO run_counts (device_key, board, source, name_id,
    device_class, vendor, model, link_bus, capacity_bytes, runs) VALUES `,
		` ON CONFLICT (device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes)
DO UPDATE SET runs = run_counts.runs + excluded.runs`, rows); err != nil {
		return s.wrapErr("counting runs in", err)
	}
	names := make([]int64, 0, len(perName))
	for id := range perName {
		names = append(names, id)
	}
	slices.Sort(names)
	rows = rows[:0]
	for _, id := range names {
		rows = append(rows, []any{id, texts[id], perName[id]})
	}
	// Every name exists (nameIDs): this is an UPDATE of many rows in one statement and in id
	// order, which UPDATE … WHERE id IN (…) would not promise.
	if err := insertRows(ctx, tx, `INSERT INTO search_names (id, search_text, runs) VALUES `,
		` ON CONFLICT (id) DO UPDATE SET runs = search_names.runs + excluded.runs`, rows); err != nil {
		return s.wrapErr("counting runs in", err)
	}
	return nil
}
