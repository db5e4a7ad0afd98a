package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"

	"github.com/iomark/iomark/internal/record"
)

// scrubVersion is the migration that removes what is private (record.PrivateFields, private
// mount options, hostnames) from the records of uploaded runs kept before the results server
// dropped them on ingest. It is Go, not SQL: the rule is record.ScrubJSON's, in one place, and
// neither database's SQL can apply it (mount options are a list inside a string). This is the
// one place the store reads a record's fields. Local and published runs keep their records:
// a local run's path is its owner's, on their own machine.
const scrubVersion = 14

// scrubBatch bounds the rows one query of the scrub holds in memory.
const scrubBatch = 200

// goMigrations are the migrations written in Go, numbered among the SQL files.
func goMigrations() []*goose.Migration { return []*goose.Migration{scrubMigration()} }

func scrubMigration() *goose.Migration {
	return goose.NewGoMigration(scrubVersion, &goose.GoFunc{RunTx: scrubUploaded}, &goose.GoFunc{RunTx: nil})
}

// scrubUploaded rewrites each uploaded record that holds something private, by id order in
// batches, within the migration's transaction.
func scrubUploaded(ctx context.Context, tx *sql.Tx) error {
	after := ""
	for {
		rows, err := tx.QueryContext(ctx, `SELECT id, record FROM runs WHERE source = $1 AND id > $2 ORDER BY id LIMIT $3`,
			SourceSubmitted, after, scrubBatch)
		if err != nil {
			return fmt.Errorf("reading uploaded records: %w", err)
		}
		type change struct{ id, rec string }
		var changes []change
		n := 0
		for rows.Next() {
			var id, rec string
			if err := rows.Scan(&id, &rec); err != nil {
				rows.Close()
				return fmt.Errorf("reading uploaded records: %w", err)
			}
			n++
			after = id
			out, changed, err := record.ScrubJSON([]byte(rec))
			if err != nil || !changed {
				continue // not a JSON object: nothing it could be read for
			}
			changes = append(changes, change{id, string(out)})
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("reading uploaded records: %w", err)
		}
		for _, c := range changes {
			if _, err := tx.ExecContext(ctx, `UPDATE runs SET record = $1 WHERE id = $2`, c.rec, c.id); err != nil {
				return fmt.Errorf("scrubbing uploaded record %s: %w", c.id, err)
			}
		}
		if n < scrubBatch {
			return nil
		}
	}
}
