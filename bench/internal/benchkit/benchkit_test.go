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

func TestNeedToolsNamesTheMissingOne(t *testing.T) {
	if err := NeedTools("apt-get install sh", "sh")(); err != nil {
		t.Errorf("sh: %v", err)
	}
	err := NeedTools("apt-get install nosuch", "sh", "nosuch-tool-xyz")()
	if err == nil || err.Error() != "nosuch-tool-xyz not found: apt-get install nosuch" {
		t.Errorf("err = %v", err)
	}
}

func TestHeader(t *testing.T) {
	var b strings.Builder
	Machine{Date: "2026-12-02 03:00 UTC", CPU: "cpu", Cores: 2, Kernel: "6.1"}.Header(&b, "iomark 1", "f3 8.0")
	if want := "#### 2026-12-02 03:00 UTC — iomark 1\n\ncpu, 2 cores, Linux 6.1; f3 8.0; load average "; !strings.HasPrefix(b.String(), want) || !strings.HasSuffix(b.String(), " at the start.\n\n") {
		t.Errorf("Header = %q", b.String())
	}
}

func TestStartStopsAtTheFirstUnmetNeed(t *testing.T) {
	later := false
	_, err := Start(context.Background(), "/nonexistent/iomark", "x-", t.Logf,
		NeedTools("apt-get install nosuch", "nosuch-tool-xyz"), func() error { later = true; return nil })
	if err == nil || !strings.Contains(err.Error(), "nosuch-tool-xyz not found") || later {
		t.Errorf("err = %v, later need run: %v", err, later)
	}
}

func TestNoArgsWithoutArguments(t *testing.T) {
	if err := NoArgs(); err != nil {
		t.Errorf("NoArgs() = %v with no arguments after the flags", err)
	}
}
