package server

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// The server's behaviour under slow clients, outages, proxies and privacy, on both back ends.
func TestHoldSQLite(t *testing.T) { runHoldSuite(t, sqliteDSN) }

func TestHoldPostgres(t *testing.T) { runHoldSuite(t, postgresDSN(t)) }

func runHoldSuite(t *testing.T, dsn newDSN) {
	runOnDatabases(t, dsn, []databaseTest{
		{"PrivateDropped", testPrivateDropped},
		{"SlowBodies", testSlowBodies},
		{"BodyMemory", testBodyMemory},
		{"HealthzNotLimited", testHealthzNotLimited},
		{"TrustedProxy", testTrustedProxy},
		{"Deletion", testDeletion},
	})
}

// A raw upload carrying local paths, a mount's source and user names in its options and a
// network copy's peer is stored without any of them: the page, the API and the
// raw view show none.
func testPrivateDropped(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1})
	rec := sampleRecord("private-1", "SanDisk", "SN64G", "Raspberry Pi 4 Model B Rev 1.4", 40)
	rec.Target = record.Target{Path: "/home/alice/bench", Kind: "dir"}
	rec.Mount = &probe.Mount{MountPoint: "/media/alice/CARD", FSType: "cifs", Source: "//nas.lan/alice",
		Options: "rw,noatime,username=alice,uid=1000,addr=192.0.2.7", SuperOptions: "rw,user=alice"}
	rec.Tests[0].Network = &record.Network{Peer: "192.0.2.9", ReceivedBytes: 1 << 30, MBPerS: 11}
	rec.Findings = append(rec.Findings, record.Finding{ID: "mount-sync", Severity: record.SeverityWarn,
		Message: "/media/alice/CARD is mounted with sync", Fix: "remove sync from /media/alice/CARD"})
	body := strings.Replace(string(encode(t, rec)), `"host":{`, `"host":{"hostname":"alices-pi",`, 1)
	if !strings.Contains(body, "alices-pi") {
		t.Fatal("the test record has no hostname")
	}
	// The upload schema knows no hostname field: such a record is refused, not stored.
	if code, out := ts.post(t, []byte(body)); code != 400 || out["field"] != "host.hostname" {
		t.Fatalf("upload with a hostname: %d %v, want 400 naming host.hostname", code, out)
	}
	if code, _ := ts.get(t, "/api/v1/results/private-1/raw"); code != 404 {
		t.Fatalf("the refused record was stored: %d", code)
	}
	if code, out := ts.post(t, encode(t, rec)); code != 201 {
		t.Fatalf("upload: %d %v", code, out)
	}
	for _, path := range []string{"/result/private-1", "/api/v1/results/private-1", "/api/v1/results/private-1/raw", "/result/private-1/raw"} {
		code, page := ts.get(t, path)
		if code != 200 {
			t.Fatalf("%s: %d", path, code)
		}
		for _, gone := range []string{"alice", "nas.lan", "192.0.2.7", "192.0.2.9", "uid=1000"} {
			if strings.Contains(page, gone) {
				t.Errorf("%s shows %q", path, gone)
			}
		}
		if strings.HasSuffix(path, "/raw") && (!strings.Contains(page, `"options":"rw,noatime"`) || !strings.Contains(page, `"fstype":"cifs"`)) {
			t.Errorf("%s lost what is published: %s", path, page)
		}
	}
}

// /healthz answers whatever the request limit: a monitor asking often is never refused.
func testHealthzNotLimited(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: 0.001, RequestBurst: 1})
	for i := range 20 {
		var h Health
		if c := ts.getJSON(t, "/healthz", &h); c != 200 || h.Status != "ok" || h.Database != "up" || h.Backend == "" {
			t.Fatalf("/healthz %d: %d %+v", i, c, h)
		}
	}
	ts.get(t, "/api/v1/home")
	if c, _ := ts.get(t, "/api/v1/home"); c != 429 {
		t.Errorf("the request limit did not apply to other paths: %d", c)
	}
}
