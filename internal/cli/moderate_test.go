package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// iomark moderate lists the runs a server doubts, hides, unhides and approves one by id.
func TestModerate(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "server.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	for i, flags := range []string{"", `[{"id":"above-ceiling","test":"seq-read-1m","message":"990000 MB/s"}]`} {
		id := []string{"ok-run", "doubted-run"}[i]
		r := store.Run{ID: id, CreatedAt: at.Add(time.Duration(i) * time.Hour), Profile: "quick", Source: store.SourceSubmitted,
			DeviceClass: "microsd", Vendor: "Brand", Model: "Card", Board: "Pi", Record: []byte(`{"id":"` + id + `"}`), Flags: []byte(flags)}
		if err := st.SaveRun(context.Background(), r, nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	code, out, errOut := runCLI(t, "moderate", "flagged", "--db", db)
	if code != 0 || !strings.Contains(out, "doubted-run") || !strings.Contains(out, "above-ceiling (seq-read-1m)") || strings.Contains(out, "ok-run") {
		t.Fatalf("flagged: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut = runCLI(t, "moderate", "hide", "ok-run", "--db", db); code != 0 || !strings.Contains(out, "not listed") {
		t.Fatalf("hide: exit %d %q %q", code, out, errOut)
	}
	if code, out, errOut = runCLI(t, "moderate", "approve", "doubted-run", "--db", db); code != 0 || !strings.Contains(out, "it is listed") {
		t.Fatalf("approve: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "moderate", "--db", db, "flagged", "--json") // --db before the subcommand too
	var rows []struct {
		ID         string          `json:"id"`
		Listed     bool            `json:"listed"`
		Moderation string          `json:"moderation"`
		Flags      json.RawMessage `json:"flags"`
	}
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 {
		t.Fatalf("flagged --json: exit %d, %v\n%s", code, err, out)
	}
	if rows[0].ID != "doubted-run" || !rows[0].Listed || rows[0].Moderation != "approved" || rows[1].ID != "ok-run" || rows[1].Listed || rows[1].Moderation != "hidden" {
		t.Errorf("after hide and approve: %+v", rows)
	}
	if code, out, _ = runCLI(t, "moderate", "unhide", "ok-run", "--db", db); code != 0 || !strings.Contains(out, "it is listed") {
		t.Errorf("unhide: exit %d %q", code, out)
	}
	if code, _, errOut = runCLI(t, "moderate", "hide", "no-such-run", "--db", db); code != exitFailure || !strings.Contains(errOut, "moderate flagged") {
		t.Errorf("hiding an unknown id: exit %d %q", code, errOut)
	}
	if code, _, _ = runCLI(t, "moderate", "hide", "--db", db); code != exitUsage {
		t.Errorf("hide without an id: exit %d, want %d", code, exitUsage)
	}
}
