package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Checking a JSON body against a Schema (schema.go) as it streams through a json.Decoder: no
// tree of the whole body is built, so a 1 MiB upload costs about its tokens, not ten times its
// size. It knows the part of JSON Schema the server writes: type (a name or a list), properties,
// required, additionalProperties false, items, minItems and maxItems, minimum and maximum,
// minLength and maxLength (code points), pattern, not with a pattern, enum, format date-time,
// $ref into the document's components, and anyOf between a $ref and null.

// fieldError is a 400 answer naming the field at fault.
type fieldError struct {
	Field string
	Msg   string
}

func (e *fieldError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

func bad(field, format string, args ...any) *fieldError {
	return &fieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// maxAnyDepth bounds a value checked against the empty schema (any JSON).
const maxAnyDepth = 32

type checker struct {
	comps components
	dec   *json.Decoder
	out   bytes.Buffer // the value written again (checkAndNormalize)
}

// write appends a scalar token to out.
func (c *checker) write(tok json.Token) {
	switch t := tok.(type) {
	case string:
		b, _ := json.Marshal(t) // a string always marshals
		c.out.Write(b)
	case json.Number:
		c.out.WriteString(string(t))
	case bool:
		c.out.WriteString(strconv.FormatBool(t))
	case nil:
		c.out.WriteString("null")
	case json.Delim:
		c.out.WriteByte(byte(t))
	}
}

// checkJSON checks that data holds exactly one JSON value valid against s.
func checkJSON(comps components, s *Schema, data []byte) error {
	_, err := checkAndNormalize(comps, s, data)
	return err
}

// checkAndNormalize checks data as checkJSON does and returns it written again with every whole
// number where the schema wants an integer written as one: JSON Schema counts 1048576.0 and 1e3
// as integers, encoding/json does not decode them into Go's integer types.
func checkAndNormalize(comps components, s *Schema, data []byte) ([]byte, error) {
	if !utf8.Valid(data) {
		return nil, bad("", "the body is not valid UTF-8")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, bad("", "empty body")
	}
	c := checker{comps: comps, dec: json.NewDecoder(bytes.NewReader(data))}
	c.out.Grow(len(data))
	c.dec.UseNumber()
	if err := c.value(s, ""); err != nil {
		return nil, err
	}
	if _, err := c.dec.Token(); err != io.EOF {
		return nil, bad("", "more than one JSON value: send one per request")
	}
	return c.out.Bytes(), nil
}

func (c *checker) token(path string) (json.Token, error) {
	tok, err := c.dec.Token()
	if err == io.EOF {
		return nil, bad(path, "the JSON ends early")
	}
	if err != nil {
		return nil, bad(path, "not valid JSON: %v", err)
	}
	return tok, nil
}

// kind is the JSON type of a token that starts a value.
func kind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "object"
		}
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

func allows(types []string, k string, num json.Number) bool {
	if types == nil {
		return true
	}
	for _, t := range types {
		if t == k || t == "integer" && k == "number" && (isInteger(num) || wholeNumber(num) != "") {
			return true
		}
	}
	return false
}

// isInteger: a JSON number written without a fraction or an exponent, as encoding/json wants
// for Go's integer types.
func isInteger(n json.Number) bool {
	return n != "" && !strings.ContainsAny(string(n), ".eE")
}

// wholeNumber writes a number with a fraction or an exponent that is whole (1048576.0, 1e3) as
// an integer, exactly; "" when it is not whole or not within 64 bits.
func wholeNumber(n json.Number) json.Number {
	f, _, err := big.ParseFloat(string(n), 10, 256, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return ""
	}
	i, acc := f.Int64()
	if acc != big.Exact {
		return ""
	}
	return json.Number(strconv.FormatInt(i, 10))
}

// value reads one value and checks it against s.
func (c *checker) value(s *Schema, path string) error {
	tok, err := c.token(path)
	if err != nil {
		return err
	}
	return c.checkToken(s, path, tok)
}

func (c *checker) checkToken(s *Schema, path string, tok json.Token) error {
	if s != nil && s.Ref != "" && c.comps.resolve(s) == nil {
		return fmt.Errorf("server: schema reference %s leads nowhere", s.Ref) // a programming error
	}
	s = c.comps.resolve(s)
	k := kind(tok)
	num, _ := tok.(json.Number)
	if s == nil {
		return c.skip(tok, path, 0)
	}
	if len(s.AnyOf) > 0 {
		for _, alt := range s.AnyOf {
			if a := c.comps.resolve(alt); a != nil && allows(a.types(), k, num) {
				return c.checkToken(a, path, tok)
			}
		}
		return bad(path, "a JSON %s is not allowed here", k)
	}
	if len(s.AnyOf) == 0 && s.types() == nil { // any value
		return c.skip(tok, path, 0)
	}
	if !allows(s.types(), k, num) {
		want := strings.Join(s.types(), " or ")
		if slices.Contains(s.types(), "integer") && k == "number" {
			return bad(path, "%s is not a whole number", num)
		}
		return bad(path, "expected %s, got a JSON %s", want, k)
	}
	switch k {
	case "object":
		return c.object(s, path)
	case "array":
		return c.array(s, path)
	case "string":
		c.write(tok)
		return checkString(s, path, tok.(string))
	case "number":
		if slices.Contains(s.types(), "integer") && !isInteger(num) {
			num = wholeNumber(num) // allows says it is whole
		}
		c.write(num)
		return checkNumber(s, path, num)
	}
	c.write(tok)
	return nil
}

func (c *checker) object(s *Schema, path string) error {
	seen := map[string]bool{}
	c.out.WriteByte('{')
	for c.dec.More() {
		tok, err := c.token(path)
		if err != nil {
			return err
		}
		key := tok.(string) // inside an object the decoder yields keys as strings
		if len(seen) > 0 {
			c.out.WriteByte(',')
		}
		c.write(key)
		c.out.WriteByte(':')
		p := key
		if path != "" {
			p = path + "." + key
		}
		if seen[key] {
			return bad(p, "given twice")
		}
		seen[key] = true
		prop, known := s.Properties[key]
		if !known && s.AdditionalProperties != nil && !*s.AdditionalProperties {
			return bad(p, "not a field of this object")
		}
		if err := c.value(prop, p); err != nil {
			return err
		}
	}
	if _, err := c.token(path); err != nil { // '}'
		return err
	}
	c.out.WriteByte('}')
	for _, r := range s.Required {
		if !seen[r] {
			f := r
			if path != "" {
				f = path + "." + r
			}
			return bad(f, "missing")
		}
	}
	return nil
}

func (c *checker) array(s *Schema, path string) error {
	n := 0
	c.out.WriteByte('[')
	for c.dec.More() {
		if s.MaxItems != nil && n >= *s.MaxItems {
			return bad(path, "more than %d items", *s.MaxItems)
		}
		if n > 0 {
			c.out.WriteByte(',')
		}
		if err := c.value(s.Items, path+"["+strconv.Itoa(n)+"]"); err != nil {
			return err
		}
		n++
	}
	if _, err := c.token(path); err != nil { // ']'
		return err
	}
	c.out.WriteByte(']')
	if s.MinItems != nil && n < *s.MinItems {
		return bad(path, "%d items, at least %d needed", n, *s.MinItems)
	}
	return nil
}

// skip reads (and writes again) the rest of a value the schema says nothing about, bounded in
// depth.
func (c *checker) skip(tok json.Token, path string, depth int) error {
	if depth > maxAnyDepth {
		return bad(path, "nested deeper than %d levels", maxAnyDepth)
	}
	c.write(tok)
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	for i := 0; c.dec.More(); i++ {
		if i > 0 {
			c.out.WriteByte(',')
		}
		if d == '{' {
			key, err := c.token(path)
			if err != nil {
				return err
			}
			c.write(key)
			c.out.WriteByte(':')
		}
		t, err := c.token(path)
		if err != nil {
			return err
		}
		if err := c.skip(t, path, depth+1); err != nil {
			return err
		}
	}
	end, err := c.token(path)
	if err == nil {
		c.write(end)
	}
	return err
}

func checkString(s *Schema, path, v string) error {
	n := utf8.RuneCountInString(v)
	if s.MaxLength != nil && n > *s.MaxLength {
		return bad(path, "text of %d characters, at most %d allowed", n, *s.MaxLength)
	}
	if s.MinLength != nil && n < *s.MinLength {
		return bad(path, "text of %d characters, at least %d needed", n, *s.MinLength)
	}
	if s.re != nil && !s.re.MatchString(v) {
		return bad(path, "%q does not have the form %s", clip(v), s.Pattern)
	}
	if s.notRe != nil && s.notRe.MatchString(v) {
		return bad(path, "%q is reserved (it matches %s)", clip(v), s.Not.Pattern)
	}
	if s.Enum != nil && !slices.Contains(s.Enum, any(v)) {
		return bad(path, "%q is not one of %v", clip(v), s.Enum)
	}
	if s.Format == "date-time" {
		var t time.Time
		if err := t.UnmarshalText([]byte(v)); err != nil {
			return bad(path, "%q is not an RFC 3339 date and time", clip(v))
		}
	}
	return nil
}

func checkNumber(s *Schema, path string, n json.Number) error {
	v, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return bad(path, "%s is not a number", n)
	}
	if slices.Contains(s.types(), "integer") && isInteger(n) {
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return bad(path, "%s is out of range", n)
		}
		// Beyond 2^53 a float64 rounds: compare whole numbers as integers.
		if s.Maximum != nil && *s.Maximum < 1<<62 && i > int64(*s.Maximum) || s.Minimum != nil && *s.Minimum > -(1<<62) && i < int64(math.Ceil(*s.Minimum)) {
			return bad(path, "%s is out of range %s", n, rangeText(s))
		}
	}
	if s.Minimum != nil && !(v >= *s.Minimum) || s.Maximum != nil && !(v <= *s.Maximum) ||
		s.ExclusiveMinimum != nil && !(v > *s.ExclusiveMinimum) || math.IsNaN(v) {
		return bad(path, "%s is out of range %s", n, rangeText(s))
	}
	return nil
}

// rangeText says a number schema's range, e.g. "[0, 1e+06]".
func rangeText(s *Schema) string {
	lo, hi := "-∞", "∞"
	if s.Minimum != nil {
		lo = strconv.FormatFloat(*s.Minimum, 'g', -1, 64)
	}
	if s.ExclusiveMinimum != nil {
		lo = "above " + strconv.FormatFloat(*s.ExclusiveMinimum, 'g', -1, 64)
	}
	if s.Maximum != nil {
		hi = strconv.FormatFloat(*s.Maximum, 'g', -1, 64)
	}
	return "[" + lo + ", " + hi + "]"
}

// clip shortens a value quoted in a message.
func clip(v string) string {
	if r := []rune(v); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return v
}
