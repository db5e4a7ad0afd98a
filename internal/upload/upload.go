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

	"github.com/iomark/iomark/internal/record"
)

// MaxRecordBytes is the largest record a results server accepts (server.MaxBodyBytes; the
// server's tests check the two agree).
const MaxRecordBytes = 1 << 20

// Submit uploads one result record (JSON as `iomark run --json` prints it) to the results server
// at serverURL and returns the stored result's id and permalink. What is private is removed
// first (record.ScrubJSON): hostnames, local paths, mount points and sources, user names and
// addresses in mount options, a network copy's peer. Uploading a record the server already
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
	// A server without a public base URL answers a path: it is on the server posted to.
	link, err := u.Parse(ok.URL)
	if err != nil {
		return "", "", fmt.Errorf("submit: %s answered a permalink %q that is not a URL", endpoint, ok.URL)
	}
	return ok.ID, link.String(), nil
}

// stripPrivate removes what record.PrivateFields lists, private mount options and every
// hostname, keeping the rest as written.
func stripPrivate(rec []byte) ([]byte, error) {
	out, _, err := record.ScrubJSON(rec)
	return out, err
}
