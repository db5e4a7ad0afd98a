package server

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// percentile is the sentence a result page places a figure with.
var percentile = regexp.MustCompile(`4K random write 2\.70 MB/s: \d+(st|nd|rd|th) percentile of [3-9]\d Pi 4 microSD results at SD DDR50 \(median [0-9.]+ MB/s\)`)

// TestBrowserAnswers reads, in a real Chromium, what a Pi owner sees: the Pi 4 microSD
// ranking says why it ranks by 4K random write, lists speeds with their units, gives every
// place once; a result page says where the result stands; at 390 px no page is wider than the
// window.
func TestBrowserAnswers(t *testing.T) {
	ctx := newBrowser(t)
	shots := artifactsDir(t)
	ts := startSeededServer(t)
	r := honestRun("answers-1", "SC32G", "Raspberry Pi 4 Model B Rev 1.4", 0.9, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC))
	price := 9.0
	r.PriceUSD = &price
	ts.mustPost(t, r)
	for _, width := range []int64{1280, 390} {
		do(t, ctx, "viewport", chromedp.EmulateViewport(width, 900))
		do(t, ctx, "home", chromedp.Navigate(ts.URL+"/?family="+url.QueryEscape("Pi 4")+"&class=microsd"),
			arrived(`document.querySelector('table.ranking') !== null`), shot(shots, "answers-home-"+itoa(int(width))))
		basis := run(t, ctx, "basis", chromedp.Evaluate[string](`document.querySelector('section.leader p.basis').innerText`))
		if basis != "The Pi 4's SD bus (SD DDR50) caps sequential transfers at ~45 MB/s, so cards and sticks are ranked by 4K random write." {
			t.Errorf("basis sentence %q", basis)
		}
		heads := run(t, ctx, "heads", chromedp.Evaluate[string](`Array.from(document.querySelectorAll('table.ranking th')).map(th => th.innerText.replace(/\s+/g, ' ')).join('|')`))
		for _, h := range []string{"4K random write MB/s", "Seq read MB/s", "Seq write MB/s", "4K read MB/s", "4K write MB/s"} {
			if !strings.Contains(heads, h) {
				t.Errorf("ranking headers %q lack %q", heads, h)
			}
		}
		ranks := run(t, ctx, "ranks", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('table.ranking tbody tr td:first-child')).map(td => td.innerText)`))
		seen := map[string]bool{}
		for _, rk := range ranks {
			if seen[rk] {
				t.Errorf("place %s appears twice in the ranking: %v", rk, ranks)
			}
			seen[rk] = true
		}
		if len(ranks) < 20 || ranks[0] != "1" {
			t.Errorf("ranking places %v", ranks)
		}
		listHeads := run(t, ctx, "latest", chromedp.Evaluate[string](`Array.from(document.querySelectorAll('table.runs th')).map(th => th.innerText.replace(/\s+/g, ' ')).join('|')`))
		if !strings.Contains(listHeads, "Seq read MB/s") || !strings.Contains(listHeads, "4K write MB/s") {
			t.Errorf("latest list headers %q", listHeads)
		}
		do(t, ctx, "result", chromedp.Navigate(ts.URL+"/result/answers-1"),
			arrived(`document.querySelector('section.standing') !== null`), shot(shots, "answers-result-"+itoa(int(width))))
		stand := run(t, ctx, "stand", chromedp.Evaluate[string](`document.querySelector('section.standing').innerText`))
		if !percentile.MatchString(stand) || !strings.Contains(stand, "you are here") {
			t.Errorf("where it stands:\n%s", stand)
		}
		do(t, ctx, "value", chromedp.Navigate(ts.URL+"/value?family="+url.QueryEscape("Pi 4")+"&class=microsd"),
			arrived(`document.querySelector('section.familyvalue') !== null`), shot(shots, "answers-value-"+itoa(int(width))))
		value := run(t, ctx, "value", chromedp.Evaluate[string](`document.querySelector('section.familyvalue').innerText`))
		rows := run(t, ctx, "value rows", chromedp.Evaluate[int](`document.querySelectorAll('table.bestvalue tbody tr').length`))
		if rows == 0 || !strings.Contains(value, "Pi 4 · microsd · SD DDR50") || !strings.Contains(value, "sent by its uploader (iomark run --price)") || !strings.Contains(value, "Best value for the Pi 4 microSD") {
			t.Errorf("value page (%d rows):\n%s", rows, value)
		}
		do(t, ctx, "default value", chromedp.Navigate(ts.URL+"/value"), arrived(`document.querySelector('section.familyvalue') !== null`), shot(shots, "answers-value-default-"+itoa(int(width))))
		def := run(t, ctx, "default", chromedp.Evaluate[string](`document.querySelector('section.familyvalue').innerText`))
		if !strings.Contains(def, "Pi 5 · nvme") || !strings.Contains(def, "iomark run --price") {
			t.Errorf("default value page names no family and class, or no way to add a price:\n%s", def)
		}
		// Its table lists the one priced Pi 5 NVMe drive, which has no score, with its source.
		priced := run(t, ctx, "priced", chromedp.Evaluate[string](`Array.from(document.querySelectorAll('table.pricedunranked tbody tr')).map(r => r.innerText).join('\n')`))
		if !strings.Contains(priced, "Pinedrive") || !strings.Contains(priced, "$50") || !strings.Contains(priced, "pipci") || !strings.Contains(def, "Priced, not ranked: no PiBenchmarks score") {
			t.Errorf("default value page's priced drives:\n%s\n---\n%s", priced, def)
		}
		for _, path := range []string{"/?family=" + url.QueryEscape("Pi 5"), "/model?key=" + url.QueryEscape("model:samsung evo plus:32GB"), "/search?q=samsung"} {
			do(t, ctx, path, chromedp.Navigate(ts.URL+path), arrived(`document.querySelector('main') !== null`))
			widths := run(t, ctx, "widths", chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
			if widths[0] > widths[1] {
				t.Errorf("%s at %d px: the page is %d px wide", path, width, widths[0])
			}
		}
	}
}
