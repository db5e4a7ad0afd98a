package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestOpenPostgresErrorHidesPassword: whatever form the password takes (a URL's user part,
// escaped or not, a query parameter, a key=value DSN, quoted or not), no error shows it, and
// the error still names the server.
func TestOpenPostgresErrorHidesPassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Port 1 on loopback: nothing listens, the connection is refused at once.
	for _, dsn := range []string{
		"postgres://iomark:s3cret-pw@127.0.0.1:1/iomark?sslmode=disable&connect_timeout=5",
		"postgresql://iomark:s3cret%2Dpw@127.0.0.1:1/iomark?sslmode=disable",
		"postgres://iomark@127.0.0.1:1/iomark?sslmode=disable&password=s3cret-pw",
		"postgres://iomark@127.0.0.1:1/iomark?sslmode=disable&sslpassword=s3cret-pw",
		"postgres://iomark:s3cret-pw%zz@127.0.0.1:1/iomark", // unparsable
		"host=127.0.0.1 port=1 user=iomark password=s3cret-pw dbname=iomark sslmode=disable",
		"host=127.0.0.1 port=1 user=iomark password='s3cret-pw' dbname=iomark sslmode=disable",
	} {
		s, err := Open(ctx, dsn)
		if err == nil {
			s.Close()
			t.Fatalf("%s: Open succeeded against a closed port", dsn)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error shows the password: %v", dsn, err)
		}
		if !strings.Contains(dsn, "%zz") && !strings.Contains(err.Error(), "127.0.0.1") {
			t.Errorf("%s: the error does not name the server: %v", dsn, err)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h/db":                                "postgres://u:****@h/db",
		"postgresql://u@h:5433/db?x=1":                        "postgresql://u@h:5433/db?x=1",
		"postgres://u@h/db?sslmode=disable&password=pw":       "postgres://u@h/db?sslmode=disable&password=****",
		"postgres://%zz":                                      "postgres://… (a URL that cannot be read: check its %-escapes)",
		"host=h user=u password=pw dbname=db":                 "host=h user=u password=**** dbname=db",
		"host=h password='p w\\\\' application_name='my app'": "host=h password=**** application_name='my app'",
		"/var/lib/iomark/results.db":                          "/var/lib/iomark/results.db",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
