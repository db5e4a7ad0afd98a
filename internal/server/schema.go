package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Schema is the part of JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) the server
// writes into its OpenAPI document and checks requests against (check.go): one value is both,
// so the document and the validator cannot disagree. Patterns use only what Go's RE2, ECMA 262
// and Python's re read alike.
type Schema struct {
	Ref                  string             `json:"$ref,omitempty"`
	Type                 any                `json:"type,omitempty"` // a name, or a list of names
	Format               string             `json:"format,omitempty"`
	Description          string             `json:"description,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	MinItems             *int               `json:"minItems,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	Minimum              *float64           `json:"minimum,omitempty"`
	ExclusiveMinimum     *float64           `json:"exclusiveMinimum,omitempty"`
	Maximum              *float64           `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	Pattern              string             `json:"pattern,omitempty"`
	Enum                 []any              `json:"enum,omitempty"`
	Not                  *Schema            `json:"not,omitempty"`
	AnyOf                []*Schema          `json:"anyOf,omitempty"`

	re, notRe *regexp.Regexp // compiled Pattern and Not.Pattern
}

// types lists the JSON types a schema allows.
func (s *Schema) types() []string {
	switch t := s.Type.(type) {
	case string:
		return []string{t}
	case []string:
		return t
	}
	return nil
}

func intp(v int) *int           { return &v }
func floatp(v float64) *float64 { return &v }
func boolp(v bool) *bool        { return &v }

// components holds the named schemas of a document, "#/components/schemas/NAME".
type components map[string]*Schema

const refPrefix = "#/components/schemas/"

// resolve follows a $ref.
func (c components) resolve(s *Schema) *Schema {
	for s != nil && s.Ref != "" {
		s = c[strings.TrimPrefix(s.Ref, refPrefix)]
	}
	return s
}

// limit bounds one field of an upload: a number's range, a string's length and pattern, an
// array's length, or a required field. limits.go holds them, by JSON path ("tests[].mb_per_s").
type limit struct {
	min, max    float64 // numbers
	maxLen      int     // strings: code points (0: maxText); arrays: items (0: maxItemsDefault)
	minLen      int     // strings: code points
	pattern     string  // strings: the whole value must match
	notPattern  string  // strings: the value must not match (reserved names)
	enum        []any   // the only values allowed
	required    bool    // must be present in its object
	description string
	// alsoText: an object that may also be given as a bare string (a type whose UnmarshalJSON
	// takes both, e.g. a schema 1 warning).
	alsoText bool
}

// schemaBuilder turns Go types into schemas, as encoding/json would marshal them.
type schemaBuilder struct {
	comps components
	// upload: the schema of a request body, bounded by limits; otherwise a response's, of types
	// only (what the server sends is checked by the tests, not bounded here).
	upload bool
	limits map[string]limit
	prefix string // of component names, so one type has an upload and a response schema
	// missing collects numeric fields with no limit and serial hashes without their pattern (a
	// test fails on any); used the paths
	// that have one, so a test can find limits no field has.
	missing []string
	used    map[string]bool
}

var timeType = reflect.TypeFor[time.Time]()
var rawType = reflect.TypeFor[json.RawMessage]()

// componentName names a named struct type: server types by their name, others with their
// package's, e.g. RecordRun, ProbeBoard.
func componentName(t reflect.Type) string {
	pkg := t.PkgPath()
	pkg = pkg[strings.LastIndex(pkg, "/")+1:]
	if pkg == "server" {
		return strings.ToUpper(t.Name()[:1]) + t.Name()[1:]
	}
	if name, ok := publishedRecordNames[t.Name()]; ok && pkg == "record" {
		return name
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + t.Name()
}

// publishedRecordNames: the record's types that probe, health and engine fill in are named
// in the document after those packages (ProbeDevice, HealthHealth, EnginePoint), the names
// clients made from it use.
var publishedRecordNames = map[string]string{
	"Board": "ProbeBoard", "Device": "ProbeDevice", "Hop": "ProbeHop", "USB": "ProbeUSB",
	"Bridge": "ProbeBridge", "ATAIdentity": "ProbeATAIdentity", "SD": "ProbeSD", "NVMe": "ProbeNVMe",
	"SATA": "ProbeSATA", "Mount": "ProbeMount", "Partition": "ProbePartition", "Queue": "ProbeQueue",
	"Ceiling": "ProbeCeiling", "PiInfo": "ProbePiInfo", "Throttle": "ProbeThrottle",
	"Health": "HealthHealth", "HealthAttribute": "HealthAttribute", "Point": "EnginePoint",
}

// schemaOf returns the schema of t at path (for limits). JSON null is allowed where
// encoding/json writes it: a nil pointer, slice or map of a field without omitempty.
func (b *schemaBuilder) schemaOf(t reflect.Type, path string, omitempty bool) *Schema {
	lim, hasLim := b.limits[path]
	if hasLim {
		b.used[path] = true
	}
	nullable := false
	for t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), !omitempty
	}
	var s *Schema
	switch {
	case t == timeType:
		s = &Schema{Type: "string", Format: "date-time"}
	case t == rawType:
		s = &Schema{} // any JSON value
	case t.Kind() == reflect.Struct:
		name := b.prefix + componentName(t)
		if _, ok := b.comps[name]; !ok {
			b.comps[name] = nil // being built: a recursive type refers to it
			b.comps[name] = b.object(t, path)
		}
		s = &Schema{Ref: refPrefix + name}
		if b.upload && hasLim && lim.alsoText {
			return &Schema{AnyOf: []*Schema{s, {Type: "string", MaxLength: intp(maxText)}}}
		}
		if nullable {
			return &Schema{AnyOf: []*Schema{s, {Type: "null"}}}
		}
		return s
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		s = &Schema{Type: "array", Items: b.schemaOf(t.Elem(), path+"[]", false)}
		if t.Kind() == reflect.Array {
			s.MinItems, s.MaxItems = intp(t.Len()), intp(t.Len())
		} else {
			nullable = !omitempty // a nil slice marshals as null
			if b.upload {
				s.MaxItems = intp(maxItemsDefault)
				if hasLim && lim.maxLen > 0 {
					s.MaxItems = intp(lim.maxLen)
				}
			}
		}
	case t.Kind() == reflect.Map:
		s = &Schema{Type: "object"}
		nullable = !omitempty
	case t.Kind() == reflect.String:
		s = b.stringSchema(path, lim, hasLim)
	case t.Kind() == reflect.Bool:
		s = &Schema{Type: "boolean"}
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		s = &Schema{Type: "integer"}
		b.bound(s, path, lim, hasLim)
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		s = &Schema{Type: "number"}
		b.bound(s, path, lim, hasLim)
	default:
		s = &Schema{} // interfaces: any value
	}
	if b.upload && hasLim {
		if lim.enum != nil {
			s.Enum = lim.enum
		}
		if lim.description != "" {
			s.Description = lim.description
		}
	}
	if ts, ok := s.Type.(string); ok && nullable {
		s.Type = []string{ts, "null"}
	}
	return s
}

// stringSchema is the schema of a string at path: in an upload, bounded by its limit (or by
// maxText when it has none).
func (b *schemaBuilder) stringSchema(path string, lim limit, hasLim bool) *Schema {
	s := &Schema{Type: "string"}
	if !b.upload {
		return s
	}
	s.MaxLength = intp(maxText)
	if hasLim {
		if lim.maxLen > 0 {
			s.MaxLength = intp(lim.maxLen)
		}
		if lim.minLen > 0 {
			s.MinLength = intp(lim.minLen)
		}
		s.Pattern = lim.pattern
		if lim.notPattern != "" {
			s.Not = &Schema{Pattern: lim.notPattern}
		}
	}
	// A serial number travels only as its hash: a field for one without the hash's pattern
	// would store raw serials (a test fails on any).
	if strings.HasSuffix(path, "serial_hash") && s.Pattern != serialPattern {
		b.missing = append(b.missing, path+" (a serial hash without the serial pattern)")
	}
	return s
}

func (b *schemaBuilder) bound(s *Schema, path string, lim limit, ok bool) {
	if !b.upload {
		return
	}
	if !ok {
		b.missing = append(b.missing, path)
		return
	}
	s.Minimum, s.Maximum = floatp(lim.min), floatp(lim.max)
}

// object is the schema of a struct: its JSON fields (embedded structs' fields inline, as
// encoding/json flattens them), those without omitempty required in a response (they are always
// sent), those the limits name required in an upload; no other key.
func (b *schemaBuilder) object(t reflect.Type, path string) *Schema {
	s := &Schema{Type: "object", Properties: map[string]*Schema{}, AdditionalProperties: boolp(false)}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			if f.Anonymous && name == "" {
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := name
			if path != "" {
				p = path + "." + name
			}
			// omitzero leaves a zero value out as omitempty leaves an empty one: neither is
			// always there (health.critical_warnings is absent when the drive has no such
			// field), and neither is written as null.
			omitempty := slices.ContainsFunc(strings.Split(opts, ","), func(o string) bool { return o == "omitempty" || o == "omitzero" })
			s.Properties[name] = b.schemaOf(f.Type, p, omitempty)
			if b.upload && b.limits[p].required || !b.upload && !omitempty {
				s.Required = append(s.Required, name)
			}
		}
	}
	walk(t)
	return s
}

// schemaFor builds the schema of T into comps and returns a reference to it, with the numeric
// fields that have no limit and the limits no field has (both empty when limits fit T).
func schemaFor[T any](comps components, upload bool, limits map[string]limit, prefix string) (*Schema, []string) {
	return schemaForType(comps, reflect.TypeFor[T](), upload, limits, prefix)
}

func schemaForType(comps components, t reflect.Type, upload bool, limits map[string]limit, prefix string) (*Schema, []string) {
	b := &schemaBuilder{comps: comps, upload: upload, limits: limits, prefix: prefix, used: map[string]bool{}}
	s := b.schemaOf(t, "", true)
	for path := range limits {
		if !b.used[path] {
			b.missing = append(b.missing, path+" (a limit no field has)")
		}
	}
	return s, b.missing
}

// compile prepares every pattern of the components for checking; a pattern that does not
// compile is a programming error the tests catch.
func (c components) compile() error {
	seen := map[*Schema]bool{}
	for _, s := range c {
		if err := compileSchema(s, seen); err != nil {
			return err
		}
	}
	return nil
}

// compileSchema compiles the patterns of s and what it holds.
func compileSchema(s *Schema, seen map[*Schema]bool) error {
	var walk func(s *Schema) error
	walk = func(s *Schema) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		var err error
		if s.Pattern != "" && s.re == nil {
			if s.re, err = regexp.Compile(s.Pattern); err != nil {
				return fmt.Errorf("pattern %q: %w", s.Pattern, err)
			}
		}
		if s.Not != nil && s.Not.Pattern != "" && s.notRe == nil {
			if s.notRe, err = regexp.Compile(s.Not.Pattern); err != nil {
				return fmt.Errorf("pattern %q: %w", s.Not.Pattern, err)
			}
		}
		for _, p := range s.Properties {
			if err := walk(p); err != nil {
				return err
			}
		}
		for _, a := range s.AnyOf {
			if err := walk(a); err != nil {
				return err
			}
		}
		return walk(s.Items)
	}
	return walk(s)
}
