package report

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

type htmlRun struct {
	runView
	Charts         []trustedHTML // inline SVG from our own renderer, which escapes its text itself
	ChartErrs      []string
	CompareHeader  []string
	CompareRows    [][]string
	CompareNotes   []string
	HasComparison  bool
	ComparisonName string
}

// writeHTML writes one standalone page: the Markdown report's content as HTML with the
// charts inlined as SVG. No external assets, no JavaScript; the page is a templ component
// (html.templ), which escapes every text as html/template would, without executing a template
// by reflection (docs/decisions.md, "Binary size").
func writeHTML(w io.Writer, runs []*record.Run, opts Options) error {
	var page struct {
		Title string
		Runs  []htmlRun
	}
	page.Title = "iomark report"
	if len(runs) == 1 {
		page.Title = newRunView(runs[0], opts).Title
	}
	for _, r := range runs {
		hr := htmlRun{runView: newRunView(r, opts)}
		kinds := []Chart{ChartBars}
		if sustainedTest(r) != nil {
			kinds = []Chart{ChartSustained, ChartBars}
			if opts.Chart == ChartBars {
				kinds = []Chart{ChartBars, ChartSustained}
			}
		}
		for _, k := range kinds {
			o := opts
			o.Chart = k
			svg, err := chartSVG(r, o)
			if err != nil {
				hr.ChartErrs = append(hr.ChartErrs, err.Error())
				continue
			}
			hr.Charts = append(hr.Charts, trustedHTML(inlineSVG(svg)))
		}
		if c := hr.Compare; c != nil {
			hr.HasComparison = true
			if c.PublishedRows > 0 {
				hr.ComparisonName = " for " + c.PublishedScope
			}
			hr.CompareHeader, hr.CompareRows, hr.CompareNotes = comparisonRows(c)
		}
		page.Runs = append(page.Runs, hr)
	}
	var buf bytes.Buffer
	if err := htmlPage(page.Title, page.Runs).Render(context.Background(), &buf); err != nil {
		return fmt.Errorf("html export: %w", err)
	}
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("html export: %w", err)
	}
	return nil
}

// trustedHTML is markup written as it is: only what this package builds and escapes itself.
type trustedHTML string

func (h trustedHTML) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, string(h))
	return err
}

// htmlProse escapes one of the report's sentences for HTML and sets each command it quotes
// between backticks in <code>, as mdProse does for Markdown; text with an unpaired backtick is
// escaped as it is.
func htmlProse(s string) trustedHTML {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		return trustedHTML(html.EscapeString(s))
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString("<code>" + html.EscapeString(p) + "</code>")
			continue
		}
		b.WriteString(html.EscapeString(p))
	}
	return trustedHTML(b.String())
}

// inlineSVG drops the XML prolog and comment before <svg, which HTML does not want inline.
func inlineSVG(svg []byte) []byte {
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		return svg[i:]
	}
	return svg
}
