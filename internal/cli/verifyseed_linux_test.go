package cli

import (
	"context"
	"testing"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// seedFakeVerify saves in db a verify that found the drive under target fake (wrapping at
// half its size), keyed as `iomark verify` keys it, so that a test of `iomark run` can check
// the run shows the finding without verifying a fake card first.
func seedFakeVerify(t *testing.T, target, db string) {
	t.Helper()
	rep, err := probe.Probe(target, probe.Options{})
	if err != nil || rep.Device == nil {
		t.Fatalf("probe %s: %v", target, err)
	}
	size := int64(rep.Device.CapacityBytes)
	fb := size / 2
	res := &flash.Result{Verdict: flash.Fake, Mode: flash.ModeProbe, Target: rep.Device.Path, ClaimedBytes: size,
		UsableBytes: fb, FirstBadByte: &fb, Failure: flash.FailureWrap, WrapBytes: fb, GranularityBytes: 4096}
	if _, err := saveVerify(context.Background(), db, res, rep); err != nil {
		t.Fatal(err)
	}
}

func hasFindingID(rec *record.Run, id string) bool {
	for _, f := range rec.Findings {
		if f.ID == id {
			return true
		}
	}
	return false
}
