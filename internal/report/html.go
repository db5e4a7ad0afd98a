package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// htmlExporter writes one standalone page: the Markdown report's content as HTML with the
// charts inlined as SVG. No external assets, no JavaScript; html/template escapes every text.
type htmlExporter struct{}

func (htmlExporter) Name() string { return "html" }
func (htmlExporter) Ext() string  { return "html" }

type htmlRun struct {
	runView
	Charts         []template.HTML // inline SVG from gonum, whose text it escapes itself
	ChartErrs      []string
	CompareHeader  []string
	CompareRows    [][]string
	CompareNotes   []string
	HasComparison  bool
	ComparisonName string
}

func (htmlExporter) Export(w io.Writer, runs []*record.Run, opts Options) error {
	if err := needRuns("html", runs); err != nil {
		return err
	}
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
			hr.Charts = append(hr.Charts, template.HTML(inlineSVG(svg)))
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
	if err := pageTemplate.Execute(&buf, page); err != nil {
		return fmt.Errorf("html export: %w", err)
	}
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("html export: %w", err)
	}
	return nil
}

// htmlProse escapes one of the report's sentences for HTML and sets each command it quotes
// between backticks in <code>, as mdProse does for Markdown; text with an unpaired backtick is
// escaped as it is.
func htmlProse(s string) template.HTML {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		return template.HTML(template.HTMLEscapeString(s))
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString("<code>" + template.HTMLEscapeString(p) + "</code>")
			continue
		}
		b.WriteString(template.HTMLEscapeString(p))
	}
	return template.HTML(b.String())
}

// inlineSVG drops the XML prolog and comment before <svg, which HTML does not want inline.
func inlineSVG(svg []byte) []byte {
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		return svg[i:]
	}
	return svg
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"prose": htmlProse}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 72rem; margin: 1rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.n { text-align: right; }
.sev-bad { color: #b00; font-weight: bold; } .sev-warn { color: #a60; font-weight: bold; }
.chart svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
{{range .Runs}}
<section>
<h1>{{.Title}}</h1>
<table>
{{range .Facts}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>
{{end}}</table>

<h2>Tests</h2>
{{if .TestRows}}<table>
<tr>{{range .TestHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .TestRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<p>MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s; ±CI95 is the half-width of the 95% confidence interval of the median; link ceiling is MB/s as a share of the slowest hop's ceiling.</p>
{{else}}<p>No test completed.</p>{{end}}

{{if .Sustained}}<h2>Sustained write</h2>
<ul>{{range .Sustained}}<li>{{prose .}}</li>{{end}}</ul>
<p>The test's MB/s is the rate a long copy keeps: the settled rate after the cliff (else the rate after it, else the whole write's average); the average over the whole write, the fast start included, is beside it.</p>{{end}}

{{if .SBCRows}}<h2>sbc-reviews table</h2>
<table>
<tr>{{range .SBCHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .SBCRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<p>{{.SBCNote}}.</p>{{end}}

<h2>Scores</h2>
{{if .Scores}}<ul>{{range .Scores}}<li>{{prose .}}</li>{{end}}</ul>{{else}}<p>No score for this profile.</p>{{end}}

<h2>Findings</h2>
{{if .Findings}}<ul>
{{range .Findings}}<li><span class="sev-{{.Severity}}">{{.Severity}}</span> <code>{{.ID}}</code>: {{prose .Message}}
{{if .Fix}}<br>Fix: {{prose .Fix}}{{end}}{{if .Evidence}}<br>Evidence: {{.Evidence}}{{end}}</li>
{{end}}</ul>{{else}}<p>None.</p>{{end}}

{{if .Warnings}}<h2>Warnings</h2><ul>{{range .Warnings}}<li>{{prose .}}</li>{{end}}</ul>{{end}}

{{if .HasComparison}}<h2>Published results{{.ComparisonName}}</h2>
{{if .CompareRows}}<table>
<tr>{{range .CompareHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .CompareRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}
<ul>{{range .CompareNotes}}<li>{{prose .}}</li>{{end}}</ul>{{end}}

<h2>Charts</h2>
{{range .Charts}}<div class="chart">{{.}}</div>
{{end}}{{range .ChartErrs}}<p>Chart not drawn: {{.}}</p>
{{end}}
<p>{{.Wrote}}.</p>
</section>
{{end}}
</body>
</html>
`))
