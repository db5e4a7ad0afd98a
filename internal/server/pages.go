package server

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

var pageNames = []string{"home", "search", "drive", "model", "result", "board", "compare", "value", "error"}

// pages are the parsed templates, one set per page sharing layout.html.
type pages struct{ sets map[string]*template.Template }

var funcs = template.FuncMap{
	"mb": func(v float64) string { return fmt.Sprintf("%.1f", v) },
	// fig prints a headline figure: three significant digits, a dash when absent.
	"fig": func(v *float64) string {
		switch {
		case v == nil:
			return "—"
		case *v >= 100:
			return fmt.Sprintf("%.0f", *v)
		case *v >= 10:
			return fmt.Sprintf("%.1f", *v)
		}
		return fmt.Sprintf("%.2f", *v)
	},
	"num":  func(v float64) string { return fmt.Sprintf("%.0f", v) },
	"pct":  func(v float64) string { return fmt.Sprintf("%.0f%%", v) },
	"cost": func(v float64) string { return fmt.Sprintf("%.4g", v) },
	"capacity": func(b int64) any {
		if b <= 0 {
			return none("not stated")
		}
		return fmt.Sprintf("%.0f GB", float64(b)/1e9)
	},
	"date": func(t time.Time) template.HTML {
		if t.Unix() == 0 {
			return none("no date stated")
		}
		return template.HTML(t.UTC().Format("2006-01-02"))
	},
	"none":      none,
	"boardname": displayBoard,
	"link": func(bus string, mbps int) any {
		if bus == "" {
			return none("link not reported")
		}
		if mbps == 0 {
			return bus
		}
		return fmt.Sprintf("%s %d Mb/s", bus, mbps)
	},
	"drivename": func(vendor, model string) string {
		if n := strings.TrimSpace(vendor + " " + model); n != "" {
			return n
		}
		return "unidentified drive"
	},
	"drivepath": drivePath,
	"boardpath": boardPath,
	"deref":     func(p *float64) float64 { return *p },
	"ptr":       func(v float64) *float64 { return &v },
	"usd":       func(v float64) string { return fmt.Sprintf("$%.2f", v) },
	// opt prints a figure, or nothing when the record does not report it (zero).
	"opt": func(v float64) any {
		if v == 0 {
			return none("not measured")
		}
		return fmt.Sprintf("%.0f", v)
	},
	"bs": func(b int) string {
		switch {
		case b == 0:
			return ""
		case b%(1<<20) == 0:
			return fmt.Sprintf("%d MiB", b>>20)
		case b%(1<<10) == 0:
			return fmt.Sprintf("%d KiB", b>>10)
		}
		return fmt.Sprintf("%d B", b)
	},
	"inc": func(i int) int { return i + 1 },
	"plural": func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	},
	// iops prints an IOPS figure, or "—" saying the test has none (published rows state MB/s only).
	"iops": func(v float64) any {
		if v == 0 {
			return none("MB/s only")
		}
		return fmt.Sprintf("%.0f", v)
	},
}

// none is what a page shows instead of a missing figure: a dash and the reason.
func none(reason string) template.HTML {
	return template.HTML(`<span class="none">— <small>` + template.HTMLEscapeString(reason) + `</small></span>`)
}

func loadPages() (*pages, error) {
	p := &pages{sets: map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("server: parsing template %s: %w", name, err)
		}
		p.sets[name] = t
	}
	return p, nil
}

// render executes a page into a buffer first, so a template error never sends half a page.
func (p *pages) render(w http.ResponseWriter, name string, data any) {
	p.renderCode(w, http.StatusOK, name, data)
}

func (p *pages) renderCode(w http.ResponseWriter, code int, name string, data any) {
	var buf bytes.Buffer
	if err := p.sets[name].ExecuteTemplate(&buf, "layout", data); err != nil {
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

func (p *pages) renderError(w http.ResponseWriter, code int, msg string) {
	p.renderCode(w, code, "error", struct {
		Code   int
		Status string
		Msg    string
	}{code, http.StatusText(code), msg})
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
