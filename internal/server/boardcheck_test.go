package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// postFrom uploads a record from a loopback address of its own (127.0.0.0/8), as a client at
// another address would.
func (ts *testServer) postFrom(t *testing.T, addr string, r *record.Run) (int, submitted) {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}).DialContext}}
	resp, err := c.Post(ts.URL+"/api/v1/results", "application/json", bytes.NewReader(encode(t, r)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out submitted
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func flagIDs(fs []Flag) string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return strings.Join(ids, ",")
}

// An upload is checked against the board it names, whatever link it claims: links the board
// lacks and figures above its fastest setting are not listed; far above its drive model's
// results it is held, far below it is listed with a note; a burst of one model is held; honest
// uploads rank; `moderate` sees the held and the doubted, and approving one releases it.
func TestPlausibleFromTheBoard(t *testing.T) {
	ts := startServer(t, sqliteDSN(t), Options{SubmitPerS: -1, RequestPerS: -1, CacheTTL: -1, BurstUploads: 14, BurstAddrs: 5})
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	const pi4 = "Raspberry Pi 4 Model B Rev 1.4"
	// Ten honest uploads of one card from ten addresses: 4K random write 2.7-2.97 MB/s.
	for i := range 10 {
		r := honestRun(fmt.Sprintf("honest-%d", i), "HONEST", pi4, 0.9+0.01*float64(i), at)
		if c, out := ts.postFrom(t, fmt.Sprintf("127.0.1.%d", i+1), r); c != 201 || !out.Listed {
			t.Fatalf("honest upload %d: %d %+v", i, c, out)
		}
	}
	cases := []struct {
		name, id string
		make     func() *record.Run
		listed   bool
		flag     string
	}{
		{"USB 10 Gbps on a Pi 4", "usb10", func() *record.Run {
			r := honestRun("usb10", "FASTUSB", pi4, 1, at)
			r.SD = nil
			r.Device = &probe.Device{Name: "sda", Class: probe.ClassUSBSSD, Vendor: "Fast", Model: "FASTUSB", CapacityBytes: 500e9}
			r.Link = []probe.Hop{{Bus: "usb", Name: "2-1", SpeedMbps: 10000, Driver: "uas"}}
			return r
		}, false, flagImpossibleLink},
		{"PCIe gen 4 x4 on a Pi 5, above its gen 3 x1", "nvme4", func() *record.Run {
			r := honestRun("nvme4", "FASTNVME", "Raspberry Pi 5 Model B Rev 1.0", 1, at)
			r.SD = nil
			r.Device = &probe.Device{Name: "nvme0n1", Class: probe.ClassNVMe, Model: "FASTNVME", CapacityBytes: 1000e9}
			r.Link = []probe.Hop{{Bus: "pcie", Name: "0001:01:00.0", SpeedMbps: 64000, Detail: "PCIe gen4 x4"}}
			r.Tests[0].MBPerS, r.Tests[0].IOPS, r.Tests[0].MiBPerS = 3000, 3000, 3000/1.048576
			return r
		}, false, flagAboveBoardCeiling},
		{"far above its model", "above", func() *record.Run {
			// Only the 4K random write, 3× the card's: every figure below any ceiling.
			r := honestRun("above", "HONEST", pi4, 1, at)
			r.Tests[3].MBPerS, r.Tests[3].IOPS, r.Tests[3].MiBPerS = 9, 9e6/4096, 9/1.048576
			return r
		}, false, flagHeldOutlier},
		{"far below its model", "below", func() *record.Run { return honestRun("below", "HONEST", pi4, 0.1, at) }, true, ""},
	}
	for i, c := range cases {
		code, out := ts.postFrom(t, fmt.Sprintf("127.0.2.%d", i+1), c.make())
		if code != 201 || out.Listed != c.listed || c.flag != "" && !strings.Contains(flagIDs(out.Flags), c.flag) {
			t.Errorf("%s: %d listed %v flags %s, want listed %v with %s", c.name, code, out.Listed, flagIDs(out.Flags), c.listed, c.flag)
		}
	}
	_, page := ts.get(t, "/result/below")
	if !strings.Contains(page, "may be counterfeit or worn") || !strings.Contains(page, "iomark verify") {
		t.Error("the far-below result's page has no note")
	}
	_, page = ts.get(t, "/result/above")
	if !strings.Contains(page, "Held for review") {
		t.Error("the held result's page does not say it is held")
	}
	// A burst: more than 14 uploads of one model within the hour from 5+ addresses holds the rest.
	held := 0
	for i := range 20 {
		r := honestRun(fmt.Sprintf("burst-%d", i), "LAUNCH", pi4, 1, at)
		_, out := ts.postFrom(t, fmt.Sprintf("127.0.3.%d", i+1), r)
		if strings.Contains(flagIDs(out.Flags), flagHeldBurst) {
			held++
		}
	}
	if held != 6 {
		t.Errorf("%d of 20 burst uploads held, want the 6 past the threshold of 14", held)
	}
	// None of the doubted or held ranks; the honest card and the far-below one do.
	var home HomeData
	ts.getJSON(t, "/api/v1/home?board="+url.QueryEscape("Raspberry Pi 4 Model B"), &home)
	for _, s := range home.Leaderboard.Sections {
		for _, d := range s.Drives {
			if strings.Contains(d.Name, "FAST") || d.Results > 15 {
				t.Errorf("ranked: %+v", d)
			}
		}
	}
	// The operator sees each with its reason and releases one.
	flagged, err := ts.st.Moderated(context.Background(), 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, r := range flagged {
		reasons[r.ID] = string(r.Flags)
	}
	for id, want := range map[string]string{"usb10": flagImpossibleLink, "nvme4": flagImpossibleLink, "above": flagHeldOutlier, "burst-19": flagHeldBurst} {
		if !strings.Contains(reasons[id], want) {
			t.Errorf("moderate flagged: %s has %q, want %s", id, reasons[id], want)
		}
	}
	if _, err := ts.st.SetModeration(context.Background(), "above", store.ModerationApproved); err != nil {
		t.Fatal(err)
	}
	if run, _, err := ts.st.GetRun(context.Background(), "above"); err != nil || !run.Listed {
		t.Errorf("approved result not listed: %v %v", run.Listed, err)
	}
}
