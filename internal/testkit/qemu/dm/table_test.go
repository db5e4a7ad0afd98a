package dm

import "testing"

func TestWrapAround(t *testing.T) {
	got := Format(WrapAround("/dev/sdb", 1000, 2500))
	want := "0 1000 linear /dev/sdb 0;1000 1000 linear /dev/sdb 0;2000 500 linear /dev/sdb 0"
	if got != want {
		t.Errorf("WrapAround = %q, want %q", got, want)
	}
	if ts, err := ParseTable(got); err != nil || len(ts) != 3 || ts[2].Sectors != 500 {
		t.Errorf("round trip: %+v %v", ts, err)
	}
	if len(WrapAround("/dev/sdb", 0, 100)) != 0 {
		t.Error("no real sectors must give no table")
	}
}

func TestParseTable(t *testing.T) {
	for _, bad := range []string{"", "0 10", "0 0 error", "x 10 error", "5 10 error", "0 10 error;20 5 error", "0 10 aaaaaaaaaaaaaaaaaaaa"} {
		if _, err := ParseTable(bad); err == nil {
			t.Errorf("ParseTable(%q) accepted", bad)
		}
	}
	ts, err := ParseTable("0 100 flakey /dev/sdb 0 2 3\n")
	if err != nil || ts[0].Params != "/dev/sdb 0 2 3" || Format(Flakey("/dev/sdb", 100, 2, 3)) != ts[0].String() {
		t.Errorf("flakey: %+v %v", ts, err)
	}
	if Format(Error(8)) != "0 8 error" || Format(Linear("/dev/vda", 8)) != "0 8 linear /dev/vda 0" {
		t.Error("Error/Linear format")
	}
}

func FuzzParseTable(f *testing.F) {
	f.Add("0 100 linear /dev/sdb 0;100 100 linear /dev/sdb 0")
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := ParseTable(s)
		if err == nil {
			if _, err := ParseTable(Format(ts)); err != nil {
				t.Errorf("Format of a parsed table does not parse: %v", err)
			}
		}
	})
}
