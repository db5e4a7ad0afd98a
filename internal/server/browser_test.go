package server

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/testkit"
)

// chromiumPath is Debian's chromium; tests never download a browser.
const chromiumPath = "/usr/bin/chromium"

// artifactsDir is where browser tests keep screenshots: $IOMARK_ARTIFACTS/browser, else a
// folder under the system temp dir (logged).
func artifactsDir(t *testing.T) string {
	base := os.Getenv("IOMARK_ARTIFACTS")
	if base == "" {
		base = filepath.Join(os.TempDir(), "iomark-artifacts")
	}
	dir := filepath.Join(base, "browser")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		testkit.Require(t, fmt.Sprintf("browser tests need %s, from Debian's chromium package (apt-get install chromium)", chromiumPath))
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 1024),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	// The first call starts the browser and must have no timeout (it would end the browser).
	if err := chromedp.Do(ctx); err != nil {
		cancelC()
		cancelA()
		t.Fatalf("starting chromium: %v", err)
	}
	tctx, cancelT := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	return tctx
}

func shot(dir, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		png, err := chromedp.FullScreenshot(100)(ctx, t) // quality 100 makes a PNG
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	})
}

// run runs one action that returns a value, failing the test on error.
func run[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// arrived waits until a click or submit has loaded the page cond describes, so the next step
// does not find its element on the page being left.
func arrived(cond string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		// Evaluating while the old page unloads fails ("target navigated"): try again.
		var lastErr error
		for range 200 {
			ok, err := chromedp.Evaluate[bool](`(`+cond+`) && document.readyState === 'complete'`)(ctx, t)
			if err == nil && ok {
				return nil
			}
			lastErr = err
			if err := ctx.Err(); err != nil {
				return err
			}
			time.Sleep(100 * time.Millisecond)
		}
		return fmt.Errorf("page never satisfied %s (last error %v)", cond, lastErr)
	})
}

func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// canvasDrawn is JS telling whether a canvas has any non-transparent pixel.
func canvasDrawn(id string) string {
	return `(() => { const c = document.getElementById(` + "'" + id + "'" + `);
  if (!c || !c.width || !c.height) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) { if (d[i] !== 0) return true; }
  return false; })()`
}

// postTwoDrives uploads two drives with several results each, so the distribution has bins and
// sorting has work: five of a SanDisk Extreme A2 on board (each changed by edit, when given,
// before it is sent) and, an hour later, two of a Samsung EVO Plus on a Pi 4 Model B. The ids
// start with prefix; a and b are each drive's last result.
func postTwoDrives(t *testing.T, ts *testServer, prefix, board string, edit func(i int, r *record.Run)) (a, b *record.Run) {
	t.Helper()
	for i, mb := range []float64{38, 40, 41, 43, 39} {
		a = sampleRecord(prefix+"a"+itoa(i), "SanDisk", "Extreme A2", board, mb)
		if edit != nil {
			edit(i, a)
		}
		a.CreatedAt = a.CreatedAt.Add(time.Duration(i) * time.Minute)
		ts.mustPost(t, a)
	}
	for i, mb := range []float64{20, 22} {
		b = sampleRecord(prefix+"b"+itoa(i), "Samsung", "EVO Plus", "Raspberry Pi 4 Model B", mb)
		b.CreatedAt = b.CreatedAt.Add(time.Hour + time.Duration(i)*time.Minute)
		ts.mustPost(t, b)
	}
	return a, b
}

func TestBrowser(t *testing.T) {
	ctx := newBrowser(t)
	shots := artifactsDir(t)
	ts := startSeededServer(t)
	a, b := postTwoDrives(t, ts, "b", "Raspberry Pi 4 Model B", nil)

	// Search from the home page's box, as a user would.
	do(t, ctx, "search",
		chromedp.Navigate(ts.URL+"/"),
		shot(shots, "0-home"),
		chromedp.SendKeys(css(`header input[name=q]`), "sandisk extreme"),
		chromedp.Submit(css(`header input[name=q]`)),
		arrived(`location.pathname === '/search'`),
		chromedp.WaitVisible(css(`table.runs tbody tr`)),
		shot(shots, "1-search"))
	if rows := run(t, ctx, "count rows", chromedp.Evaluate[int](`document.querySelectorAll('table.runs tbody tr').length`)); rows < 5 {
		t.Errorf("search for sandisk extreme shows %d rows, want at least the 5 uploaded", rows)
	}

	// Sort the uploaded results by brand by clicking the column header: newest first they are
	// Samsung's, by brand ascending SanDisk's come last.
	do(t, ctx, "sort",
		chromedp.Navigate(ts.URL+"/search?source=submitted&sort=date&order=desc"),
		chromedp.Click(css(`table.runs th a[href*="sort=vendor"]`)),
		arrived(`location.search.includes('sort=vendor')`),
		chromedp.WaitVisible(css(`table.runs tbody tr`)),
		shot(shots, "2-sorted"))
	loc := run(t, ctx, "location", chromedp.Location())
	if !strings.Contains(loc, "sort=vendor") || !strings.Contains(loc, "order=asc") {
		t.Errorf("sorting did not give a permalink: %s", loc)
	}
	brands := run(t, ctx, "read brands", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('table.runs tbody tr td:nth-child(2)')).map(td => td.textContent.trim())`))
	if len(brands) != 7 || !strings.HasPrefix(brands[0], "Samsung") || !strings.HasPrefix(brands[1], "Samsung") || !strings.HasPrefix(brands[6], "SanDisk") {
		t.Errorf("by brand ascending: %q", brands)
	}

	// Open a drive from a search result; its distribution chart must be drawn.
	do(t, ctx, "drive page",
		chromedp.Navigate(ts.URL+"/search?q=sandisk+extreme+a2"),
		chromedp.Click(css(`ul.drives a.drive`)),
		arrived(`location.pathname === '/drive'`),
		chromedp.WaitVisible(css(`canvas#distribution`)))
	run(t, ctx, "chart object", chromedp.Poll[bool](`document.getElementById('distribution').chart !== undefined`, chromedp.WithPollingTimeout(10*time.Second)))
	do(t, ctx, "drive screenshot", shot(shots, "3-drive"))
	if !run(t, ctx, "canvas pixels", chromedp.Evaluate[bool](canvasDrawn("distribution"))) {
		t.Error("the distribution chart is blank")
	}

	// Compare the two drives.
	do(t, ctx, "compare",
		chromedp.Navigate(ts.URL+"/compare?drive="+url.QueryEscape(a.DeviceKey())+"&drive="+url.QueryEscape(b.DeviceKey())),
		chromedp.WaitVisible(css(`table.compare`)),
		shot(shots, "4-compare"))
	if cols := run(t, ctx, "compare columns", chromedp.Evaluate[int](`document.querySelectorAll('table.compare thead th').length`)); cols != 3 {
		t.Errorf("compare table has %d header cells, want test + 2 drives", cols)
	}

	// A result page: sustained chart drawn, raw JSON downloads byte for byte.
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads}); err != nil {
		t.Fatalf("allowing downloads: %v", err)
	}
	do(t, ctx, "result page",
		chromedp.Navigate(ts.URL+"/result/"+a.ID),
		chromedp.WaitVisible(css(`canvas#sustained`)))
	run(t, ctx, "chart object", chromedp.Poll[bool](`document.getElementById('sustained').chart !== undefined`, chromedp.WithPollingTimeout(10*time.Second)))
	do(t, ctx, "result screenshot", shot(shots, "5-result"))
	if !run(t, ctx, "canvas pixels", chromedp.Evaluate[bool](canvasDrawn("sustained"))) {
		t.Error("the sustained chart is blank")
	}
	do(t, ctx, "download", chromedp.Click(css(`a#raw`)))
	want := encode(t, a)
	path := filepath.Join(downloads, "iomark-"+a.ID+".json")
	var got []byte
	for range 100 { // the download finishes in the browser's own time
		if b, err := os.ReadFile(path); err == nil && len(b) == len(want) {
			got = b
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("downloaded raw JSON %q differs from the uploaded record", got)
	}
}
