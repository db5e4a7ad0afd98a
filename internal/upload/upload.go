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
	a, err := Send(ctx, serverURL, rec)
	return a.ID, a.URL, err
}

// Answer is what the server said of an upload.
type Answer struct {
	ID, URL string // URL: the permalink, absolute
	// DeleteToken deletes the result (Delete); only a new upload's answer has one, and only its
	// uploader ever receives it: keep it.
	DeleteToken string
	Duplicate   bool
}

// Send is Submit, returning the server's whole answer.
func Send(ctx context.Context, serverURL string, rec []byte) (Answer, error) {
	id, permalink, token, dup, err := send(ctx, serverURL, rec)
	return Answer{ID: id, URL: permalink, DeleteToken: token, Duplicate: dup}, err
}

// ServerKey is how a server URL is written where deletion tokens are kept: without a trailing
// slash.
func ServerKey(serverURL string) string { return strings.TrimRight(serverURL, "/") }

func parseServer(serverURL string) (*url.URL, error) {
	u, err := url.Parse(ServerKey(serverURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not a server URL: give http(s)://host[:port]", serverURL)
	}
	return u, nil
}

// Delete deletes result id from the server with the token its upload was answered with.
func Delete(ctx context.Context, serverURL, id, token string) error {
	u, err := parseServer(serverURL)
	if err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	endpoint := u.String() + "/api/v1/results/" + url.PathEscape(id)
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, endpoint, nil)
	if err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return fmt.Errorf("delete: reaching %s: %w; check the URL and that the server is up", endpoint, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("delete: the server refused (%s): %s", resp.Status, errorText(answer))
	}
	return nil
}

// errorText is the error of a JSON error body, else the body, shortened.
func errorText(answer []byte) string {
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
	return msg
}

func send(ctx context.Context, serverURL string, rec []byte) (id, permalink, token string, dup bool, err error) {
	u, err := parseServer(serverURL)
	if err != nil {
		return "", "", "", false, fmt.Errorf("submit: %w", err)
	}
	body, err := stripPrivate(rec)
	if err != nil {
		return "", "", "", false, fmt.Errorf("submit: %w", err)
	}
	if len(body) > MaxRecordBytes {
		return "", "", "", false, fmt.Errorf("submit: the record is %d bytes, above the server's 1 MiB limit", len(body))
	}
	endpoint := u.String() + "/api/v1/results"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return "", "", "", false, fmt.Errorf("submit: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Timeout: 60 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return "", "", "", false, fmt.Errorf("submit: uploading to %s: %w; check the URL and that the server is up", endpoint, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return "", "", "", false, fmt.Errorf("submit: the server refused the record (%s): %s", resp.Status, errorText(answer))
	}
	var ok struct {
		ID          string `json:"id"`
		URL         string `json:"url"`
		DeleteToken string `json:"delete_token"`
		Duplicate   bool   `json:"duplicate"`
	}
	if err := json.Unmarshal(answer, &ok); err != nil || ok.ID == "" || ok.URL == "" {
		return "", "", "", false, fmt.Errorf("submit: %s answered %s without an id and url: is it an iomark server?", endpoint, resp.Status)
	}
	// A server without a public base URL answers a path: it is on the server posted to.
	link, err := u.Parse(ok.URL)
	if err != nil {
		return "", "", "", false, fmt.Errorf("submit: %s answered a permalink %q that is not a URL", endpoint, ok.URL)
	}
	return ok.ID, link.String(), ok.DeleteToken, ok.Duplicate, nil
}

// stripPrivate removes what record.PrivateFields lists, private mount options and every
// hostname, keeping the rest as written.
func stripPrivate(rec []byte) ([]byte, error) {
	out, _, err := record.ScrubJSON(rec)
	return out, err
}
