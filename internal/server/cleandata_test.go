package server

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// Pages show "—" with a reason where a figure is missing, never 0, "()" or "not stated"; a
// board has one name whatever revision the run recorded.
func TestPagesCleanData(t *testing.T) {
	ts := startSeededServer(t)
	r := sampleRecord("clean-1", "SanDisk", "Extreme A2", "Raspberry Pi 4 Model B Rev 1.4", 40)
	ts.mustPost(t, r)
	ex := examples()
	pages := []string{
		"/", "/search?source=published",
		"/drive?key=" + url.QueryEscape(ex.key),
		"/result/" + ex.id,
		"/value?drive=" + url.QueryEscape(ex.key) + "&price=30",
		"/value?drive=" + url.QueryEscape(ex.key),
		"/compare?drive=" + url.QueryEscape(ex.key) + "&drive=" + url.QueryEscape(r.DeviceKey()),
		"/board?name=" + url.QueryEscape("Raspberry Pi 4 Model B Rev 1.4"),
		"/drive?key=" + url.QueryEscape(r.DeviceKey()),
		"/result/" + r.ID,
	}
	zeroCell := regexp.MustCompile(`<td>0</td>`)
	for _, p := range pages {
		c, body := ts.get(t, p)
		if c != 200 {
			t.Errorf("%s: %d", p, c)
			continue
		}
		for _, bad := range []string{"not stated</td>", "()", "Median IOPS 0"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s shows %q", p, bad)
			}
		}
		if zeroCell.MatchString(body) {
			t.Errorf("%s has a cell reading 0", p)
		}
		if strings.Contains(body, ">Raspberry Pi 4 Model B Rev 1.4<") {
			t.Errorf("%s names the board with its revision", p)
		}
	}
	_, body := ts.get(t, "/drive?key="+url.QueryEscape(ex.key)+"&detail=1")
	if !strings.Contains(body, "MB/s only") {
		t.Error("a published drive's IOPS column does not say the source states MB/s only")
	}
}
