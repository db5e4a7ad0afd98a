package upload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxRecordBytes is the largest record a results server accepts (server.MaxBodyBytes; the
// server's tests check the two agree).
const MaxRecordBytes = 1 << 20

// Submit uploads one result record (JSON as `iomark run --json` prints it) to the results server
// at serverURL and returns the stored result's id and permalink. Any key named "hostname" is
// removed first, at any depth: hostnames are never sent; nor are paths that may hold a user
// name (target.path, mount.mount_point). Uploading a record the server already
// holds succeeds with the same answer.
func Submit(ctx context.Context, serverURL string, rec []byte) (id, permalink string, err error) {
	u, err := url.Parse(strings.TrimRight(serverURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("submit: %q is not a server URL: give http(s)://host[:port]", serverURL)
	}
	body, err := stripPrivate(rec)
	if err != nil {
		return "", "", fmt.Errorf("submit: %w", err)
	}
	if len(body) > MaxRecordBytes {
		return "", "", fmt.Errorf("submit: the record is %d bytes, above the server's 1 MiB limit", len(body))
	}
	endpoint := u.String() + "/api/v1/results"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return "", "", fmt.Errorf("submit: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Timeout: 60 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return "", "", fmt.Errorf("submit: uploading to %s: %w; check the URL and that the server is up", endpoint, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(answer))
		if json.Unmarshal(answer, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return "", "", fmt.Errorf("submit: the server refused the record (%s): %s", resp.Status, msg)
	}
	var ok struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if err := json.Unmarshal(answer, &ok); err != nil || ok.ID == "" || ok.URL == "" {
		return "", "", fmt.Errorf("submit: %s answered %s without an id and url: is it an iomark server?", endpoint, resp.Status)
	}
	return ok.ID, ok.URL, nil
}

// stripPrivate removes every "hostname" key of a JSON object at any depth, and the paths of
// privatePaths, keeping the rest as a JSON value (numbers as written).
func stripPrivate(rec []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(rec))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the record is not JSON: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the record is not a JSON object")
	}
	strip(obj)
	for _, p := range privatePaths {
		if sub, ok := obj[p[0]].(map[string]any); ok {
			delete(sub, p[1])
		}
	}
	return json.Marshal(obj)
}

// privatePaths are keys of a record that can name the user (/home/alice, /media/alice/CARD).
var privatePaths = [][2]string{{"target", "path"}, {"mount", "mount_point"}}

func strip(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.EqualFold(k, "hostname") || strings.EqualFold(k, "host_name") {
				delete(x, k)
				continue
			}
			strip(e)
		}
	case []any:
		for _, e := range x {
			strip(e)
		}
	}
}
