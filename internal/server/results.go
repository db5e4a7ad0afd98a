package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
)

// submitted is the answer to an upload.
type submitted struct {
	ID        string `json:"id"`
	URL       string `json:"url"`
	Duplicate bool   `json:"duplicate,omitempty"`
	// Listed is false when the server doubts the record: stored, shown on its own page, but out
	// of every list and ranking (Flags say why).
	Listed bool   `json:"listed"`
	Flags  []Flag `json:"flags"`
	// DeleteToken lets the uploader delete the result (DELETE /api/v1/results/{id}); only a new
	// upload's answer has one.
	DeleteToken string `json:"delete_token,omitempty"`
}

// submitAPI stores one uploaded record: 201 when new, 200 with the same body when the same
// record was uploaded before (so a retry after a lost answer is harmless), 409 when another
// record holds its id. The answer is sent only after the transaction committed.
func (s *Server) submitAPI(w http.ResponseWriter, r *http.Request) {
	run, ip, ok := s.receiveUpload(w, r)
	if !ok {
		return
	}
	row, tests, doubted, err := s.judgedRow(r.Context(), run, ip)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	token, tokenHash, err := newDeleteToken()
	if err != nil {
		s.internal(w, r, err)
		return
	}
	row.DeleteTokenSHA256 = tokenHash
	out := submitted{ID: run.ID, URL: s.baseURL() + resultPath(run.ID), Listed: len(doubted) == 0,
		Flags: append(append([]Flag{}, doubted...), notes(run)...)}
	err = s.ingest.save(r.Context(), row, tests)
	switch {
	case errors.Is(err, errClosed):
		w.Header().Set("Retry-After", "5")
		s.fail(w, r, http.StatusServiceUnavailable, err.Error())
	case err == nil:
		out.DeleteToken = token
		writeJSON(w, http.StatusCreated, out)
	case errors.Is(err, store.ErrDuplicate):
		out.Duplicate = true
		writeJSON(w, http.StatusOK, out)
	case errors.Is(err, store.ErrConflict):
		s.fail(w, r, http.StatusConflict, "another result is already stored under id "+run.ID+"; a run id must be unique, so give this run a new one")
	case errors.Is(err, store.ErrInvalid):
		s.fail(w, r, http.StatusBadRequest, "the record has a field the database refuses (text that is not valid UTF-8, or a number out of range)")
	default: // a full disk is a 503 with Retry-After (internal)
		s.internal(w, r, err)
	}
}

// receiveUpload is the record an upload carries and the address it came from; when the upload
// is refused (not JSON, over the rate, too large, not a record) it has answered, and ok is false.
func (s *Server) receiveUpload(w http.ResponseWriter, r *http.Request) (run *record.Run, ip netip.Addr, ok bool) {
	// Only JSON: a form or text/plain body is what a web page can make its visitors' browsers
	// send to another site without asking; application/json it cannot.
	if mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" ||
		params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8") {
		s.fail(w, r, http.StatusUnsupportedMediaType, "send the record as Content-Type: application/json (UTF-8)")
		return nil, ip, false
	}
	ip = clientIP(r)
	wait, ok, err := s.allowUpload(r.Context(), ip)
	if err != nil {
		s.internal(w, r, err)
		return nil, ip, false
	}
	if !ok {
		w.Header().Set("Retry-After", itoa(wait))
		s.fail(w, r, http.StatusTooManyRequests, "too many uploads from your address; retry in "+itoa(wait)+" s")
		return nil, ip, false
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.fail(w, r, http.StatusRequestEntityTooLarge, "the record is larger than 1 MiB; iomark's records are far smaller, so this is not one")
			return nil, ip, false
		}
		s.fail(w, r, http.StatusBadRequest, "reading the request body failed")
		return nil, ip, false
	}
	run, err = decodeUpload(body)
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			s.failField(w, r, http.StatusBadRequest, fe.Error(), fe.Field)
			return nil, ip, false
		}
		s.internal(w, r, err)
		return nil, ip, false
	}
	return run, ip, true
}

// judgedRow is the stored form of an uploaded run with the server's verdict on it: doubted
// holds the flags that keep it out of the lists (none: it is listed).
func (s *Server) judgedRow(ctx context.Context, run *record.Run, ip netip.Addr) (row store.Run, tests []store.Test, doubted []Flag, err error) {
	// Stored as decoded: fields the schema does not know (a hostname, say) are dropped. Scores
	// are the server's, and so is the verdict on the figures (plausible.go).
	run.Scores = serverScores(run)
	doubted = append(doubts(run, store.SourceSubmitted, s.opts.now()), boardDoubts(run)...)
	if len(doubted) == 0 {
		if doubted, err = s.holds(ctx, run, ip.String()); err != nil {
			return row, nil, nil, err
		}
	}
	if row, tests, err = runstore.Row(run, store.SourceSubmitted); err != nil {
		return row, nil, nil, err
	}
	cleanColumns(&row, tests)
	if len(doubted) > 0 {
		if row.Flags, err = json.Marshal(doubted); err != nil {
			return row, nil, nil, err
		}
	}
	return row, tests, doubted, nil
}

func resultPath(id string) string { return "/result/" + url.PathEscape(id) }

// cleanColumns makes the columns extracted from a valid record storable on both databases,
// leaving the record as reported: a NUL (which JSON may carry and PostgreSQL refuses in text)
// becomes U+FFFD, so the name still has a working link, and the zero time (year 1, which the
// store takes for "no time") becomes the Unix epoch; such a run is doubted anyway
// (impossible-date).
func cleanColumns(row *store.Run, tests []store.Test) {
	for _, p := range []*string{&row.ToolVersion, &row.Profile, &row.Board, &row.BoardRevision, &row.Arch, &row.DeviceClass,
		&row.Vendor, &row.Model, &row.LinkBus, &row.DeviceKey} {
		*p = strings.ReplaceAll(*p, "\x00", "\uFFFD")
	}
	for i := range tests {
		tests[i].Op = strings.ReplaceAll(tests[i].Op, "\x00", "\uFFFD")
	}
	if row.CreatedAt.IsZero() {
		row.CreatedAt = time.Unix(0, 0).UTC()
	}
}

// resultRaw sends the stored record JSON byte for byte, as a download.
func (s *Server) resultRaw(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.getRun(w, r)
	if !ok {
		return
	}
	if run.Moderation == store.ModerationHidden {
		s.answerErr(w, r, gone(run.ID))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="iomark-`+safeFileName(run.ID)+`.json"`)
	_, _ = w.Write(run.Record)
}

// getRun reads the run the path's {id} names, answering 404 itself when there is none.
func (s *Server) getRun(w http.ResponseWriter, r *http.Request) (store.Run, []store.Test, bool) {
	id := r.PathValue("id")
	run, tests, err := s.st.GetRun(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, http.StatusNotFound, "no result has id "+id)
		return run, nil, false
	}
	if err != nil {
		s.internal(w, r, err)
		return run, nil, false
	}
	return run, tests, true
}

func safeFileName(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b)
}

// decodeStored reads a stored record back; published and uploaded records decode alike.
func decodeStored(raw json.RawMessage) (*record.Run, *Published) {
	rec, err := record.Decode(raw)
	if err != nil {
		return nil, nil
	}
	var extra struct {
		Published *Published `json:"published"`
	}
	_ = json.Unmarshal(raw, &extra)
	return rec, extra.Published
}
