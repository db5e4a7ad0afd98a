package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/testkit"
)

// Schemathesis (PyPI schemathesis, a pinned 4.x that scripts/test.sh installs into a virtual
// environment of its own) generates requests from the OpenAPI document, valid and invalid, and
// checks every answer against it: statuses, content types, headers, bodies, that valid input is
// accepted and invalid refused, unsupported methods, and the links from an upload to its result.
// It runs against a server this test starts on SQLite, seeded with the published results and a
// few uploads, with the rate limits lifted (they would answer most generated requests 429). Its
// seed and example count are fixed so a run repeats; it must find nothing.
const (
	schemathesisSeed     = 20261123
	schemathesisExamples = 100
)

func TestSchemathesis(t *testing.T) {
	bin := os.Getenv("IOMARK_SCHEMATHESIS")
	if bin == "" {
		testkit.Require(t, "IOMARK_SCHEMATHESIS names no schemathesis executable: scripts/test.sh installs one and sets it (or: python3 -m venv V && V/bin/pip install schemathesis==4.32.5, then IOMARK_SCHEMATHESIS=V/bin/schemathesis)")
	}
	ts := startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1})
	if _, err := SeedPublished(context.Background(), ts.st); err != nil {
		t.Fatal(err)
	}
	for i, speed := range []float64{0.5, 0.8, 1.1} {
		r := honestRun(fmt.Sprintf("seed-%d", i), fmt.Sprintf("CARD%d", i), "Raspberry Pi 4 Model B Rev 1.4", speed, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
		ts.mustPost(t, r)
	}
	reports := os.Getenv("IOMARK_SCHEMATHESIS_REPORTS") // kept when set
	if reports == "" {
		reports = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", ts.URL+"/api/v1/openapi.json",
		"--url", ts.URL,
		"--checks", "all",
		"--seed", strconv.Itoa(schemathesisSeed),
		"--max-examples", strconv.Itoa(schemathesisExamples),
		"--workers", "1",
		"--generation-database", "none",
		"--request-timeout", "30",
		"--report", "junit", "--report-dir", reports,
		"--no-color")
	cmd.Args = append(cmd.Args, strings.Fields(os.Getenv("IOMARK_SCHEMATHESIS_ARGS"))...) // to look closer: --phases stateful --report har
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())                                   // nothing it writes outlives the test
	cmd.Dir = t.TempDir()                                                                 // its cache (.schemathesis) goes in its working directory
	out, err := cmd.CombinedOutput()
	t.Logf("schemathesis:\n%s", out)
	if err != nil {
		if junit, _ := filepath.Glob(filepath.Join(reports, "*.xml")); len(junit) > 0 {
			if b, rerr := os.ReadFile(junit[0]); rerr == nil {
				t.Logf("junit report:\n%.20000s", b)
			}
		}
		t.Fatalf("schemathesis found failures (%v): the server or the document must change until it finds none", err)
	}
}
