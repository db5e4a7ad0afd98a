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

func TestSubmitUploadsASavedRun(t *testing.T) {
	ctx := context.Background()
	local := "sqlite:" + filepath.Join(t.TempDir(), "local.db")
	st, err := store.Open(ctx, local)
	if err != nil {
		t.Fatal(err)
	}
	// Placeholder figures for a CLI test, not a measurement.
	run := &record.Run{SchemaVersion: record.SchemaVersion, ID: "0198a7c2-0000-7000-8000-000000000001",
		CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), ToolVersion: "test", Profile: "quick",
		Device: &probe.Device{Class: probe.ClassNVMe, Model: "Test NVMe"}, NVMe: &probe.NVMe{Model: "Test NVMe"},
		Tests: []record.Test{{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, MBPerS: 400, Primary: "mb_per_s", Runs: 1}}}
	row, tests, err := runstore.Row(run, store.SourceLocal)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveRun(ctx, row, tests); err != nil {
		t.Fatal(err)
	}
	st.Close()

	remote, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "server.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	srv, err := server.New(remote, server.Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	code, out, errOut := runCLI(t, "submit", run.ID, "--server", ts.URL, "--db", local)
	if code != 0 || strings.TrimSpace(out) != ts.URL+"/result/"+run.ID {
		t.Fatalf("submit: exit %d, out %q, err %q", code, out, errOut)
	}
	if _, _, err := remote.GetRun(ctx, run.ID); err != nil {
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
		remote, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "server.db"))
		if err != nil {
			t.Fatal(err)
		}
		srv, err := server.New(remote, server.Options{SubmitPerS: -1, RequestPerS: -1})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
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
		} else if _, _, err := remote.GetRun(ctx, tt.want.ID); err != nil {
			t.Errorf("submit %v: the server does not hold run %s: %v", tt.args, tt.want.ID, err)
		}
		ts.Close()
		remote.Close()
	}
}
