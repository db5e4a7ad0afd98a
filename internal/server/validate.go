package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/iomark/iomark/internal/record"
)

// Bounds of an uploaded record. They are generous (a run on any drive made fits far inside) and
// exist so a hostile upload cannot store absurd figures or make pages expensive.
const (
	maxStringBytes  = 1024
	maxArrayItems   = 100000
	maxDepth        = 32
	maxTests        = 500
	maxHops         = 16
	maxFindings     = 200
	maxMBPerS       = 1e6 // 1 TB/s: no storage link reaches it
	maxIOPS         = 1e8
	maxLatencyUS    = 3.6e9 // an hour
	maxDurationS    = 7 * 24 * 3600
	maxBytes        = 1e18
	maxLinkMbps     = 1e7
)

var (
	idPattern       = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	testNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:+-]{0,63}$`)
	serialPattern   = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

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

// decodeUpload reads one record from an upload body: a JSON object, nothing after it, every
// string and array bounded, then every field in range.
func decodeUpload(body []byte, now time.Time) (*record.Run, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, bad("", "empty body: send one result record as `iomark run --json` prints it")
	}
	if trimmed[0] != '{' {
		return nil, bad("", "the body is not a JSON object: send one result record as `iomark run --json` prints it")
	}
	if !utf8.Valid(body) {
		return nil, bad("", "the body is not valid UTF-8")
	}
	var generic any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return nil, bad("", "not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, bad("", "more than one JSON value: send one record per request")
	}
	if err := checkShape(generic, "", 0); err != nil {
		return nil, err
	}
	var run record.Run
	if err := json.Unmarshal(body, &run); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, bad(te.Field, "expected %s, got a JSON %s", te.Type, te.Value)
		}
		return nil, bad("", "not a result record: %v", err)
	}
	if err := validateRun(&run, now); err != nil {
		return nil, err
	}
	return &run, nil
}

// checkShape bounds strings, arrays and nesting of any JSON value.
func checkShape(v any, path string, depth int) error {
	if depth > maxDepth {
		return bad(path, "nested deeper than %d levels", maxDepth)
	}
	switch x := v.(type) {
	case string:
		if len(x) > maxStringBytes {
			return bad(path, "text of %d bytes, at most %d allowed", len(x), maxStringBytes)
		}
		if strings.ContainsRune(x, 0) {
			return bad(path, "text holds a NUL character")
		}
	case []any:
		if len(x) > maxArrayItems {
			return bad(path, "%d items, at most %d allowed", len(x), maxArrayItems)
		}
		for i, e := range x {
			if err := checkShape(e, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if len(k) > 128 {
				return bad(path, "a key of %d bytes", len(k))
			}
			if err := checkShape(e, p, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// rangeCheck collects the first out-of-range field.
type rangeCheck struct{ err *fieldError }

func (c *rangeCheck) num(field string, v, lo, hi float64) {
	if c.err == nil && (math.IsNaN(v) || v < lo || v > hi) {
		c.err = bad(field, "%g is out of range [%g, %g]", v, lo, hi)
	}
}

func (c *rangeCheck) serial(field, v string) {
	if c.err == nil && v != "" && !serialPattern.MatchString(v) {
		c.err = bad(field, "must be the first 16 hex digits of the serial's SHA-256, as iomark sends it; raw serial numbers are not accepted")
	}
}

func (c *rangeCheck) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = bad(field, format, args...)
	}
}

// validateRun checks every field of a decoded record against its range.
func validateRun(r *record.Run, now time.Time) error {
	var c rangeCheck
	if r.SchemaVersion < 1 || r.SchemaVersion > record.SchemaVersion {
		c.fail("schema_version", "%d is not a schema this server knows (1 to %d)", r.SchemaVersion, record.SchemaVersion)
	}
	if !idPattern.MatchString(r.ID) {
		c.fail("id", "must be 1 to 64 letters, digits, '.', '_' or '-' (iomark makes a UUID)")
	}
	if r.Profile == "" || len(r.Profile) > 64 {
		c.fail("profile", "must be 1 to 64 bytes")
	}
	if len(r.ToolVersion) > 64 {
		c.fail("tool_version", "at most 64 bytes")
	}
	c.num("duration_s", r.DurationS, 0, maxDurationS)
	c.num("bytes_written", float64(r.BytesWritten), 0, maxBytes)
	if r.Device != nil {
		c.num("device.capacity_bytes", float64(r.Device.CapacityBytes), 0, maxBytes)
		c.serial("device.serial_hash", r.Device.SerialHash)
	}
	if r.USB != nil {
		c.serial("usb.serial_hash", r.USB.SerialHash)
		if r.USB.Drive != nil {
			c.serial("usb.drive.serial_hash", r.USB.Drive.SerialHash)
		}
	}
	if r.SD != nil {
		c.serial("sd.serial_hash", r.SD.SerialHash)
		c.num("sd.manfid", float64(r.SD.ManfID), 0, 255)
	}
	if r.NVMe != nil {
		c.serial("nvme.serial_hash", r.NVMe.SerialHash)
	}
	if len(r.Link) > maxHops {
		c.fail("link", "%d hops, at most %d", len(r.Link), maxHops)
	}
	for i, h := range r.Link {
		f := fmt.Sprintf("link[%d]", i)
		c.num(f+".speed_mbps", float64(h.SpeedMbps), 0, maxLinkMbps)
		c.num(f+".max_speed_mbps", float64(h.MaxSpeedMbps), 0, maxLinkMbps)
		c.num(f+".ceiling_mb_per_s", h.CeilingMBPerS, 0, maxMBPerS)
	}
	c.num("ceiling_mb_per_s", r.CeilingMBPerS, 0, maxMBPerS)
	if r.Ceiling != nil {
		c.num("ceiling.mb_per_s", r.Ceiling.MBPerS, 0, maxMBPerS)
	}
	if len(r.Tests) > maxTests {
		c.fail("tests", "%d tests, at most %d", len(r.Tests), maxTests)
	}
	for i, t := range r.Tests {
		f := fmt.Sprintf("tests[%d]", i)
		if !testNamePattern.MatchString(t.Name) {
			c.fail(f+".name", "must be 1 to 64 letters, digits or . _ : + -")
		}
		if len(t.Op) > 32 || len(t.Engine) > 32 {
			c.fail(f+".op", "op and engine are at most 32 bytes")
		}
		switch t.Primary {
		case "", "iops", "mb_per_s":
		default:
			c.fail(f+".primary", "must be iops or mb_per_s")
		}
		c.num(f+".bs", float64(t.BS), 0, 1<<30)
		c.num(f+".qd", float64(t.QD), 0, 65536)
		c.num(f+".jobs", float64(t.Jobs), 0, 4096)
		c.num(f+".iops", t.IOPS, 0, maxIOPS)
		c.num(f+".mb_per_s", t.MBPerS, 0, maxMBPerS)
		c.num(f+".mib_per_s", t.MiBPerS, 0, maxMBPerS)
		for name, v := range map[string]float64{"p50": t.LatUS.P50, "p90": t.LatUS.P90, "p99": t.LatUS.P99,
			"p999": t.LatUS.P999, "max": t.LatUS.Max, "mean": t.LatUS.Mean} {
			c.num(f+".lat_us."+name, v, 0, maxLatencyUS)
		}
		c.num(f+".ci95_pct", t.CI95Pct, 0, 1000)
		c.num(f+".runs", float64(t.Runs), 0, 10000)
		c.num(f+".duration_s", t.DurationS, 0, maxDurationS)
		c.num(f+".bytes", float64(t.Bytes), 0, maxBytes)
		if t.CeilingPct != nil {
			c.num(f+".ceiling_pct", *t.CeilingPct, 0, 1e6)
		}
		for j, v := range t.RunValues {
			c.num(fmt.Sprintf("%s.run_values[%d]", f, j), v, 0, maxIOPS)
		}
		for j, p := range t.Series {
			g := fmt.Sprintf("%s.series[%d]", f, j)
			c.num(g+".t_s", p.TS, 0, maxDurationS)
			c.num(g+".iops", p.IOPS, 0, maxIOPS)
			c.num(g+".mb_per_s", p.MBPerS, 0, maxMBPerS)
		}
		if t.Sustained != nil {
			s := t.Sustained
			for name, v := range map[string]float64{"before_mb_per_s": s.BeforeMBPerS, "after_mb_per_s": s.AfterMBPerS,
				"steady_mb_per_s": s.SteadyMBPerS} {
				c.num(f+".sustained."+name, v, 0, maxMBPerS)
			}
			c.num(f+".sustained.drop_pct", s.DropPct, -1000, 1000)
			c.num(f+".sustained.written_bytes", float64(s.WrittenBytes), 0, maxBytes)
		}
	}
	if r.Scores.Iomark != nil {
		c.num("scores.iomark", *r.Scores.Iomark, 0, 1e9)
	}
	if r.Scores.Pibenchmarks != nil {
		c.num("scores.pibenchmarks", float64(*r.Scores.Pibenchmarks), 0, 1e9)
	}
	if len(r.Findings) > maxFindings {
		c.fail("findings", "%d findings, at most %d", len(r.Findings), maxFindings)
	}
	for i, s := range r.Sensors {
		f := fmt.Sprintf("sensors[%d]", i)
		c.num(f+".t_s", s.TS, 0, maxDurationS)
		if s.SoCTempC != nil {
			c.num(f+".soc_temp_c", *s.SoCTempC, -100, 300)
		}
		if s.DriveTempC != nil {
			c.num(f+".drive_temp_c", *s.DriveTempC, -100, 300)
		}
	}
	if c.err != nil {
		return c.err
	}
	return nil
}

