package report

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/iomark/iomark/internal/record"
)

// writeSVG draws the chart of one run as SVG. No font is embedded (one made the file
// 529 KB): the text names Liberation Sans, then fonts of the same widths (svgFontFamilies),
// and each text carries the length it was laid out at (svgFitText), so a viewer that has
// none of them still draws every label in its place.
func writeSVG(w io.Writer, runs []*record.Run, opts Options) error {
	data, err := chartSVG(runs[0], opts)
	if err != nil {
		return fmt.Errorf("svg export: %w", err)
	}
	_, err = w.Write(data)
	return err
}

// svgFontFamilies is the family list written for the charts' one family: Liberation Sans, then
// Arimo (the same design under another name) and Arial and Helvetica, whose widths Liberation
// Sans was made to match, then any sans-serif.
const svgFontFamilies = "font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;"

// svgTextElement is one text element as vgsvg writes it: attributes with the font size in user units
// (points, the SVG's viewBox unit), then the escaped text.
var svgTextElement = regexp.MustCompile(`<text ([^>]*?font-family:Liberation Sans;[^>]*?font-size:([0-9.]+)px[^>]*)>([^<]*)</text>`)

// svgFitText names the font families and gives each text the length the chart measured it at with
// Liberation Sans (textLength, glyphs scaled to fit): a fallback font wider than Liberation
// Sans (DejaVu Sans, on a Linux desktop without it, is about 10% wider) would otherwise push
// names into the bars and axis labels off the edge.
func svgFitText(svg string) string {
	return svgTextElement.ReplaceAllStringFunc(svg, func(el string) string {
		m := svgTextElement.FindStringSubmatch(el)
		attrs, sizeText, body := m[1], m[2], m[3]
		attrs = strings.Replace(attrs, "font-family:Liberation Sans;", svgFontFamilies, 1)
		size, err := strconv.ParseFloat(sizeText, 64)
		if err != nil || size <= 0 || body == "" {
			return "<text " + attrs + ">" + body + "</text>"
		}
		face := chartFonts().Lookup(chartFont, vg.Points(size))
		width := face.Width(html.UnescapeString(body)).Points()
		return fmt.Sprintf(`<text textLength="%.2f" lengthAdjust="spacingAndGlyphs" %s>%s</text>`, width, attrs, body)
	})
}

// chartSVG renders the chart options ask for, fonts named, not embedded.
func chartSVG(r *record.Run, opts Options) ([]byte, error) {
	c, err := buildChart(r, opts)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := renderChart(&buf, c, "svg"); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// svgStyleAttr is a style attribute as vgsvg writes it on every path and text.
var svgStyleAttr = regexp.MustCompile(`style="([^"]*)"`)

// svgStyleClasses moves the style attributes into one <style> block, one class per distinct
// style: vgsvg repeats the same style on each of hundreds of bars, grid lines and labels
// (a chart set beside published drives was 204 KB, half of it style text). A class is named by
// a hash of its style, so charts inlined together in one HTML page, whose style blocks then
// apply page-wide, never give one name two meanings.
func svgStyleClasses(svg string) string {
	start := strings.Index(svg, "<svg")
	end := -1
	if start >= 0 {
		end = strings.Index(svg[start:], ">")
	}
	if end < 0 {
		return svg
	}
	end += start + 1
	var rules strings.Builder
	seen := map[string]bool{}
	body := svgStyleAttr.ReplaceAllStringFunc(svg[end:], func(attr string) string {
		style := svgStyleAttr.FindStringSubmatch(attr)[1]
		h := fnv.New32a()
		h.Write([]byte(style))
		class := fmt.Sprintf("iom%08x", h.Sum32())
		if !seen[class] {
			seen[class] = true
			fmt.Fprintf(&rules, ".%s{%s}\n", class, style)
		}
		return `class="` + class + `"`
	})
	if rules.Len() == 0 {
		return svg
	}
	return svg[:end] + "\n<style>\n" + rules.String() + "</style>" + body
}
