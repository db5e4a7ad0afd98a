package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit"
)

// TestSinkAndSend: iomark sink prints the send command with its token; iomark send with it
// copies; the sink prints the record as JSON and saves it; the target is left empty.
func TestSinkAndSend(t *testing.T) {
	dir, db := t.TempDir(), filepath.Join(t.TempDir(), "r.db")
	var sinkOut, sinkErr testkit.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"sink", "--listen", "127.0.0.1:0", "--json", "--db", db, dir}, &sinkOut, &sinkErr)
	}()
	re := regexp.MustCompile(`iomark send (\S+) --size 10G --token ([0-9a-f]{32})`)
	var m []string
	for deadline := time.Now().Add(30 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		m = re.FindStringSubmatch(sinkErr.String())
	}
	if m == nil {
		t.Fatalf("the sink printed no send command: %s", sinkErr.String())
	}
	var sendOut, sendErr bytes.Buffer
	if code := run([]string{"send", m[1], "--size", "20m", "--token", m[2], "--json"}, &sendOut, &sendErr); code != 0 {
		t.Fatalf("send exit %d: %s", code, sendErr.String())
	}
	var sent sendJSON
	if err := json.Unmarshal(sendOut.Bytes(), &sent); err != nil || sent.SentBytes != 20<<20 || sent.Sink == nil || sent.Sink.Ended != "complete" {
		t.Errorf("send JSON %s: %v", sendOut.String(), err)
	}
	if code := <-done; code != 0 {
		t.Fatalf("sink exit %d: %s", code, sinkErr.String())
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(sinkOut.String()), &rec); err != nil || rec["profile"] != "network-copy" {
		t.Errorf("sink JSON: %v\n%s", err, sinkOut.String())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the sink left %d file(s) in the target", len(ents))
	}
	code, out, _ := runCLI(t, "history", "--db", db)
	if code != 0 || !regexp.MustCompile(`network-copy`).MatchString(out) {
		t.Errorf("history after the copy (exit %d):\n%s", code, out)
	}
}

// TestAskToken: send without --token on a terminal asks for it; the answer is trimmed.
func TestAskToken(t *testing.T) {
	var prompt bytes.Buffer
	if got := askToken(strings.NewReader("  17df150301448132400b2df573c18961 \n"), &prompt); got != "17df150301448132400b2df573c18961" {
		t.Errorf("token %q", got)
	}
	if !strings.Contains(prompt.String(), "token") {
		t.Errorf("prompt %q", prompt.String())
	}
	if got := askToken(strings.NewReader(""), &prompt); got != "" {
		t.Errorf("nothing typed gave %q", got)
	}
}

func TestSinkUsage(t *testing.T) {
	f := filepath.Join(t.TempDir(), "f")
	os.WriteFile(f, nil, 0o600)
	for _, args := range [][]string{{"sink", t.TempDir()}, {"sink", "--listen", "127.0.0.1:0", f}, {"send", "127.0.0.1:1", "--size", "1g"}} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestInfoAndListHealthJSON: info --json and list --json carry health; under a fixture root
// no drive is asked and the note says why.
func TestInfoAndListHealthJSON(t *testing.T) {
	code, out, stderr := runCLI(t, "info", "--json", "--root", fixtureRoot("pi5-nvme-gen3"), "/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m struct {
		Health struct{ Source, Note string } `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Health.Source != "none" || !regexp.MustCompile(`fixture root`).MatchString(m.Health.Note) {
		t.Errorf("info health %+v, %v", m.Health, err)
	}
	code, out, stderr = runCLI(t, "list", "--json", "--root", fixtureRoot("pi4-microsd"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []struct {
		Name   string
		Health *struct{ Source, Note string } `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("list JSON %v: %s", err, out)
	}
	for _, r := range rows {
		if r.Health == nil || r.Health.Note == "" {
			t.Errorf("%s: health %+v", r.Name, r.Health)
		}
	}
	code, out, _ = runCLI(t, "list", "--json", "--no-ioctl", "--root", fixtureRoot("pi4-microsd"))
	if code != 0 || regexp.MustCompile(`"health"`).MatchString(out) {
		t.Errorf("list --no-ioctl asked for health (exit %d):\n%s", code, out)
	}
}
