package server

import (
	"net/http"
	"strings"
	"testing"
)

func deleteWith(t *testing.T, ts *testServer, id, auth string) int {
	t.Helper()
	req, _ := http.NewRequest("DELETE", ts.URL+"/api/v1/results/"+id, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, _ := roundTrip(t, req)
	return resp.StatusCode
}

// A new upload's answer carries a deletion token, a duplicate's none; the token, and only it,
// takes the result off every page and list.
func testDeletion(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1})
	rec := sampleRecord("to-delete", "Kingston", "Canvas Go", "Raspberry Pi 4 Model B Rev 1.4", 40)
	code, out := ts.post(t, encode(t, rec))
	token, _ := out["delete_token"].(string)
	if code != 201 || len(token) != 64 {
		t.Fatalf("upload: %d %v, want 201 with a delete_token", code, out)
	}
	if code, out := ts.post(t, encode(t, rec)); code != 200 || out["delete_token"] != nil {
		t.Errorf("a duplicate upload: %d %v, want 200 without a token", code, out)
	}
	if _, body := ts.get(t, "/api/v1/search?q=kingston"); !strings.Contains(body, "to-delete") {
		t.Fatalf("the upload is not listed: %s", body)
	}
	if c := deleteWith(t, ts, "to-delete", ""); c != 401 {
		t.Errorf("no token: %d, want 401", c)
	}
	if c := deleteWith(t, ts, "to-delete", "Bearer "+strings.Repeat("0", 64)); c != 403 {
		t.Errorf("a wrong token: %d, want 403", c)
	}
	if c := deleteWith(t, ts, "nope", "Bearer "+token); c != 404 {
		t.Errorf("an unknown id: %d, want 404", c)
	}
	if c := deleteWith(t, ts, "to-delete", "Bearer "+token); c != 200 {
		t.Fatalf("the right token: %d, want 200", c)
	}
	if c := deleteWith(t, ts, "to-delete", "Bearer "+token); c != 200 {
		t.Errorf("deleting again: %d, want 200", c)
	}
	for _, path := range []string{"/result/to-delete", "/api/v1/results/to-delete", "/api/v1/results/to-delete/raw"} {
		if c, _ := ts.get(t, path); c != http.StatusGone {
			t.Errorf("%s after the deletion: %d, want 410", path, c)
		}
	}
	for _, path := range []string{"/api/v1/search?q=kingston", "/api/v1/home", "/search?q=kingston", "/"} {
		if _, body := ts.get(t, path); strings.Contains(body, "to-delete") {
			t.Errorf("%s still lists the deleted result", path)
		}
	}
}
