package qemu

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigsValid: every configuration is consistent (unique drive IDs and sizes, SD sizes a
// power of two, an arm64 machine has a DTB) and names each drive in its devices.
func TestConfigsValid(t *testing.T) {
	if len(Configs) < 7 {
		t.Errorf("%d configurations", len(Configs))
	}
	names := map[string]bool{}
	for _, c := range Configs {
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
		if names[c.Name] {
			t.Errorf("configuration %s twice", c.Name)
		}
		names[c.Name] = true
		all := strings.Join(c.Devices, " ")
		for _, d := range c.Drives {
			if d.If != "sd" && !strings.Contains(all, "drive="+d.ID+",") && !strings.HasSuffix(all, "drive="+d.ID) && !strings.Contains(all, "drive="+d.ID+" ") {
				t.Errorf("%s: drive %s is attached to no device", c.Name, d.ID)
			}
		}
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("Lookup of an unknown configuration must fail")
	}
	bad := Config{Name: "x", Arch: "amd64", Drives: []Drive{{ID: "a", SizeMiB: 5}, {ID: "b", SizeMiB: 5}}}
	if bad.Validate() == nil {
		t.Error("two drives of one size must be refused")
	}
	bad = Config{Name: "x", Arch: "amd64", Drives: []Drive{{ID: "sd", SizeMiB: 65, If: "sd"}}}
	if bad.Validate() == nil {
		t.Error("an SD card of 65 MiB must be refused (QEMU wants a power of two)")
	}
}

func TestParseConsole(t *testing.T) {
	console := "[    0.000] Linux version …\r\n" +
		"@@boot 6.1.0-56-amd64 x86_64\r\n" +
		"@@warn insmod kernel/x.ko: No such device\r\n" +
		"@@disk nvme /dev/nvme0n1\r\n@@disk gone \r\n" +
		"@@begin list\r\n@@o [\r\n@@o ]\r\n@@end list 0\r\n" +
		"noise from the kernel\r\n" +
		"@@begin bad\r\n@@o half\r\n@@e boom\r\n@@end bad 3\r\n" +
		"garbage@@begin late\r\n@@end late 0\r\n" +
		"@@done\r\n"
	r := parseConsole(console)
	if r.Kernel != "6.1.0-56-amd64" || r.Arch != "x86_64" || !r.Done || len(r.Warnings) != 1 {
		t.Errorf("result = %+v", r)
	}
	if d, err := r.Disk("nvme"); err != nil || d != "nvme0n1" {
		t.Errorf("Disk(nvme) = %q, %v", d, err)
	}
	if _, err := r.Disk("gone"); err == nil {
		t.Error("a drive that did not appear must be an error")
	}
	var list []int
	if err := r.JSON("list", &list); err != nil || len(list) != 0 {
		t.Errorf("JSON(list) = %v, %v", list, err)
	}
	o, err := r.Get("bad")
	if err != nil || o.ExitCode != 3 || o.Stdout != "half\n" || o.Stderr != "boom\n" {
		t.Errorf("bad = %+v, %v", o, err)
	}
	if err := r.JSON("bad", &list); err == nil {
		t.Error("JSON of a failed step must be an error")
	}
	if _, err := r.Get("late"); err != nil {
		t.Error("a marker after console garbage on the same line must still count")
	}
	if strings.Join(r.Order, ",") != "list,bad,late" {
		t.Errorf("order %v", r.Order)
	}
	if parseConsole("@@begin x\n@@o y\n").Done {
		t.Error("a guest that stopped early is not done")
	}
}

// TestStepsRunInShell runs the generated step lines and the guest functions in the host's
// sh, with a fake /lab, to check quoting and the output protocol end to end.
func TestStepsRunInShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	funcs := strings.ReplaceAll(string(functionsScript), "/lab/", dir+"/")
	funcs = strings.ReplaceAll(funcs, "/tmp/step.", dir+"/step.")
	os.WriteFile(filepath.Join(dir, "functions.sh"), []byte(funcs), 0o644)
	steps := []Step{
		Cmd("echo", "echo", "it's", "a $HOME `x`"),
		Sh("script", `echo "one"; echo two >&2; exit 4`),
		Raw(`for d in a b; do step "loop:$d" echo $d; done`),
	}
	var script strings.Builder
	script.WriteString(". " + filepath.Join(dir, "functions.sh") + "\n")
	for _, s := range steps {
		script.WriteString(s.line + "\n")
	}
	script.WriteString("echo @@done\n")
	out, err := exec.Command(sh, "-c", script.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	r := parseConsole(string(out))
	if o, _ := r.Get("echo"); o == nil || o.Stdout != "it's a $HOME `x`\n" {
		t.Errorf("echo: %+v\n%s", o, out)
	}
	if o, _ := r.Get("script"); o == nil || o.ExitCode != 4 || o.Stdout != "one\n" || o.Stderr != "two\n" {
		t.Errorf("script: %+v\n%s", o, out)
	}
	if o, _ := r.Get("loop:b"); o == nil || o.Stdout != "b\n" {
		t.Errorf("loop: %+v", r.Order)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "/dev/sda": "/dev/sda", "": "''", "a b": "'a b'", "it's": `'it'\''s'`, "$x": "'$x'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	if !strings.Contains(WrapAroundFake("fake", "small", 64), "131072") {
		t.Error("WrapAroundFake must claim 64 MiB = 131072 sectors")
	}
}

// TestReadyWriter: the boot watchdog sees "@@ready" even when the console delivers it in
// pieces, and not before.
func TestReadyWriter(t *testing.T) {
	w := &readyWriter{ready: make(chan struct{})}
	w.Write([]byte("@@boot 6.1 x86_64\n@@rea"))
	select {
	case <-w.ready:
		t.Fatal("ready too early")
	default:
	}
	w.Write([]byte("dy\n@@begin x\n"))
	select {
	case <-w.ready:
	default:
		t.Fatal("not ready after @@ready")
	}
	w.Write([]byte("@@ready\n")) // a second one must not close the channel twice
	if !strings.HasSuffix(w.String(), "@@ready\n") {
		t.Errorf("console = %q", w.String())
	}
}
