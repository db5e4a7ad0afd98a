package cli

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/server"
	"github.com/iomark/iomark/internal/store"
)

// testServer is a results server on a fresh SQLite database, for one test.
type testServer struct {
	st  *store.Store
	dsn string // the database's, for commands the operator runs on it
	URL string
}

// startServer serves a fresh results site on a temporary SQLite database until the test ends.
func startServer(t *testing.T) *testServer {
	t.Helper()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "server.db")
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(st, server.Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return &testServer{st: st, dsn: dsn, URL: ts.URL}
}

// savedNVMeRun saves a run of an NVMe drive, with id and target, in a new local database and
// returns the database's DSN and the run.
func savedNVMeRun(t *testing.T, id string, target record.Target) (string, *record.Run) {
	t.Helper()
	local := "sqlite:" + filepath.Join(t.TempDir(), "local.db")
	// Placeholder figures for a CLI test, not a measurement.
	run := &record.Run{SchemaVersion: record.SchemaVersion, ID: id,
		CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), ToolVersion: "test", Profile: "quick", Target: target,
		Device: &probe.Device{Class: probe.ClassNVMe, Model: "Test NVMe"}, NVMe: &probe.NVMe{Model: "Test NVMe"},
		Tests: []record.Test{{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, MBPerS: 400, Primary: "mb_per_s", Runs: 1}}}
	saveRecords(t, local, run)
	return local, run
}

func TestSubmitUploadsASavedRun(t *testing.T) {
	ctx := context.Background()
	local, run := savedNVMeRun(t, "0198a7c2-0000-7000-8000-000000000001", record.Target{})
	ts := startServer(t)

	code, out, errOut := runCLI(t, "submit", run.ID, "--server", ts.URL, "--db", local)
	if code != 0 || strings.TrimSpace(out) != ts.URL+"/result/"+run.ID {
		t.Fatalf("submit: exit %d, out %q, err %q", code, out, errOut)
	}
	if _, _, err := ts.st.GetRun(ctx, run.ID); err != nil {
		t.Errorf("the server does not hold the run: %v", err)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"submit", run.ID, "--db", local}, exitUsage, "--server"},
		{[]string{"submit", "no-such-run", "--server", ts.URL, "--db", local}, exitFailure, "iomark history"},
		{[]string{"submit", run.ID, "--server", "ftp://x", "--db", local}, exitFailure, "not a server URL"},
		{[]string{"serve", "--addr", "nonsense"}, exitUsage, "HOST:PORT"},
	} {
		code, _, errOut := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d (%q), want %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}

// TestSubmitTakesEveryIDFormShowTakes: submit finds a run the way show does — full id, the
// same in capitals, the short id history prints, "latest", and no RUN at all (the latest) —
// and uploads that run.
func TestSubmitTakesEveryIDFormShowTakes(t *testing.T) {
	ctx := context.Background()
	db, runs := savedRuns(t)
	latest, older := runs[1], runs[0]
	for _, tt := range []struct {
		args []string
		want *record.Run
	}{
		{[]string{older.ID}, older},
		{[]string{strings.ToUpper(older.ID)}, older},
		{[]string{runstore.ShortID(older.ID)}, older},
		{[]string{"latest"}, latest},
		{nil, latest},
	} {
		ts := startServer(t)
		show := append([]string{"show", "--db", db, "--json"}, tt.args...)
		code, out, errOut := runCLI(t, show...)
		var shown record.Run
		if code != 0 || json.Unmarshal([]byte(out), &shown) != nil || shown.ID != tt.want.ID {
			t.Errorf("show %v: exit %d, id %q: %s", tt.args, code, shown.ID, errOut)
		}
		submit := append([]string{"submit", "--server", ts.URL, "--db", db}, tt.args...)
		code, out, errOut = runCLI(t, submit...)
		if code != 0 || strings.TrimSpace(out) != ts.URL+"/result/"+tt.want.ID {
			t.Errorf("submit %v: exit %d, out %q, err %q", tt.args, code, out, errOut)
		} else if _, _, err := ts.st.GetRun(ctx, tt.want.ID); err != nil {
			t.Errorf("submit %v: the server does not hold run %s: %v", tt.args, tt.want.ID, err)
		}
	}
}

// submit keeps the deletion token with the local run, and submit --delete takes the result off
// the server with it; a wrong --token is refused and deletes nothing.
func TestSubmitDelete(t *testing.T) {
	ctx := context.Background()
	local, run := savedNVMeRun(t, "0198a7c2-0000-7000-8000-00000000de1e", record.Target{Path: "/home/alice/bench", Kind: "dir"})
	ts := startServer(t)
	remote, remoteDSN := ts.st, ts.dsn

	code, _, errOut := runCLI(t, "submit", run.ID, "--server", ts.URL, "--db", local)
	if code != 0 || !strings.Contains(errOut, "submit --delete "+run.ID) {
		t.Fatalf("submit: exit %d, err %q", code, errOut)
	}
	stored, _, err := remote.GetRun(ctx, run.ID)
	if err != nil || strings.Contains(string(stored.Record), "alice") {
		t.Fatalf("the server holds %s (%v): the local path was sent", stored.Record, err)
	}
	code, _, errOut = runCLI(t, "submit", "--delete", run.ID, "--server", ts.URL+"/", "--token", strings.Repeat("0", 64), "--db", local)
	if code != exitFailure || !strings.Contains(errOut, "403") {
		t.Errorf("a wrong token: exit %d, err %q", code, errOut)
	}
	if got, _, _ := remote.GetRun(ctx, run.ID); got.Moderation != "" {
		t.Errorf("a wrong token changed the result: moderation %q", got.Moderation)
	}
	code, out, errOut := runCLI(t, "submit", "--delete", run.ID, "--server", ts.URL+"/", "--db", local)
	if code != 0 || !strings.Contains(out, "deleted "+run.ID) {
		t.Fatalf("submit --delete: exit %d, out %q, err %q", code, out, errOut)
	}
	if got, _, _ := remote.GetRun(ctx, run.ID); got.Moderation != store.ModerationHidden {
		t.Errorf("after --delete the result's moderation is %q, want hidden", got.Moderation)
	}
	// The operator's review lists it as deleted.
	if code, out, errOut := runCLI(t, "moderate", "flagged", "--db", remoteDSN); code != 0 || !strings.Contains(out, "deleted by its uploader") {
		t.Errorf("moderate flagged: exit %d, out %q, err %q", code, out, errOut)
	}
	if code, out, _ := runCLI(t, "moderate", "flagged", "--json", "--db", remoteDSN); code != 0 || !strings.Contains(out, `"deleted_at"`) {
		t.Errorf("moderate flagged --json: exit %d, out %q", code, out)
	}
	code, _, errOut = runCLI(t, "submit", "--delete", "unknown-result", "--server", ts.URL, "--db", local)
	if code != exitFailure || !strings.Contains(errOut, "--token") {
		t.Errorf("no kept token: exit %d, err %q", code, errOut)
	}
}
