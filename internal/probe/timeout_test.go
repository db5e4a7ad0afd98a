package probe

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestWithTimeout(t *testing.T) {
	v, err := withTimeout(time.Minute, func() (int, error) { return 7, nil })
	if v != 7 || err != nil {
		t.Errorf("answered probe = %d, %v", v, err)
	}
	boom := errors.New("boom")
	if _, err := withTimeout(time.Minute, func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("error not passed through: %v", err)
	}
	// A probe that never answers is abandoned with a timeout error.
	block := make(chan struct{})
	defer close(block)
	v, err = withTimeout(10*time.Millisecond, func() (int, error) { <-block; return 1, nil })
	if err == nil || v != 0 || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("blocked probe = %d, %v; want a timeout error", v, err)
	}
}
