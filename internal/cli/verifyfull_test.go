package cli

import (
	"strings"
	"testing"
)

// TestVerifyFullUsage: --full's flags are refused where they mean nothing, before any I/O.
func TestVerifyFullUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", dir, "--full"}, "--full is for a disk"},
		{[]string{"verify", dir, "--read-only"}, "go with --full"},
		{[]string{"verify", dir, "--rewrite"}, "go with --full"},
		{[]string{"verify", dir, "--error-time", "1m"}, "go with --full"},
		{[]string{"verify", dir, "--chart", dir + "/x.txt"}, ".png or .svg"},
		{[]string{"verify", dir, "--chart", dir + "/no/such/x.png"}, "does not exist"},
	} {
		code, out, errOut := runCLI(t, append(c.args, "--no-save")...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("iomark %s: exit %d, stdout %q, stderr %q; want usage error %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}
