package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestOpenPostgresErrorHidesPassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Port 1 on loopback: nothing listens, the connection is refused at once.
	s, err := Open(ctx, "postgres://iomark:s3cret-pw@127.0.0.1:1/iomark?sslmode=disable&connect_timeout=5")
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded against a closed port")
	}
	if strings.Contains(err.Error(), "s3cret-pw") {
		t.Errorf("the error shows the password: %v", err)
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("the error does not name the server: %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h/db":         "postgres://u:xxxxx@h/db",
		"postgresql://u@h:5433/db?x=1": "postgresql://u@h:5433/db?x=1",
		"postgres://%zz":               "the PostgreSQL database (unparsable URL)",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
