package record

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScrubJSON(t *testing.T) {
	in := `{"id":"r1","hostname":"box","host":{"model":"Pi","HostName":"box"},` +
		`"target":{"path":"/home/alice/bench","kind":"dir"},` +
		`"device":{"path":"/dev/sda","model":"Extreme"},` +
		`"mount":{"mount_point":"/media/alice/CARD","source":"//nas.lan/alice","fstype":"cifs",` +
		`"options":"rw,noatime,username=alice,uid=1000,addr=192.0.2.7,sync","super_options":"rw,user=alice"},` +
		`"tests":[{"name":"a","iops":1e3,"network":{"peer":"192.0.2.9","mb_per_s":11.5}},{"name":"b","iops":2}],` +
		`"findings":[{"id":"mount-sync","message":"/media/alice/CARD is mounted with sync","fix":"remove sync from /media/alice/CARD; user alice"}],` +
		`"warnings":[{"code":"x","message":"copy from 192.0.2.9 stalled"}]}`
	out, changed, err := ScrubJSON([]byte(in))
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	s := string(out)
	for _, gone := range []string{"box", "alice", "nas.lan", "192.0.2.7", "192.0.2.9", "uid=", "username", "mount_point", `"source"`} {
		if strings.Contains(s, gone) {
			t.Errorf("%q kept: %s", gone, s)
		}
	}
	for _, kept := range []string{`"kind":"dir"`, `"fstype":"cifs"`, `"iops":1e3`, `"model":"Pi"`, `"options":"rw,noatime,sync"`,
		`"super_options":"rw"`, `"mb_per_s":11.5`, `"path":"/dev/sda"`, `"message":"[path] is mounted with sync"`,
		`"copy from [address] stalled"`} {
		if !strings.Contains(s, kept) {
			t.Errorf("%s lost: %s", kept, s)
		}
	}
	var run Run
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("the scrubbed record does not decode: %v", err)
	}
	// Scrubbing twice changes nothing more.
	again, changed, err := ScrubJSON(out)
	if err != nil || changed || string(again) != s {
		t.Errorf("second scrub changed %v (err %v): %s", changed, err, again)
	}
	clean := `{"id":"r2","target":{"kind":"dir"},"tests":[]}`
	if out, changed, err := ScrubJSON([]byte(clean)); err != nil || changed || string(out) != clean {
		t.Errorf("a clean record changed: %v %v %s", changed, err, out)
	}
	for _, bad := range []string{"", "[1]", "{", `"x"`} {
		if _, _, err := ScrubJSON([]byte(bad)); err == nil {
			t.Errorf("%q accepted as a record", bad)
		}
	}
}

func TestScrubOptions(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "",
		"rw,relatime":                   "rw,relatime",
		"rw,uid=1000,gid=1000,umask=22": "rw,umask=22",
		"rw,USERNAME=bob,vers=3.0":      "rw,vers=3.0",
		"rw,user":                       "rw,user", // the fstab flag, not a name
	} {
		if got := ScrubOptions(in); got != want {
			t.Errorf("ScrubOptions(%q) = %q, want %q", in, got, want)
		}
	}
}
