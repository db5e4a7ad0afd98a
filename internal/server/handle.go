package server

import (
	"errors"
	"fmt"
	"net/http"
)

// userError is a 4xx answer with a message for the user.
type userError struct {
	code int
	msg  string
}

func (e *userError) Error() string { return e.msg }

func badInput(err error) error  { return &userError{http.StatusBadRequest, err.Error()} }
func notFound(msg string) error { return &userError{http.StatusNotFound, msg} }

// gone answers for a result the operator hid: it existed, and is not shown.
func gone(id string) error {
	return &userError{http.StatusGone, "result " + id + " was taken down, by its uploader or the site's operator"}
}

// builder makes the data of one page from its request; the HTML and JSON handlers share it.
type builder func(r *http.Request) (any, error)

// asPage is the HTML handler of a page: the data build makes, shown by v.
func (s *Server) asPage(v page, build builder) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := build(r)
		if s.answerErr(w, r, err) {
			return
		}
		c, ok := v(data)
		if !ok {
			s.internal(w, r, fmt.Errorf("server: the page of %s has no view for %T", r.URL.Path, data))
			return
		}
		render(w, http.StatusOK, c)
	}
}

// asAPI is the JSON handler of a page: the same data build makes, as /api/v1 sends it.
func (s *Server) asAPI(build builder) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := build(r)
		if s.answerErr(w, r, err) {
			return
		}
		writeJSON(w, http.StatusOK, data)
	}
}

func (s *Server) answerErr(w http.ResponseWriter, r *http.Request, err error) bool {
	if err == nil {
		return false
	}
	var ue *userError
	if errors.As(err, &ue) {
		s.fail(w, r, ue.code, ue.msg)
	} else {
		s.internal(w, r, err)
	}
	return true
}
