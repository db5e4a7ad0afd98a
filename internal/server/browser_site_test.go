package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/iomark/iomark/internal/record"
)

// axeSource is axe-core 4.14.1's axe.min.js from its npm tarball (testdata/axe/LICENSE, MPL
// 2.0; docs/decisions-server.md says how to update it). Tests only: the server never sends it.
//
//go:embed testdata/axe/axe.min.js
var axeSource string

// chartsDrawn is JS listing the charts of the page that are not drawn: no Chart object, or a
// canvas without a single non-transparent pixel.
const chartsDrawn = `(() => Array.from(document.querySelectorAll('canvas[data-chart]')).filter(c => {
  if (!c.chart || !c.width || !c.height) return true;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) { if (d[i] !== 0) return false; }
  return true; }).map(c => c.id))()`

// axeViolation is what the test reads of axe's results.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// TestBrowserSitePages opens every kind of page at 1280 and 390 px: the page is never wider
// than the window, each chart is drawn, axe finds no serious or critical violation, and a
// screenshot of each is kept. Then the compare and value pickers fill from typing.
func TestBrowserSitePages(t *testing.T) {
	ctx := newBrowser(t)
	shots := artifactsDir(t)
	ts := startSeededServer(t)
	a, b := postTwoDrives(t, ts, "s", "Raspberry Pi 4 Model B Rev 1.4", func(i int, r *record.Run) {
		price := 11 + float64(i) // sent with --price: the value page charts USD per MB/s too
		r.PriceUSD = &price
	})
	ka, kb := url.QueryEscape(a.DeviceKey()), url.QueryEscape(b.DeviceKey())
	pages := []struct {
		name, path string
		charts     int // at least this many charts
	}{
		{"home", "/?family=" + url.QueryEscape("Pi 4"), 0},
		{"board", "/board?name=" + url.QueryEscape("Raspberry Pi 4 Model B"), 1},
		{"drive", "/drive?key=" + ka + "&detail=1", 2},
		{"compare", "/compare?drive=" + ka + "&drive=" + kb, 1},
		{"value", "/value?drive=" + ka + "&price=12&drive=" + kb + "&price=9", 4},
		{"result", "/result/" + a.ID, 1},
		{"model", "/model?key=" + url.QueryEscape("model:samsung evo plus:32GB"), 0},
	}
	for _, width := range []int64{1280, 390} {
		do(t, ctx, "viewport", chromedp.EmulateViewport(width, 900))
		for _, p := range pages {
			name := fmt.Sprintf("site-%s-%d", p.name, width)
			do(t, ctx, name, chromedp.Navigate(ts.URL+p.path), arrived(`document.querySelector('main') !== null`))
			if p.charts > 0 {
				if _, err := chromedp.Run(ctx, chromedp.Poll[bool](chartsDrawn+`.length === 0 && document.querySelectorAll('canvas[data-chart]').length >= `+itoa(p.charts),
					chromedp.WithPollingTimeout(15*time.Second))); err != nil {
					blank := run(t, ctx, "blank charts", chromedp.Evaluate[[]string](chartsDrawn))
					n := run(t, ctx, "charts", chromedp.Evaluate[int](`document.querySelectorAll('canvas[data-chart]').length`))
					t.Errorf("%s: %d charts (want at least %d), not drawn: %v", name, n, p.charts, blank)
				}
			}
			do(t, ctx, name+" screenshot", shot(shots, name))
			widths := run(t, ctx, "widths", chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
			if widths[0] > widths[1] {
				t.Errorf("%s: the page is %d px wide in a %d px window", name, widths[0], widths[1])
			}
			for _, v := range axe(t, ctx) {
				if v.Impact == "serious" || v.Impact == "critical" {
					var where []string
					for _, n := range v.Nodes[:min(len(v.Nodes), 3)] {
						where = append(where, fmt.Sprint(n.Target...))
					}
					t.Errorf("%s: axe %s (%s): %s at %s", name, v.ID, v.Impact, v.Help, strings.Join(where, "; "))
				}
			}
		}
	}

	// Pickers: typing part of a name lists the drive; choosing it puts its key in the field,
	// and the form then compares (values) the drives.
	for _, pg := range []struct{ name, path, table string }{
		{"compare", "/compare?drive=" + ka, "table.compare"},
		{"value", "/value?drive=" + ka + "&price=12", "table.value"},
	} {
		do(t, ctx, pg.name+" picker",
			chromedp.Navigate(ts.URL+pg.path),
			chromedp.WaitVisible(css(`input[data-picker]`)),
			chromedp.SendKeys(css(`input[data-picker]`), "evo pl"),
			chromedp.WaitVisible(css(`ul.suggest li`)),
			shot(shots, "site-"+pg.name+"-picker"))
		// The published Samsung 970 EVO Plus matches too: choose the card.
		pick := `(() => { const li = Array.from(document.querySelectorAll('ul.suggest li')).find(li => li.dataset.key === ` + jsString(b.DeviceKey()) + `);
  if (!li) return false; li.dispatchEvent(new MouseEvent('mousedown', {bubbles: true, cancelable: true})); return true; })()`
		if !run(t, ctx, "choose", chromedp.Evaluate[bool](pick)) {
			t.Errorf("%s picker does not offer %s", pg.name, b.DeviceKey())
			continue
		}
		if v := run(t, ctx, "picked", chromedp.Evaluate[string](`document.querySelector('input[data-picker]').value`)); v != b.DeviceKey() {
			t.Errorf("%s picker put %q in the field, want %q", pg.name, v, b.DeviceKey())
		}
		if pg.name == "value" {
			do(t, ctx, "price", chromedp.SendKeys(css(`p.picker input[name=price]`), "9"))
		}
		do(t, ctx, pg.name+" submit", chromedp.Submit(css(`input[data-picker]`)),
			arrived(`location.search.includes(`+jsString(url.QueryEscape(b.DeviceKey()))+`)`),
			chromedp.WaitVisible(css(pg.table)))
		if rows := run(t, ctx, "rows", chromedp.Evaluate[string](`document.querySelector('`+pg.table+`').textContent`)); !strings.Contains(rows, "EVO Plus") {
			t.Errorf("%s after picking: the table has no EVO Plus", pg.name)
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// axe runs axe-core in the page and returns its violations.
func axe(t *testing.T, ctx context.Context) []axeViolation {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.axe === undefined ? (function(){`+axeSource+`; return true})() : true`)); err != nil {
		t.Fatalf("loading axe: %v", err)
	}
	out := run(t, ctx, "axe", chromedp.Evaluate[string](`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`,
		chromedp.EvalAwaitPromise))
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("axe's answer: %v", err)
	}
	return vs
}
