package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// writeMarkdownReport writes a Markdown report per run (GitHub-flavoured tables).
func writeMarkdownReport(w io.Writer, runs []*record.Run, opts Options) error {
	var b strings.Builder
	for i, r := range runs {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		writeMarkdown(&b, newRunView(r, opts))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("md export: %w", err)
	}
	return nil
}

func writeMarkdown(b *strings.Builder, v runView) {
	fmt.Fprintf(b, "# %s\n\n", mdEscape(v.Title))
	rows := make([][]string, len(v.Facts))
	for i, f := range v.Facts {
		rows[i] = []string{f[0], f[1]}
	}
	b.WriteString(mdTable([]string{"", ""}, rows))
	b.WriteString("\n## Tests\n\n")
	if len(v.TestRows) == 0 {
		b.WriteString("No test completed.\n")
	} else {
		b.WriteString(mdTable(v.TestHeader, v.TestRows))
		b.WriteString("\nMB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s; ±CI95 is the half-width of the 95% confidence " +
			"interval of the median; link ceiling is MB/s as a share of the slowest hop's ceiling.\n")
	}
	if len(v.Sustained) > 0 {
		b.WriteString("\n## Sustained write\n\n")
		for _, l := range v.Sustained {
			if strings.HasPrefix(l, "  ") {
				fmt.Fprintf(b, "  - %s\n", mdEscape(strings.TrimSpace(l)))
			} else {
				fmt.Fprintf(b, "- %s\n", mdEscape(l))
			}
		}
	}
	if len(v.SBCRows) > 0 {
		b.WriteString("\n## sbc-reviews table\n\n")
		b.WriteString(mdTable(v.SBCHeader, v.SBCRows))
		b.WriteString("\n" + mdEscape(sbcUnitNote) + ".\n")
	}
	b.WriteString("\n## Scores\n\n")
	if len(v.Scores) == 0 {
		b.WriteString("No score for this profile.\n")
	}
	for _, s := range v.Scores {
		fmt.Fprintf(b, "- %s\n", mdProse(s))
	}
	b.WriteString("\n## Findings\n\n")
	if len(v.Findings) == 0 {
		b.WriteString("None.\n")
	}
	for _, f := range v.Findings {
		fmt.Fprintf(b, "- **%s** `%s`: %s\n", mdEscape(f.Severity), strings.ReplaceAll(f.ID, "`", ""), mdProse(f.Message))
		if f.Fix != "" {
			fmt.Fprintf(b, "  - Fix: %s\n", mdProse(f.Fix))
		}
		if f.Evidence != "" {
			fmt.Fprintf(b, "  - Evidence: %s\n", mdEscape(f.Evidence))
		}
	}
	if len(v.Warnings) > 0 {
		b.WriteString("\n## Warnings\n\n")
		for _, w := range v.Warnings {
			fmt.Fprintf(b, "- %s\n", mdProse(w))
		}
	}
	if c := v.Compare; c != nil {
		if c.PublishedRows == 0 {
			b.WriteString("\n## Published results\n\n")
		} else {
			fmt.Fprintf(b, "\n## Published results for %s\n\n", mdEscape(c.PublishedScope))
		}
		header, rows, notes := comparisonRows(c)
		if len(rows) > 0 {
			b.WriteString(mdTable(header, rows))
			b.WriteString("\n")
		}
		for _, n := range notes {
			fmt.Fprintf(b, "- %s\n", mdProse(n))
		}
	}
	fmt.Fprintf(b, "\n%s.\n", mdEscape(v.Wrote))
}

// mdTable renders a GitHub-flavoured Markdown table; every cell is escaped.
func mdTable(header []string, rows [][]string) string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteString("\n")
	}
	line(header)
	b.WriteString("|")
	for range header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

// mdEscape keeps text literal in Markdown: table pipes, emphasis, code, links and raw HTML.
var mdReplacer = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\r\n", " ", "\n", " ", "\r", " ",
)

func mdEscape(s string) string { return mdReplacer.Replace(s) }

// mdProse is mdEscape for the report's own sentences, which quote commands between backticks
// (`iomark run --profile quick`): each such span becomes a Markdown code span instead of
// literal backticks. A code span is literal in Markdown (no emphasis, links or HTML), so a
// span from a drive's own text is as safe; text with an unpaired backtick is all escaped.
func mdProse(s string) string {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		return mdEscape(s)
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 0 {
			b.WriteString(mdEscape(p))
			continue
		}
		p = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(p)
		if strings.TrimSpace(p) == "" {
			b.WriteString(mdEscape("`" + p + "`"))
			continue
		}
		b.WriteString("`" + p + "`")
	}
	return b.String()
}
