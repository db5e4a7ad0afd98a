package pg

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder stands in for *testing.T to watch what Start does without PostgreSQL: Skip, Skipf
// and Fatalf end the goroutine, as the real ones do.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()        {}
func (r *recorder) Cleanup(func()) {}
func (r *recorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func startWithout(t *testing.T, ci string) *recorder {
	t.Helper()
	old := binGlob
	binGlob = "/nonexistent/postgresql/*/bin"
	t.Cleanup(func() { binGlob = old })
	t.Setenv("CI", ci)
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Start(r)
	}()
	<-done
	return r
}

func TestStartWithoutPostgreSQL(t *testing.T) {
	r := startWithout(t, "")
	if r.failed != "" || !strings.Contains(r.skipped, "apt-get install postgresql") {
		t.Errorf("without CI: skipped %q, failed %q; want a skip naming the package", r.skipped, r.failed)
	}
	r = startWithout(t, "true")
	if r.skipped != "" || !strings.Contains(r.failed, "CI must run this test") {
		t.Errorf("with CI set: skipped %q, failed %q; want a failure", r.skipped, r.failed)
	}
}
