package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func fixtureRoot(name string) string {
	return filepath.Join("..", "probe", "testdata", name)
}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestInfoJSON(t *testing.T) {
	code, out, stderr := runCLI(t, "info", "--json", "--root", fixtureRoot("pi4-usb3-ssd-in-usb2-port"), "/home/pi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"device", "link", "usb", "board", "mount", "partition", "ceiling_mb_per_s", "findings"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	fs := m["findings"].([]any)
	if len(fs) != 1 || fs[0].(map[string]any)["id"] != "usb-port-usb2" || fs[0].(map[string]any)["severity"] != "bad" {
		t.Errorf("findings = %v", fs)
	}
	dev := m["device"].(map[string]any)
	if dev["class"] != "usb-ssd" || dev["name"] != "sda" {
		t.Errorf("device = %v", dev)
	}
}

func TestInfoJSONEmptyFindings(t *testing.T) {
	code, out, _ := runCLI(t, "info", "--json", "--root", fixtureRoot("pi5-nvme-gen3"))
	if code != 0 || !strings.Contains(out, `"findings": []`) {
		t.Errorf("exit %d, want \"findings\": [] in\n%s", code, out)
	}
}

func TestInfoHuman(t *testing.T) {
	code, out, stderr := runCLI(t, "info", "--root", fixtureRoot("pi4-flash-sector63"), "/media/usb0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"filesystem vfat mounted on /media/usb0", "partition sda1: starts at sector 63", "NOT aligned",
		"disk /dev/sda: usb-flash", "usb 1-1.4", "set by the usb hop", "Raspberry Pi 4 Model B Rev 1.4",
		"mount-sync", "partition-misaligned", "fs-fat", "fix:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Error("human output must not be JSON")
	}
}

func TestInfoErrors(t *testing.T) {
	code, out, stderr := runCLI(t, "info", "--root", "/nonexistent-iomark-root", "/")
	if code != exitUsage || out != "" || !strings.Contains(stderr, "--root") {
		t.Errorf("bad --root: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "info", "--root", fixtureRoot("x86-sata-nvme"), "/dev/sdz")
	if code != exitFailure || out != "" || !strings.Contains(stderr, "sdz") {
		t.Errorf("missing device: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, _, _ = runCLI(t, "info", "a", "b")
	if code != exitUsage {
		t.Errorf("two targets: exit %d, want %d", code, exitUsage)
	}
}

func TestInfoRootFromEnvironment(t *testing.T) {
	t.Setenv("IOMARK_ROOT", fixtureRoot("pi4-microsd"))
	code, out, stderr := runCLI(t, "info", "--json", "/")
	if code != 0 || !strings.Contains(out, `"class": "microsd"`) {
		t.Errorf("IOMARK_ROOT not honoured: exit %d %s\n%s", code, stderr, out)
	}
}

func TestInfoLive(t *testing.T) {
	code, out, stderr := runCLI(t, "info", "--json", ".")
	if code != 0 {
		t.Fatalf("iomark info . on this machine: exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if _, ok := m["mount"]; !ok {
		t.Errorf("no mount for the current directory: %s", out)
	}
}

func TestList(t *testing.T) {
	code, out, stderr := runCLI(t, "list", "--root", fixtureRoot("x86-sata-nvme"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "DEVICE") || !strings.HasPrefix(lines[1], "nvme0n1 ") || !strings.HasPrefix(lines[2], "sda ") {
		t.Errorf("list:\n%s", out)
	}
	if strings.Contains(out, "nvme0c0n1") {
		t.Error("hidden NVMe path device listed")
	}
	code, out, _ = runCLI(t, "list", "--json", "--root", fixtureRoot("pi4-flash-sector63"))
	var l []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil || len(l) != 2 || l[1]["class"] != "usb-flash" {
		t.Errorf("list --json: exit %d\n%s", code, out)
	}
}
