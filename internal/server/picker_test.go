package server

import (
	"net/url"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

// Without JavaScript, a name typed into compare or value is searched, and the page offers the
// matching drives; following an offer puts the drive's key in place of the name.
func TestPickerWithoutScript(t *testing.T) {
	ts := startUnlimited(t)
	a := sampleRecord("pick-1", "SanDisk", "Extreme A2", "Raspberry Pi 4 Model B", 40)
	b := sampleRecord("pick-2", "Samsung", "EVO Plus", "Raspberry Pi 4 Model B", 20)
	for _, r := range []*record.Run{a, b} {
		ts.mustPost(t, r)
	}
	var cmp CompareData
	if c := ts.getJSON(t, "/api/v1/compare?drive="+url.QueryEscape(a.DeviceKey())+"&drive=evo", &cmp); c != 200 {
		t.Fatal(c)
	}
	if len(cmp.Columns) != 1 || len(cmp.Found) != 1 || len(cmp.Found[0].Drives) != 1 || cmp.Found[0].Drives[0].DeviceKey != b.DeviceKey() {
		t.Fatalf("compare with a typed name: %+v", cmp)
	}
	add := cmp.Found[0].Drives[0].AddURL
	if c := ts.getJSON(t, "/api/v1"+add, &cmp); c != 200 || len(cmp.Columns) != 2 || len(cmp.Found) != 0 {
		t.Errorf("following %s: %d, %d columns, found %+v", add, c, len(cmp.Columns), cmp.Found)
	}
	if len(cmp.Chart.Series) != 2 || len(cmp.Chart.Labels) == 0 {
		t.Errorf("compare chart: %+v", cmp.Chart)
	}
	c, page := ts.get(t, "/value?drive=sandisk&price=12")
	if c != 200 || !strings.Contains(page, `class="add"`) || !strings.Contains(page, "Add SanDisk Extreme A2") {
		t.Errorf("value with a typed name: %d, no drive offered", c)
	}
	var val ValueData
	if c := ts.getJSON(t, "/api/v1/value?drive=nothing+like+it", &val); c != 200 || len(val.Found) != 1 || len(val.Found[0].Drives) != 0 {
		t.Errorf("a name matching nothing: %d %+v", c, val.Found)
	}
	if c, _ := ts.get(t, "/api/v1/compare?drive=sd:00:xx:nothing"); c != 404 {
		t.Errorf("an unknown key: %d, want 404", c)
	}
}
