package runstore

import (
	"context"
	"fmt"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// StoreDecision turns the comparison model's decision into the store's columns.
func StoreDecision(d compare.Decision) *store.Decision {
	out := &store.Decision{Version: compare.Version, ModelKey: d.Model.Key, ModelName: d.Model.Name, Board: d.Board,
		Family: d.Family, DeviceClass: d.Class, LinkSetting: d.Setting, SettingInferred: d.SettingInferred, Ranked: d.Ranked()}
	get := func(m compare.Metric) (*float64, string) {
		f, ok := d.Figures[m]
		if !ok {
			return nil, ""
		}
		v := f.Value
		return &v, f.Method
	}
	out.Score, _ = get(compare.MetricScore)
	out.SeqReadMBPerS, out.SeqReadMethod = get(compare.MetricSeqRead)
	out.SeqWriteMBPerS, out.SeqWriteMethod = get(compare.MetricSeqWrite)
	out.RandRead4kMBPS, _ = get(compare.MetricRandRead)
	out.RandWrite4kMBPS, _ = get(compare.MetricRandWrite)
	out.PriceUSD, out.PriceSource = d.PriceUSD, d.PriceSource
	return out
}

// Redecide decides again every stored run (other than published rows, which the server
// replaces) whose decision is missing or older than compare.Version. It returns how many it
// re-decided.
func Redecide(ctx context.Context, st *store.Store) (int, error) {
	n := 0
	for {
		runs, err := st.Undecided(ctx, compare.Version, 500)
		if err != nil {
			return n, err
		}
		if len(runs) == 0 {
			return n, nil
		}
		for _, row := range runs {
			d := compare.Decision{}
			if r, err := record.Decode(row.Record); err == nil {
				d = compare.Decide(r)
			}
			// A record this iomark cannot read is decided as unranked, so it is not read again.
			if err := st.SetDecision(ctx, row.ID, *StoreDecision(d)); err != nil {
				return n, fmt.Errorf("re-deciding run %s: %w", row.ID, err)
			}
			n++
		}
	}
}
