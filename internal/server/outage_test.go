package server

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/pg"
)

// PostgreSQL stopped under a running server: /healthz says so, a page seen before is served as
// kept with a note that it may be out of date, everything else that needs the database answers
// 503 with Retry-After (nothing acknowledged that was not stored), the log says it once; started
// again, the server recovers by itself and every acknowledged upload is there.
func TestDatabaseOutagePostgres(t *testing.T) {
	cluster := pg.StartCluster(t)
	logs := &testkit.Buffer{}
	ts := startServer(t, pg.NewDatabase(t, cluster.URL), Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	var acked []string
	upload := func(id string) (int, http.Header) {
		rec := sampleRecord(id, "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 40)
		resp, err := http.Post(ts.URL+"/api/v1/results", "application/json", bytes.NewReader(encode(t, rec)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusCreated {
			acked = append(acked, id)
		}
		return resp.StatusCode, resp.Header
	}
	if c, _ := upload("before-1"); c != http.StatusCreated {
		t.Fatalf("upload before the outage: %d", c)
	}
	if c, body := ts.get(t, "/healthz"); c != 200 || !strings.Contains(body, `"database": "up"`) {
		t.Fatalf("/healthz with the database up: %d %s", c, body)
	}
	// Pages seen before the outage are kept.
	for _, path := range []string{"/search?q=sandisk", "/result/before-1"} {
		if c, body := ts.get(t, path); c != 200 || !strings.Contains(body, "SN64G") {
			t.Fatalf("%s before the outage: %d", path, c)
		}
	}
	if err := cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if resp, _ := fetch(t, ts.URL+"/healthz"); !retryLater(resp) {
			t.Errorf("/healthz with the database stopped: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		for _, path := range []string{"/api/v1/home", "/api/v1/results/before-1", "/search?q=kingston"} {
			if resp, _ := fetch(t, ts.URL+path); !retryLater(resp) {
				t.Errorf("%s with the database stopped: %d Retry-After %q, want 503 with Retry-After", path, resp.StatusCode, resp.Header.Get("Retry-After"))
			}
		}
		for _, path := range []string{"/search?q=sandisk", "/result/before-1"} {
			c, body := ts.get(t, path)
			if c != 200 || !strings.Contains(body, "may be out of date") || !strings.Contains(body, "SN64G") {
				t.Errorf("%s, kept, with the database stopped: %d, note %v", path, c, strings.Contains(body, "may be out of date"))
			}
		}
		if c, h := upload(fmt.Sprintf("during-%d", i)); c != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
			t.Errorf("upload with the database stopped: %d Retry-After %q, want 503 with Retry-After", c, h.Get("Retry-After"))
		}
	}
	if err := cluster.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, _ := ts.get(t, "/healthz")
		if c == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz still %d 30 s after PostgreSQL started again", c)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if c, _ := upload("after-1"); c != http.StatusCreated {
		t.Errorf("upload after the outage: %d", c)
	}
	if c, _ := ts.get(t, "/api/v1/home"); c != 200 {
		t.Errorf("home after the outage: %d", c)
	}
	if c, body := ts.get(t, "/search?q=sandisk"); c != 200 || strings.Contains(body, "may be out of date") {
		t.Errorf("a kept page after the outage: %d, note still shown %v", c, strings.Contains(body, "may be out of date"))
	}
	for _, id := range acked {
		if c, _ := ts.get(t, "/api/v1/results/"+id); c != 200 {
			t.Errorf("acknowledged upload %s: %d after the outage", id, c)
		}
	}
	log := logs.String()
	if n := strings.Count(log, "the database is unreachable"); n != 1 {
		t.Errorf("the log says %d times that the database went down, want once:\n%s", n, log)
	}
	if n := strings.Count(log, "the database is reachable again"); n != 1 {
		t.Errorf("the log says %d times that the database came back, want once:\n%s", n, log)
	}
	if strings.Contains(log, "level=ERROR msg=\"serving request\"") {
		t.Errorf("requests during the outage were logged one by one:\n%s", log)
	}
}
