package cli

import (
	"context"
	"encoding/json"
	"os"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

// verifyFindings looks up the latest verify of the drive a report describes and returns
// its findings (fake-capacity, flash-damaged). It never creates a database: with no --db and
// no default database file there is nothing to find; a database it cannot read is skipped
// too, since info and run must work without one.
func verifyFindings(ctx context.Context, dsn string, rep *probe.Report) []record.Finding {
	if rep == nil || rep.Device == nil {
		return nil
	}
	unit := (&record.Run{Device: rep.Device, SD: rep.SD, USB: rep.USB, NVMe: rep.NVMe, SATA: rep.SATA}).UnitKey()
	if unit == "" {
		return nil
	}
	if namedDB(dsn) == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil
		}
		if _, err := os.Stat(p); err != nil {
			return nil
		}
	}
	st, err := openStore(ctx, dsn)
	if err != nil {
		return nil
	}
	defer st.Close()
	v, err := st.LatestVerify(ctx, unit)
	if err != nil || v == nil {
		return nil
	}
	var res flash.Result
	if err := json.Unmarshal(v.Result, &res); err != nil {
		return nil
	}
	return advice.VerifyFindings(&advice.Verified{ID: runstore.ShortID(v.ID), At: v.CreatedAt, Result: &res}, rep.Device.Path)
}
