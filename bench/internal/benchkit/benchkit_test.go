package benchkit

import (
	"context"
	"strings"
	"testing"
)

func TestFirstLine(t *testing.T) {
	if got := FirstLine([]byte("\n  fio-3.33\nmore\n")); got != "fio-3.33" {
		t.Errorf("FirstLine = %q", got)
	}
}

func TestReadMachine(t *testing.T) {
	m := ReadMachine()
	if m.Cores < 1 || m.Kernel == "" || !strings.HasSuffix(m.Date, "UTC") {
		t.Errorf("machine facts %+v", m)
	}
	if LoadAvg() == "" {
		t.Error("no load average from /proc/loadavg")
	}
}

func TestPrepareIomarkRefusesAMissingBinary(t *testing.T) {
	if _, err := PrepareIomark(context.Background(), "/nonexistent/iomark", "x-", t.Logf); err == nil || !strings.Contains(err.Error(), "no such binary") {
		t.Errorf("err = %v", err)
	}
}
