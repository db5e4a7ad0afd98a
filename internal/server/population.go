package server

import (
	"context"
	"fmt"
	"sort"

	"github.com/iomark/iomark/internal/compare"
)

// popData is a population in the compact form the cache keeps: for each metric measured one
// way, its figures in ascending order beside the run and drive model of each, so a large
// population fits the rankings cache and a result is placed without sorting it again.
type popData struct {
	series map[string]*popSeries // by popSeriesKey(metric, method)
	models map[string]int32      // drive model key → the number popSeries.models holds
}

type popSeries struct {
	values []float64 // ascending
	ids    []string  // the run of each value
	models []int32   // the drive model of each value (popData.models)
}

func popSeriesKey(m compare.Metric, method string) string { return string(m) + "\x00" + method }

// popKey names one population: a board family's results of one class at one link setting.
func popKey(kind, family, class, setting string) string {
	return fmt.Sprintf("%s\x00%q\x00%q\x00%q", kind, family, class, setting)
}

// population is what a result is placed among: the listed, ranked results of its board
// family, class and link setting. It is read by one indexed query and kept like a ranking, so
// a result page reads no other population's rows.
func (s *Server) population(ctx context.Context, family, class, setting string) (*popData, error) {
	v, err := s.cache.get(ctx, popKey("population", family, class, setting), func(ctx context.Context) (any, error) {
		rows, err := s.st.PopulationRows(ctx, family, class, setting)
		if err != nil {
			return nil, err
		}
		pd := &popData{series: map[string]*popSeries{}, models: map[string]int32{}}
		for _, r := range rows {
			model, ok := pd.models[r.ModelKey]
			if !ok {
				model = int32(len(pd.models))
				pd.models[r.ModelKey] = model
			}
			for m, f := range entryOf(r).Figures {
				k := popSeriesKey(m, f.Method)
				ser := pd.series[k]
				if ser == nil {
					ser = &popSeries{}
					pd.series[k] = ser
				}
				ser.values, ser.ids, ser.models = append(ser.values, f.Value), append(ser.ids, r.RunID), append(ser.models, model)
			}
		}
		for _, ser := range pd.series {
			sort.Sort(ser)
		}
		return pd, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*popData), nil
}

func (p *popSeries) Len() int           { return len(p.values) }
func (p *popSeries) Less(i, j int) bool { return p.values[i] < p.values[j] }
func (p *popSeries) Swap(i, j int) {
	p.values[i], p.values[j] = p.values[j], p.values[i]
	p.ids[i], p.ids[j] = p.ids[j], p.ids[i]
	p.models[i], p.models[j] = p.models[j], p.models[i]
}

// among is the series' figures but those of run, in ascending order, and of them those of the
// drive model key.
func (p *popData) among(m compare.Metric, method, run, key string) (all, ofModel []float64) {
	ser := p.series[popSeriesKey(m, method)]
	if ser == nil {
		return nil, nil
	}
	model, known := p.models[key]
	all = make([]float64, 0, len(ser.values))
	for i, v := range ser.values {
		if ser.ids[i] == run {
			continue
		}
		all = append(all, v)
		if known && ser.models[i] == model {
			ofModel = append(ofModel, v)
		}
	}
	return all, ofModel
}

// groupRanking is the ranking of one population, as compare.Rank gives it for that class and
// setting (it ranks each class and setting on its own), kept like the leaderboards; nil when
// nothing of the population ranks.
func (s *Server) groupRanking(ctx context.Context, family, class, setting string) (*compare.Ranking, error) {
	v, err := s.cache.get(ctx, popKey("ranking", family, class, setting), func(ctx context.Context) (any, error) {
		es, err := entriesOf(s.st.PopulationRows(ctx, family, class, setting))
		if err != nil {
			return nil, err
		}
		for _, rk := range compare.Rank(es, family) {
			if rk.Class == class && rk.Setting == setting {
				return &rk, nil
			}
		}
		return (*compare.Ranking)(nil), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*compare.Ranking), nil
}
