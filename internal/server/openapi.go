package server

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes every /api/v1 route; a test checks the two match.
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPIDoc)
}
