package server

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/iomark/iomark/internal/record"
)

// The pages are templ components (the *.templ files beside this one; `go tool templ generate`
// writes the *_templ.go files from them). templ escapes text and attributes by their context
// and sanitises URLs as html/template does, without evaluating fields by name at run time.

//go:embed static
var staticFiles embed.FS

// trustedHTML is markup the server built itself with every text in it escaped (the SVG charts
// of standing.go and valuefamily.go): a page writes it as it is.
type trustedHTML string

func (h trustedHTML) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, string(h))
	return err
}

func mb(v float64) string { return fmt.Sprintf("%.1f", v) }

// fig prints a headline figure: three significant digits, a dash when absent.
func fig(v *float64) string {
	switch {
	case v == nil:
		return "—"
	case *v >= 100:
		return fmt.Sprintf("%.0f", *v)
	case *v >= 10:
		return fmt.Sprintf("%.1f", *v)
	}
	return fmt.Sprintf("%.2f", *v)
}

func num(v float64) string  { return fmt.Sprintf("%.0f", v) }
func pct(v float64) string  { return fmt.Sprintf("%.0f%%", v) }
func cost(v float64) string { return fmt.Sprintf("%.4g", v) }
func usd(v float64) string  { return fmt.Sprintf("$%.2f", v) }

// decimal prints a number as the visitor typed it back: shortest form, no exponent for prices.
func decimal(v float64) string { return fmt.Sprint(v) }

func capacity(b int64) templ.Component {
	if b <= 0 {
		return none("not stated")
	}
	return plain(fmt.Sprintf("%.0f GB", float64(b)/1e9))
}

func date(t time.Time) templ.Component {
	if t.Unix() == 0 {
		return none("no date stated")
	}
	return plain(t.UTC().Format("2006-01-02"))
}

func linkText(bus string, mbps int) templ.Component {
	if bus == "" {
		return none("link not reported")
	}
	if mbps == 0 {
		return plain(bus)
	}
	return plain(fmt.Sprintf("%s %d Mb/s", bus, mbps))
}

func drivename(vendor, model string) string {
	if n := strings.TrimSpace(vendor + " " + model); n != "" {
		return n
	}
	return "unidentified drive"
}

// opt prints a figure, or says it was not measured when the record does not report it (zero).
func opt(v float64) templ.Component {
	if v == 0 {
		return none("not measured")
	}
	return plain(fmt.Sprintf("%.0f", v))
}

func bs(b int) string {
	switch {
	case b == 0:
		return ""
	case b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// iops prints an IOPS figure, or "—" saying the test has none (published rows state MB/s only).
func iops(v float64) templ.Component {
	if v == 0 {
		return none("MB/s only")
	}
	return plain(fmt.Sprintf("%.0f", v))
}

// plain is s as a page's text, escaped.
func plain(s string) templ.Component { return trustedHTML(html.EscapeString(s)) }

// href is a link the server built, normalised as html/template normalises a URL attribute:
// bytes a URL may not hold are percent-encoded, escapes already there are kept. templ then
// refuses any scheme but the safe ones.
func href(s string) string { return escapeURL(s, true) }

// queryValue is s escaped to be one value of a query string, as html/template escapes a
// value placed in the query part of a URL attribute.
func queryValue(s string) string { return escapeURL(s, false) }

// escapeURL percent-encodes the bytes of s that RFC 3986 does not leave unreserved; with norm
// it keeps reserved characters and valid escapes, making a whole URL well-formed.
func escapeURL(s string, norm bool) string {
	var b strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '!', '#', '$', '&', '*', '+', ',', '/', ':', ';', '=', '?', '@', '[', ']':
			if norm {
				continue
			}
		case '-', '.', '_', '~':
			continue
		case '%':
			if norm && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				continue
			}
		default:
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				continue
			}
		}
		b.WriteString(s[written:i])
		fmt.Fprintf(&b, "%%%02x", c)
		written = i + 1
	}
	if written == 0 {
		return s
	}
	b.WriteString(s[written:])
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// jsonScript is the data of a chart, drawn by static/charts.js: JSON in a script element, with
// <, > and & escaped (json.Marshal's escaping) so that no value can close the element.
func jsonScript(id string, v any) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		data, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("server: encoding the data of chart %s: %w", id, err)
		}
		_, err = fmt.Fprintf(w, `<script type="application/json" id="%s">%s</script>`, html.EscapeString(id), data)
		return err
	})
}

// page is a page's component from the data its builder made.
type page func(data any) (templ.Component, bool)

// view adapts a page of data type T.
func view[T any](c func(T) templ.Component) page {
	return func(data any) (templ.Component, bool) {
		d, ok := data.(T)
		if !ok {
			return nil, false
		}
		return c(d), true
	}
}

// render writes a page into a buffer first, so a rendering error never sends half a page.
func render(w http.ResponseWriter, code int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

func renderError(w http.ResponseWriter, code int, msg string) {
	render(w, code, errorPage(code, http.StatusText(code), msg))
}

// static serves the embedded assets, cached for a day.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	data, err := fs.ReadFile(staticFiles, path.Join("static", name))
	if err != nil || strings.Contains(name, "..") {
		s.fail(w, r, http.StatusNotFound, "no such file")
		return
	}
	switch path.Ext(name) {
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(data)
}

// pre is sep and s, or nothing when s is empty.
func pre(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

// basisFig prints a ranking figure: a score whole, a speed as a headline figure.
func basisFig(basis string, v float64) string {
	if basis == "score" {
		return num(v)
	}
	return fig(&v)
}

func leadersClass(lb Leaderboard) string {
	if lb.Class != "" || lb.Board != "" {
		return "leaders wide"
	}
	return "leaders"
}

func filteredNote(lb Leaderboard) string {
	if lb.Board != "" || lb.Class != "" || lb.Link != "" {
		return " match these filters"
	}
	return ""
}

func pageOf(pg Pager) string {
	if pg.Pages > 1 {
		return fmt.Sprintf(", page %d of %d", pg.Page, pg.Pages)
	}
	return ""
}

// nonZero prints v as typed, or nothing for zero (a field left empty).
func nonZero(v float64) string {
	if v == 0 {
		return ""
	}
	return decimal(v)
}

// bins lists a distribution's bins for readers without JavaScript: each lower edge and count.
func bins(d Distribution) string {
	var b strings.Builder
	for i, c := range d.Counts {
		if i < len(d.Edges) {
			b.WriteString(mb(d.Edges[i]))
		}
		fmt.Fprintf(&b, ": %d; ", c)
	}
	return b.String()
}

func columnKind(kind string) string {
	if kind == "drive" {
		return "Drive"
	}
	return "Result"
}

// paren is s in brackets after a space, or nothing when s is empty.
func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// price is a price the visitor gave, as typed back into its field; empty when none.
func price(p *float64) string {
	if p == nil {
		return ""
	}
	return decimal(*p)
}

func nonZeroInt(n int) string {
	if n == 0 {
		return ""
	}
	return itoa(n)
}

func mountType(r *record.Run) string {
	if r.Mount == nil {
		return ""
	}
	return " · " + r.Mount.FSType
}

func publishedSource(p *Published) string {
	if p.SourceTitle != "" {
		return p.SourceTitle
	}
	return p.SourceID
}

func notCounted(moderation string) string {
	if moderation == "hidden" {
		return "the site's operator hid this result"
	}
	return "the server doubts this result (below)"
}

func localSustained(n *record.Network) string {
	if n.LocalSustainedMBPerS == nil {
		return ""
	}
	return "; the drive's local sustained write on record: " + mb(*n.LocalSustainedMBPerS) + " MB/s"
}

// sustainedText says what a sustained write found: the cliff, the steady rate, the bytes.
func sustainedText(s *record.Sustained) string {
	var b strings.Builder
	if s.CliffFound {
		fmt.Fprintf(&b, "Rate fell after %s MB/s for %d bytes (%s s) to %s MB/s (%s%% lower)",
			mb(s.BeforeMBPerS), s.CliffAtBytes, mb(s.CliffAtS), mb(s.AfterMBPerS), mb(s.DropPct))
		if s.ThermalSuspect {
			b.WriteString(", with the drive heating up")
		}
		b.WriteString(".")
	} else {
		b.WriteString("No cliff found.")
	}
	b.WriteString("\n")
	if s.SteadyState {
		fmt.Fprintf(&b, " Steady at %s MB/s.", mb(s.SteadyMBPerS))
	}
	fmt.Fprintf(&b, " Written: %d bytes.", s.WrittenBytes)
	return b.String()
}

// runHeads are the columns of a table of results, each sorting by its key; the drive's column
// sorts by brand or by model.
var runHeads = []struct{ key, label, key2, label2 string }{
	{"date", "Date", "", ""}, {"vendor", "Brand", "model", "model"}, {"class", "Class", "", ""},
	{"capacity", "Capacity", "", ""}, {"board", "Board", "", ""}, {"link", "Link", "", ""},
	{"score", "Score", "", ""}, {"seq_read", "Seq read MB/s", "", ""}, {"seq_write", "Seq write MB/s", "", ""},
	{"rand_read_4k", "4K read MB/s", "", ""}, {"rand_write_4k", "4K write MB/s", "", ""},
	{"source", "Source", "", ""},
}
