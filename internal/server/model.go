package server

import (
	"net/http"
	"net/url"
	"sort"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/refdata"
)

// ModelData is a drive model's page: its results split by board family and link setting (a
// Pi 3's figures are never pooled with a Pi 5's), each group's median headline figures and its
// place in that family's ranking.
type ModelData struct {
	ModelKey string       `json:"model_key"`
	Name     string       `json:"name"`
	Class    string       `json:"class"`
	Results  int          `json:"results"`
	Groups   []ModelGroup `json:"groups"`
	// DeviceURLs are the per-test detail pages of the device identities the results report.
	DeviceURLs []DeviceLink `json:"device_urls"`
}

// DeviceLink is one device key's detail page.
type DeviceLink struct {
	Key string `json:"key"`
	URL string `json:"url"`
}

// ModelGroup is the model's results on one family at one link setting.
type ModelGroup struct {
	Family  string    `json:"family"`
	Setting string    `json:"setting,omitempty"`
	Results int       `json:"results"`
	Rank    int       `json:"rank,omitempty"` // in its family's ranking; 0 when not ranked
	Of      int       `json:"of,omitempty"`
	Basis   string    `json:"basis,omitempty"`
	RankURL string    `json:"rank_url,omitempty"`
	Medians           // the model's, in its family's ranking
	Runs    []RunFigs `json:"runs"`
	Boards  []string  `json:"boards"`
	Notes   []string  `json:"notes,omitempty"`
}

// RunFigs is one result of a model group with its headline figures.
type RunFigs struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	Figs Speeds `json:"figures"`
}

const modelRuns = 2000

func modelPath(key string) string { return "/model?key=" + url.QueryEscape(key) }

func (s *Server) modelData(r *http.Request) (any, error) {
	key := r.URL.Query().Get("key")
	if key == "" {
		return nil, badInput(errorf("give the drive model's key: /model?key=… (the rankings link to it)"))
	}
	ctx := r.Context()
	rows, err := s.st.ModelRows(ctx, key, modelRuns)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, notFound("no listed result is of drive model " + key)
	}
	d := ModelData{ModelKey: key, Name: rows[0].ModelName, Class: rows[0].DeviceClass, Results: len(rows), Groups: []ModelGroup{}}
	type gk struct{ family, setting string }
	groups := map[gk][]compare.Entry{}
	d.DeviceURLs = []DeviceLink{}
	devices := map[string]bool{}
	for _, row := range rows {
		if row.Source == "published" {
			d.Name = row.ModelName
		}
		if row.DeviceKey != "" && !devices[row.DeviceKey] && len(devices) < 20 {
			devices[row.DeviceKey] = true
			d.DeviceURLs = append(d.DeviceURLs, DeviceLink{Key: row.DeviceKey, URL: drivePath(row.DeviceKey) + "&detail=1"})
		}
		e := entryOf(row)
		groups[gk{row.Family, row.LinkSetting}] = append(groups[gk{row.Family, row.LinkSetting}], e)
	}
	famOrder := map[string]int{}
	for i, f := range refdata.Families() {
		famOrder[f] = i
	}
	var keys []gk
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if famOrder[keys[i].family] != famOrder[keys[j].family] {
			return famOrder[keys[i].family] < famOrder[keys[j].family]
		}
		return keys[i].setting < keys[j].setting
	})
	for _, k := range keys {
		es := groups[k]
		g := ModelGroup{Family: k.family, Setting: k.setting, Results: len(es), Runs: []RunFigs{}, Boards: []string{}}
		boards := map[string]bool{}
		for _, e := range es {
			g.Runs = append(g.Runs, RunFigs{ID: e.ID, URL: resultPath(e.ID), Figs: speedsOf(e.Figures)})
			if e.Board != "" {
				boards[e.Board] = true
			}
			if e.SettingInferred != "" && !oneOfStr(e.SettingInferred, g.Notes) {
				g.Notes = append(g.Notes, e.SettingInferred)
			}
		}
		g.Boards = sortedKeys(boards)
		rk, err := s.groupRanking(ctx, k.family, d.Class, k.setting)
		if err != nil {
			return nil, err
		}
		if rk != nil {
			g.Basis, g.Of = rk.Basis.Label(), len(rk.Drives)
			g.RankURL = leaderFilter{}.url(k.family, rk.Class, rk.Setting)
			for _, dr := range rk.Drives {
				if dr.Model.Key == key {
					g.Rank = dr.Rank
					g.Medians = mediansOf(dr)
				}
			}
		}
		d.Groups = append(d.Groups, g)
	}
	return d, nil
}
