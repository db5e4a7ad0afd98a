package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// What of a record never leaves the machine it was made on: the one list `iomark submit`
// strips before sending, the results server drops on ingest and the store's scrub migration
// removes from uploaded rows already kept (docs/result-record.md, "What is published").
//
// Local paths and mount points carry user names (/home/alice, /media/alice/CARD), a mount's
// source can name a file server (//nas.lan/share), mount options carry user names and server
// addresses (username=, uid=, addr=), and a network copy's peer is an IP address. None is
// needed to compare drives: the filesystem type, the remaining options and the link chain are.

// PrivateFields are removed wherever they are: "[]" stands for any array index.
var PrivateFields = []string{
	"target.path",
	"mount.mount_point",
	"mount.source",
	"tests[].network.peer",
}

// OptionFields are comma-separated mount option lists whose private options are removed
// (PrivateOption) and the rest kept: they change results (sync, discard, noatime).
var OptionFields = []string{"mount.options", "mount.super_options"}

// privateOptions name a user, a group, a server or a file of credentials.
var privateOptions = map[string]bool{
	"user": true, "username": true, "uid": true, "gid": true, "domain": true, "credentials": true,
	"addr": true, "clientaddr": true, "mountaddr": true, "mounthost": true, "ip": true, "srcaddr": true,
	"unc": true, "prefixpath": true,
}

// PrivateOption reports whether a mount option (key=value) names a user or a host.
func PrivateOption(opt string) bool {
	key, _, hasValue := strings.Cut(opt, "=")
	return hasValue && privateOptions[strings.ToLower(strings.TrimSpace(key))]
}

// ScrubOptions drops the private options of a comma-separated list.
func ScrubOptions(list string) string {
	if list == "" {
		return list
	}
	var kept []string
	for _, o := range strings.Split(list, ",") {
		if !PrivateOption(o) {
			kept = append(kept, o)
		}
	}
	return strings.Join(kept, ",")
}

// Placeholders put where a removed value was quoted in a finding or warning.
const (
	RemovedPath    = "[path]"
	RemovedAddress = "[address]"
)

// ScrubJSON removes a record's private fields (PrivateFields, private mount options, any key
// named hostname at any depth) and every quotation of a removed path or address in its other
// text (a finding names the mount point it is about), keeping everything else as written.
// changed reports whether anything was removed.
func ScrubJSON(rec []byte) (out []byte, changed bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(rec))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, fmt.Errorf("the record is not JSON: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("the record is not a JSON object")
	}
	if !ScrubObject(obj) {
		return rec, false, nil
	}
	out, err = json.Marshal(obj)
	return out, err == nil, err
}

// ScrubObject is ScrubJSON on a decoded record (numbers best decoded as json.Number).
func ScrubObject(obj map[string]any) bool {
	s := scrubber{}
	for _, f := range PrivateFields {
		s.remove(obj, strings.Split(f, "."), f)
	}
	for _, f := range OptionFields {
		s.options(obj, strings.Split(f, "."))
	}
	s.hostnames(obj)
	if len(s.quoted) > 0 {
		// Longest first: a mount point inside the target path must not split it.
		sort.Slice(s.quoted, func(i, j int) bool { return len(s.quoted[i].text) > len(s.quoted[j].text) })
		for _, k := range quotingFields {
			if v, ok := obj[k]; ok {
				s.replaceQuoted(&v)
				obj[k] = v
			}
		}
	}
	return s.changed
}

// quotingFields are the parts of a record whose sentences may quote a path or an address; the
// structured fields elsewhere (a device's /dev path) are left as they are.
var quotingFields = []string{"findings", "warnings"}

type quote struct{ text, with string }

type scrubber struct {
	changed bool
	quoted  []quote
}

// remove deletes the field at path under v, noting its text for replaceQuoted.
func (s *scrubber) remove(v any, path []string, field string) {
	name, each := strings.CutSuffix(path[0], "[]")
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	child, ok := obj[name]
	if !ok {
		return
	}
	if len(path) == 1 {
		delete(obj, name)
		s.changed = true
		if text, ok := child.(string); ok && quotable(text) {
			with := RemovedPath
			if strings.HasSuffix(field, "peer") {
				with = RemovedAddress
			}
			s.quoted = append(s.quoted, quote{text, with})
		}
		return
	}
	if !each {
		s.remove(child, path[1:], field)
		return
	}
	if arr, ok := child.([]any); ok {
		for _, e := range arr {
			s.remove(e, path[1:], field)
		}
	}
}

// quotable: "/" or "." quoted in a message would replace every slash or dot.
func quotable(text string) bool { return len(strings.Trim(text, "/. ")) >= 2 }

func (s *scrubber) options(v any, path []string) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	if len(path) > 1 {
		s.options(obj[path[0]], path[1:])
		return
	}
	list, ok := obj[path[0]].(string)
	if !ok {
		return
	}
	for _, o := range strings.Split(list, ",") {
		if PrivateOption(o) {
			_, val, _ := strings.Cut(o, "=")
			if quotable(val) && strings.ContainsFunc(val, unicode.IsLetter) {
				s.quoted = append(s.quoted, quote{val, RemovedAddress})
			}
		}
	}
	if kept := ScrubOptions(list); kept != list {
		obj[path[0]] = kept
		s.changed = true
	}
}

func (s *scrubber) hostnames(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.EqualFold(k, "hostname") || strings.EqualFold(k, "host_name") {
				delete(x, k)
				s.changed = true
				continue
			}
			s.hostnames(e)
		}
	case []any:
		for _, e := range x {
			s.hostnames(e)
		}
	}
}

// replaceQuoted replaces the removed texts wherever another string quotes them.
func (s *scrubber) replaceQuoted(v *any) {
	switch x := (*v).(type) {
	case map[string]any:
		for k, e := range x {
			s.replaceQuoted(&e)
			x[k] = e
		}
	case []any:
		for i := range x {
			s.replaceQuoted(&x[i])
		}
	case string:
		out := x
		for _, q := range s.quoted {
			out = strings.ReplaceAll(out, q.text, q.with)
		}
		if out != x {
			*v = out
			s.changed = true
		}
	}
}
