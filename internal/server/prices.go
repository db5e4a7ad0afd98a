package server

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/iomark/iomark/internal/store"
)

// SentPrice is what a drive cost according to its results: the median of the prices users sent
// with `iomark run --price` (record.Run.PriceUSD) and of those published sources state
// (refdata's price_usd column, kept in the record's published block as printed), in US dollars.
type SentPrice struct {
	MedianUSD float64 `json:"median_usd"`
	Count     int     `json:"count"`
}

const priceRuns = store.MaxLimit // newest results of a drive whose records are read for prices

// sentPrice reads the prices of a drive's newest results (kept); ok is false when none has one.
func (s *Server) sentPrice(ctx context.Context, key string) (SentPrice, bool, error) {
	v, err := s.cache.get(ctx, "price\x00"+key, func(ctx context.Context) (any, error) {
		runs, err := s.st.ListRuns(ctx, store.Filter{DeviceKey: key, Limit: priceRuns, WithRecord: true})
		if err != nil {
			return nil, err
		}
		var prices []float64
		for _, r := range runs {
			if p, ok := recordPrice(r.Record); ok {
				prices = append(prices, p)
			}
		}
		st := statsOf(prices)
		return SentPrice{MedianUSD: st.Median, Count: st.Count}, nil
	})
	if err != nil {
		return SentPrice{}, false, err
	}
	p := v.(SentPrice)
	return p, p.Count > 0, nil
}

// recordPrice is a stored record's price in US dollars: the uploader's --price, else the price
// its published source states.
func recordPrice(raw json.RawMessage) (float64, bool) {
	var rec struct {
		PriceUSD  *float64   `json:"price_usd"`
		Published *Published `json:"published"`
	}
	if json.Unmarshal(raw, &rec) != nil {
		return 0, false
	}
	if rec.PriceUSD != nil && *rec.PriceUSD > 0 && *rec.PriceUSD < 1e9 {
		return *rec.PriceUSD, true
	}
	if rec.Published != nil {
		for _, f := range rec.Published.Figures {
			if f.Column != "price_usd" {
				continue
			}
			if p, err := strconv.ParseFloat(f.Printed, 64); err == nil && p > 0 && p < 1e9 {
				return p, true
			}
		}
	}
	return 0, false
}
