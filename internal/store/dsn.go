package store

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// masked stands for a password in every message.
const masked = "****"

// secretKeys are the connection parameters that hold a secret, in a URL's query or a
// key=value DSN (libpq's names).
var secretKeys = map[string]bool{"password": true, "sslpassword": true}

// pgKeys are libpq's connection keywords: a string made only of key=value pairs, one of them
// one of these, is a PostgreSQL DSN ("host=db user=iomark password=…"), never a file name.
var pgKeys = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"passfile": true, "sslmode": true, "sslpassword": true, "sslrootcert": true, "sslcert": true,
	"sslkey": true, "connect_timeout": true, "application_name": true, "options": true,
	"target_session_attrs": true, "service": true, "servicefile": true,
}

// kvPair is one key=value of a libpq DSN; the value may be single-quoted with backslash escapes.
var kvPair = regexp.MustCompile(`^\s*([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)`)

// parseKeyValue splits a libpq key=value DSN into its pairs in order (values unquoted), or
// reports that s is not one.
func parseKeyValue(s string) (keys, values []string, ok bool) {
	rest := s
	known := false
	for strings.TrimSpace(rest) != "" {
		m := kvPair.FindStringSubmatch(rest)
		if m == nil {
			return nil, nil, false
		}
		rest = rest[len(m[0]):]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' {
			return nil, nil, false
		}
		k, v := strings.ToLower(m[1]), m[2]
		if strings.HasPrefix(v, "'") {
			v = strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(v[1 : len(v)-1])
		}
		known = known || pgKeys[k]
		keys, values = append(keys, k), append(values, v)
	}
	return keys, values, known && len(keys) > 0
}

// isKeyValueDSN reports whether s is a libpq key=value connection string.
func isKeyValueDSN(s string) bool {
	_, _, ok := parseKeyValue(s)
	return ok
}

// Redact returns dsn as messages may show it: every password (in a URL's user part, its
// query, or a key=value DSN) replaced by ****. A string it cannot read is not shown at all.
func Redact(dsn string) string {
	if keys, values, ok := parseKeyValue(dsn); ok {
		parts := make([]string, len(keys))
		for i, k := range keys {
			v := values[i]
			if secretKeys[k] {
				v = masked
			} else if v == "" || strings.ContainsAny(v, ` '\`) {
				v = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
			}
			parts[i] = k + "=" + v
		}
		return strings.Join(parts, " ")
	}
	if !isPostgresURL(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		scheme, _, _ := strings.Cut(dsn, "://")
		return scheme + "://… (a URL that cannot be read: check its %-escapes)"
	}
	const placeholder = "iomarkMaskedPassword" // url escapes '*' in a user part
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), placeholder)
		}
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			k, _, _ := strings.Cut(p, "=")
			if uk, err := url.QueryUnescape(k); err == nil && secretKeys[strings.ToLower(uk)] {
				params[i] = k + "=" + masked
			}
		}
		u.RawQuery = strings.Join(params, "&")
	}
	return strings.Replace(u.String(), ":"+placeholder+"@", ":"+masked+"@", 1)
}

func isPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// userinfoPassword and queryPassword find passwords in a URL that url.Parse rejects.
var (
	userinfoPassword = regexp.MustCompile(`://[^/@:]*:([^@/]*)@`)
	queryPassword    = regexp.MustCompile(`(?i)[?&](?:ssl)?password=([^&#]*)`)
)

// secrets returns every password dsn holds, as written and as decoded, so that no message
// built from it (ours or a driver's) can show one.
func secrets(dsn string) []string {
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if d, err := url.PathUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
		if d, err := url.QueryUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
	}
	if keys, values, ok := parseKeyValue(dsn); ok {
		for i, k := range keys {
			if secretKeys[k] {
				add(values[i])
			}
		}
		return out
	}
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if p, has := u.User.Password(); has {
			add(p)
		}
	}
	for _, m := range userinfoPassword.FindAllStringSubmatch(dsn, -1) {
		add(m[1])
	}
	for _, m := range queryPassword.FindAllStringSubmatch(dsn, -1) {
		add(m[1])
	}
	return out
}

// maskedError is an error whose text has the passwords of a DSN replaced by ****; errors.Is
// and errors.As still see what it wraps.
type maskedError struct {
	err     error
	secrets []string
}

func (e *maskedError) Error() string {
	s := e.err.Error()
	for _, p := range e.secrets {
		s = strings.ReplaceAll(s, p, masked)
	}
	return s
}

func (e *maskedError) Unwrap() error { return e.err }

// maskSecrets wraps err so that its text shows none of dsn's passwords.
func maskSecrets(err error, dsn string) error {
	if err == nil {
		return nil
	}
	sec := secrets(dsn)
	var me *maskedError
	if len(sec) == 0 || errors.As(err, &me) {
		return err
	}
	return &maskedError{err: err, secrets: sec}
}
