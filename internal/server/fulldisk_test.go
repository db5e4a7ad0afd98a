package server

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/testkit"
)

// A full disk answers uploads 503 with Retry-After, as JSON, and what was stored stays served.
// The disk is a small tmpfs the test mounts (SQLite's file, or a PostgreSQL tablespace holding
// the runs), so it needs root.
func testDiskFull(t *testing.T, dsn string) {
	postgres := strings.HasPrefix(dsn, "postgres")
	size, owner := int64(2<<20), ""
	if postgres {
		size, owner = 4<<20, "postgres"
	}
	dir := testkit.SmallDisk(t, size, owner)
	if !postgres {
		dsn = "sqlite:" + filepath.Join(dir, "results.db")
	}
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1})
	if postgres {
		admin, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		space := fmt.Sprintf("full_%d", os.Getpid())
		for _, q := range []string{`CREATE TABLESPACE ` + space + ` LOCATION '` + dir + `'`,
			`ALTER TABLE runs SET TABLESPACE ` + space, `ALTER TABLE tests SET TABLESPACE ` + space} {
			if _, err := admin.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		t.Cleanup(func() {
			ts.st.Close()
			for _, table := range []string{"tests", "run_counts", "runs"} {
				admin.Exec(`DROP TABLE ` + table)
			}
			admin.Exec(`DROP TABLESPACE ` + space)
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	stored := 0
	for i := range 200 {
		r := sampleRecord(fmt.Sprintf("full-%03d", i), "A", "B", "Pi", 20)
		for j := range 12000 { // about 0.8 MB of JSON that compresses poorly
			r.Tests[0].Series = append(r.Tests[0].Series, engine.Point{TS: float64(j), MBPerS: rng.Float64() * 40, IOPS: rng.Float64() * 40})
		}
		resp, err := http.Post(ts.URL+"/api/v1/results", "application/json", strings.NewReader(string(encode(t, r))))
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode == http.StatusCreated {
			stored++
			continue
		}
		if !retryLater(resp) || !strings.Contains(e.Error, "disk is full") {
			t.Fatalf("upload %d on a filling disk: %d Retry-After %q %q; want 201 or 503 with Retry-After", i, resp.StatusCode, resp.Header.Get("Retry-After"), e.Error)
		}
		if stored == 0 {
			t.Fatal("the disk was full before the first upload: make it larger")
		}
		if c, _ := ts.get(t, "/api/v1/results/full-000"); c != 200 {
			t.Errorf("a result stored before the disk filled: %d", c)
		}
		return
	}
	t.Fatalf("%d uploads fitted on a %d-byte disk", stored, size)
}
