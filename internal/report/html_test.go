package report

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestHTMLEscapesHostileText(t *testing.T) {
	r := sampleRun()
	r.Device.Model = "<script>alert(1)</script>"
	r.Findings[0].Fix = `"><img src=x onerror=alert(2)>`
	out := string(export(t, "html", []*record.Run{r}, Options{Published: published(t)}))
	if strings.Contains(out, "<script>") || strings.Contains(out, "<img") {
		t.Fatalf("hostile text reached the page unescaped")
	}
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the model name is missing from the page")
	}
	for _, want := range []string{"<!doctype html>", "<svg", "rand-read-4k-qd1", "wrote 402.7 MB in 57.4 s"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, external := range []string{"<link", "src=\"http", "href=\"http", "<script"} {
		if strings.Contains(out, external) {
			t.Errorf("page is not standalone: contains %q", external)
		}
	}
}

func TestHTMLSustainedHasBothCharts(t *testing.T) {
	out := string(export(t, "html", []*record.Run{sampleSustainedRun()}, Options{}))
	if n := strings.Count(out, "<svg"); n != 2 {
		t.Errorf("%d charts inlined, want the sustained line and the bars", n)
	}
	if strings.Contains(out, "<?xml") {
		t.Error("an XML prolog inside the HTML page")
	}
	_ = record.SchemaVersion
}

// TestHTMLProseCodeSpans: a command quoted between backticks is set in <code>, not shown with
// its backticks; hostile text inside or around a span is escaped all the same.
func TestHTMLProseCodeSpans(t *testing.T) {
	out := string(export(t, "html", []*record.Run{sbcReviewsRun()}, Options{}))
	if !strings.Contains(out, "(<code>iomark run --profile quick</code> gives the iomark score") || strings.Contains(out, "`iomark") {
		t.Errorf("the no-score line does not set the command in <code>:\n%s", out)
	}
	for in, want := range map[string]string{
		"a `<b>` c": "a <code>&lt;b&gt;</code> c",
		"odd ` <i>": "odd ` &lt;i&gt;",
		"`x` & `y`": "<code>x</code> &amp; <code>y</code>",
	} {
		if got := string(htmlProse(in)); got != want {
			t.Errorf("htmlProse(%q) = %q, want %q", in, got, want)
		}
	}
}
