package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// TestServeAndSubmitEndToEnd runs `iomark serve` on a fresh database, uploads a record file with
// `iomark submit`, and finds the result in search and on its drive page; the published results
// are there from the start.
func TestServeAndSubmitEndToEnd(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	cmd := &cobra.Command{}
	cmd.SetErr(pw)
	done := make(chan error, 1)
	db := "sqlite:" + filepath.Join(t.TempDir(), "server.db")
	go func() { done <- serve(ctx, cmd, db, "127.0.0.1:0", "", 256<<20, 30, nil); pw.Close() }()
	lines := bufio.NewScanner(pr)
	base, warned := "", false
	for lines.Scan() {
		warned = warned || strings.Contains(lines.Text(), "--base-url is not set")
		if _, after, ok := strings.Cut(lines.Text(), "serving results on "); ok {
			base, _, _ = strings.Cut(after, " ")
			break
		}
	}
	if base == "" {
		t.Fatalf("serve did not say where it listens: %v", <-done)
	}
	if !warned {
		t.Error("serve without --base-url did not warn that permalinks name the listening address")
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	// Placeholder figures for a CLI test, not a measurement.
	run := &record.Run{SchemaVersion: record.SchemaVersion, ID: "0198a7c2-0000-7000-8000-0000000000e2",
		CreatedAt: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), ToolVersion: "test", Profile: "quick",
		Host:   &probe.Board{Model: "Raspberry Pi 5 Model B Rev 1.0"},
		Device: &probe.Device{Class: probe.ClassNVMe, Model: "WD Blue SN580 1TB"}, NVMe: &probe.NVMe{Model: "WD Blue SN580 1TB"},
		Link:  []probe.Hop{{Bus: "pcie", SpeedMbps: 8000}},
		Tests: []record.Test{{Name: "seq-read-1m", Op: "read", BS: 1 << 20, QD: 1, Jobs: 1, MBPerS: 800, Primary: "mb_per_s", Runs: 1}}}
	raw, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "submit", file, "--server", base)
	if code != 0 || strings.TrimSpace(out) != base+"/result/"+run.ID {
		t.Fatalf("submit: exit %d, out %q, err %q", code, out, errOut)
	}

	var search struct {
		Results []struct{ ID, Source string } `json:"results"`
		Drives  []struct {
			URL string `json:"url"`
		} `json:"drives"`
	}
	getJSON(t, base+"/api/v1/search?q=sn580&source=submitted", &search) // published rows name the SN580 too
	if len(search.Results) != 1 || search.Results[0].ID != run.ID || len(search.Drives) != 1 {
		t.Fatalf("search after submit: %+v", search)
	}
	var drive struct {
		Results int `json:"results"`
	}
	getJSON(t, base+"/api/v1"+search.Drives[0].URL, &drive)
	if drive.Results != 1 {
		t.Errorf("drive page lists %d results, want 1", drive.Results)
	}
	getJSON(t, base+"/api/v1/search?source=published&per_page=1&q="+url.QueryEscape(""), &search)
	if len(search.Results) != 1 || search.Results[0].Source != "published" {
		t.Errorf("a fresh server shows no published results: %+v", search)
	}

	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve after stop: %v", err)
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}
