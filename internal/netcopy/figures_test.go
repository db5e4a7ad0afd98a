package netcopy

import (
	"testing"

	"github.com/iomark/iomark/internal/engine"
)

// TestCopyTestFigures: a copy that ended early (the drive filled up with blocks still in the
// ring) reports as its own rate what reached the drive, the network rate what arrived, the
// drive's rate over its busy time, and the drive as the limit when the receiver waited for it.
func TestCopyTestFigures(t *testing.T) {
	res := &engine.StreamResult{ReceivedBytes: 120e6, WrittenBytes: 100e6, DurationS: 10, WriteBusyS: 5,
		ReaderWaitS: 8, WriterWaitS: 1, Ended: engine.StreamDriveFull, Direct: true,
		DriveSeries: []engine.Point{{TS: 1, MBPerS: 10}, {TS: 2, MBPerS: 10}}}
	ts, n := copyTest(res, 200e6)
	if ts.MBPerS != 10 || len(ts.RunValues) != 1 || ts.RunValues[0] != 10 || ts.Bytes != 100e6 {
		t.Errorf("test: %.2f MB/s, run values %v, %d bytes; want 10 MB/s (written over the copy's time), 100 MB", ts.MBPerS, ts.RunValues, ts.Bytes)
	}
	if n.MBPerS != 12 || n.DriveMBPerS != 20 || n.Limit != "drive" || n.NetworkWaitPct != 80 || n.DriveWaitPct != 10 || n.Ended != engine.StreamDriveFull {
		t.Errorf("network: %+v", n)
	}
	if ts.Sustained == nil || ts.Sustained.WrittenBytes != 100e6 {
		t.Errorf("sustained %+v", ts.Sustained)
	}
	// The writer waited for data most of the time: the network was the limit.
	res = &engine.StreamResult{ReceivedBytes: 50e6, WrittenBytes: 50e6, DurationS: 10, WriteBusyS: 1, WriterWaitS: 9, Ended: engine.StreamComplete}
	if ts, n := copyTest(res, 50e6); n.Limit != "network" || ts.MBPerS != 5 || n.MBPerS != 5 || n.DriveMBPerS != 50 {
		t.Errorf("network-bound copy: test %.1f MB/s, network %+v", ts.MBPerS, n)
	}
}
