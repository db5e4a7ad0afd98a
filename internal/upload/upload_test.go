package upload

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestStripPrivate(t *testing.T) {
	in := `{"id":"r1","hostname":"box","host":{"model":"Pi","HostName":"box"},"tests":[{"name":"a","host_name":"box","iops":1e3,"network":{"peer":"10.1.2.3"}}],` +
		`"target":{"path":"/home/alice/bench","kind":"dir"},"mount":{"mount_point":"/media/alice/CARD","source":"/dev/sdz1","options":"rw,uid=1000","fstype":"ext4"}}`
	out, err := stripPrivate([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, gone := range []string{"box", "alice", "10.1.2.3", "sdz1", "uid="} {
		if strings.Contains(s, gone) {
			t.Errorf("%q still sent: %s", gone, s)
		}
	}
	for _, kept := range []string{`"kind":"dir"`, `"fstype":"ext4"`, `"iops":1e3`, `"model":"Pi"`} {
		if !strings.Contains(s, kept) {
			t.Errorf("%s lost: %s", kept, s)
		}
	}
	for _, bad := range []string{"", "[1]", "{", `"x"`} {
		if _, err := stripPrivate([]byte(bad)); err == nil {
			t.Errorf("%q accepted as a record", bad)
		}
	}
}

// fakeServer answers uploads as the results server does: 201 with id and url, or a JSON error.
func fakeServer(t *testing.T, status int, answer string, got *[]byte) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/v1/results" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "wrong request", http.StatusBadRequest)
			return
		}
		if got != nil {
			*got, _ = io.ReadAll(r.Body)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestSubmit(t *testing.T) {
	ctx := context.Background()
	var sent []byte
	u := fakeServer(t, http.StatusCreated, `{"id":"r1","url":"https://results.example/result/r1"}`, &sent)
	id, link, err := Submit(ctx, u+"/", []byte(`{"id":"r1","hostname":"box"}`))
	if err != nil || id != "r1" || link != "https://results.example/result/r1" {
		t.Fatalf("Submit = %q %q %v", id, link, err)
	}
	var m map[string]any
	if json.Unmarshal(sent, &m) != nil || m["hostname"] != nil || m["id"] != "r1" {
		t.Errorf("sent %s", sent)
	}

	refused := fakeServer(t, http.StatusBadRequest, `{"error":"tests[0].iops: out of range","field":"tests[0].iops"}`, nil)
	if _, _, err := Submit(ctx, refused, []byte(`{"id":"r1"}`)); err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("refused upload: err = %v", err)
	}
	notIomark := fakeServer(t, http.StatusOK, `<html>hello</html>`, nil)
	if _, _, err := Submit(ctx, notIomark, []byte(`{"id":"r1"}`)); err == nil || !strings.Contains(err.Error(), "iomark server") {
		t.Errorf("a server that is not iomark: err = %v", err)
	}
	for _, bad := range []string{"ftp://x", "results.example", "http://"} {
		if _, _, err := Submit(ctx, bad, []byte(`{"id":"r1"}`)); err == nil || !strings.Contains(err.Error(), "not a server URL") {
			t.Errorf("URL %q: err = %v", bad, err)
		}
	}
	huge := `{"id":"r1","pad":"` + strings.Repeat("x", MaxRecordBytes) + `"}`
	if _, _, err := Submit(ctx, u, []byte(huge)); err == nil || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("a record over the limit: err = %v", err)
	}
}
