package cli

import (
	"context"
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

// submit keeps the deletion token with the local run, and submit --delete takes the result off
// the server with it; a wrong --token is refused and deletes nothing.
func TestSubmitDelete(t *testing.T) {
	ctx := context.Background()
	local := "sqlite:" + filepath.Join(t.TempDir(), "local.db")
	st, err := store.Open(ctx, local)
	if err != nil {
		t.Fatal(err)
	}
	// Placeholder figures for a CLI test, not a measurement.
	run := &record.Run{SchemaVersion: record.SchemaVersion, ID: "0198a7c2-0000-7000-8000-00000000de1e",
		CreatedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), ToolVersion: "test", Profile: "quick",
		Target: record.Target{Path: "/home/alice/bench", Kind: "dir"},
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
	remoteDSN := "sqlite:" + filepath.Join(t.TempDir(), "server.db")
	remote, err := store.Open(ctx, remoteDSN)
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
