package main

import (
	"testing"

	"github.com/iomark/iomark/internal/testkit"
)

func TestRenderMarksAPeerExceeded(t *testing.T) {
	rows := []row{
		{Drive: "ram", Profile: "quick", BudgetBytes: 512 << 20, BytesWritten: 500 << 20, DeviceBytes: 505 << 20,
			Peer: "iomark's own bound", PeerBytes: 512 << 20, PeerHow: "quick mirrors no tool", WriteRuns: "seq-write-1m 6"},
		{Drive: "ram", Profile: "pibenchmarks", BudgetBytes: 920 << 20, BytesWritten: 930 << 20, DeviceBytes: 950 << 20,
			Peer: "PiBenchmarks Storage.sh", PeerBytes: 920 << 20, PeerHow: "dd, fio, iozone"},
		{Drive: "microsd", Profile: "cdm", Err: "exit status 1: boom | bang"},
	}
	out := render(rows, "iomark test", "1.0", "2.0")
	testkit.Contains(t, "output", out,
		"| ram | quick | 512 MiB | 500 MiB | 505 MiB | iomark's own bound | 512 MiB | 0.98 | yes |",
		"| ram | pibenchmarks | 920 MiB | 930 MiB | 950 MiB | PiBenchmarks Storage.sh | 920 MiB | 1.01 | **no** |",
		"failed: exit status 1: boom / bang",
		"- ram, quick (0 s): seq-write-1m 6",
		"- PiBenchmarks Storage.sh: dd, fio, iozone",
	)
}

func TestOptionsCheck(t *testing.T) {
	ok := options{profiles: []string{"quick"}, drives: []string{"ram"}, sizeMB: 3072}
	if err := ok.check(); err != nil {
		t.Fatal(err)
	}
	for _, o := range []options{
		{profiles: []string{"nope"}, drives: []string{"ram"}, sizeMB: 3072},
		{profiles: []string{"quick"}, drives: []string{"nvme"}, sizeMB: 3072},
		{profiles: []string{"quick"}, drives: []string{"ram"}, sizeMB: 1024},
	} {
		if err := o.check(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
