package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"unicode/utf8"
)

// checkParams checks a request's query and path parameters against the schemas its route
// declares (routes.go), the same the OpenAPI document publishes. Parameters a route does not
// declare are ignored.
func checkParams(params []param, r *http.Request) error {
	if len(params) == 0 {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return bad("", "the query string is malformed: %v", err)
	}
	for _, p := range params {
		var vals []string
		if p.in == "path" {
			vals = []string{r.PathValue(p.name)}
		} else {
			vals = q[p.name]
		}
		if len(vals) == 0 {
			if p.required {
				return bad(p.name, "missing")
			}
			continue
		}
		item := p.schema
		if p.repeated() {
			if len(vals) > *p.schema.MaxItems {
				return bad(p.name, "given %d times, at most %d", len(vals), *p.schema.MaxItems)
			}
			item = p.schema.Items
		} else if len(vals) > 1 {
			return bad(p.name, "given more than once")
		}
		for _, v := range vals {
			if err := checkParamValue(item, p.name, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// Numbers in parameters are written as in JSON.
var (
	jsonInteger = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	jsonNumber  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

func checkParamValue(s *Schema, name, v string) error {
	if !utf8.ValidString(v) {
		return bad(name, "not valid UTF-8")
	}
	switch s.Type {
	case "integer":
		if !jsonInteger.MatchString(v) {
			return bad(name, "%q is not a whole number", clip(v))
		}
		return checkNumber(s, name, json.Number(v))
	case "number":
		if !jsonNumber.MatchString(v) { // not NaN, Inf, hex or underscores, which ParseFloat takes
			return bad(name, "%q is not a number", clip(v))
		}
		return checkNumber(s, name, json.Number(v))
	}
	return checkString(s, name, v)
}
