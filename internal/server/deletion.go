package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// Taking a result back. Each new upload's answer carries a deletion token (32 random bytes, hex),
// which only its uploader receives: the store keeps its SHA-256, and a duplicate upload (anyone
// can copy a published record) gets none. DELETE /api/v1/results/{id} with "Authorization:
// Bearer TOKEN" hides the result from every page, list and ranking at once; the operator's
// review (iomark moderate flagged) lists it as deleted by its uploader.

// Deleted is the answer to a deletion.
type Deleted struct {
	ID        string    `json:"id"`
	Deleted   bool      `json:"deleted"`
	DeletedAt time.Time `json:"deleted_at"`
}

// newDeleteToken returns a token and the hash the store keeps.
func newDeleteToken() (token, sha string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = hex.EncodeToString(b)
	return token, tokenSHA256(token), nil
}

func tokenSHA256(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func (s *Server) deleteAPI(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	auth := r.Header.Get("Authorization")
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || strings.TrimSpace(token) == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="iomark"`)
		s.fail(w, r, http.StatusUnauthorized, "give the deletion token the upload was answered with: Authorization: Bearer TOKEN (iomark submit --delete ID finds it)")
		return
	}
	at, err := s.st.DeleteByToken(r.Context(), id, tokenSHA256(strings.TrimSpace(token)))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, "no result has id "+id)
	case errors.Is(err, store.ErrBadToken):
		s.fail(w, r, http.StatusForbidden, "that token does not delete result "+id+": only the token its upload was answered with does")
	case err != nil:
		s.internal(w, r, err)
	default:
		s.cache.clear()
		s.searches.clear()
		writeJSON(w, http.StatusOK, Deleted{ID: id, Deleted: true, DeletedAt: at})
	}
}
