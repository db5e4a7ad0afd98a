package server

import (
	"context"
	"net/url"
	"strings"

	"github.com/iomark/iomark/internal/store"
)

// Compare and value take drives by key, and also by part of a name: a drive parameter without a
// colon (every device key has one, record.DeviceKey) is a search, whose matching drives the page
// offers to add. So the plain form works without JavaScript; with it, static/picker.js offers
// the same drives while one types (from /api/v1/search) and puts the chosen key in the field.

// Found is what a name typed into compare or value found.
type Found struct {
	Text   string      `json:"text"`
	Drives []FoundItem `json:"drives"`
}

// FoundItem is one matching drive and the page's URL with it added.
type FoundItem struct {
	DriveRef
	AddURL string `json:"add_url"`
}

const foundMax = 10

// isDriveSearch tells a typed name from a device key.
func isDriveSearch(v string) bool { return !strings.Contains(v, ":") }

// findDrives searches drives by name for a compare or value form; add makes the URL that adds
// a key in place of the typed text.
func (s *Server) findDrives(ctx context.Context, text string, add func(key string) string) (Found, error) {
	f := Found{Text: text, Drives: []FoundItem{}}
	agg, err := s.searchAggregates(ctx, store.Filter{Text: text}, store.Narrow{})
	if err != nil {
		return f, err
	}
	for _, d := range agg.drives[:min(len(agg.drives), foundMax)] {
		f.Drives = append(f.Drives, FoundItem{DriveRef: d, AddURL: add(d.DeviceKey)})
	}
	return f, nil
}

// replacing returns path with the query q, its param's value at index i (among that param's
// values) set to key.
func replacing(path string, q url.Values, param string, i int, key string) string {
	c := url.Values{}
	for k, vs := range q {
		c[k] = append([]string(nil), vs...)
	}
	if i < len(c[param]) {
		c[param][i] = key
	}
	return path + "?" + c.Encode()
}
