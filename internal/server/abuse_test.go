package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/store"
)

// uploadFrom sends a record to srv from a client address, straight through ServeHTTP.
func uploadFrom(srv *Server, from string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/api/v1/results", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = from
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	return w
}

// 1,000 addresses inside one /24, and 1,000 inside one /64, cannot pass the prefix budget; a
// thousand networks cannot pass the global one; a refused upload carries Retry-After.
func testAbusePrefixes(t *testing.T, dsn string) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	ts := startServer(t, dsn, Options{RequestPerS: -1, now: func() time.Time { return now }})
	srv := ts.Config.Handler.(*Server)
	n := 0
	send := func(from string) int {
		n++
		r := sampleRecord(fmt.Sprintf("abuse-%05d", n), "A", "B", "Pi", 20)
		w := uploadFrom(srv, from, encode(t, r))
		if w.Code == http.StatusTooManyRequests {
			var e apiError
			if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "" || w.Header().Get("Retry-After") == "" {
				t.Fatalf("429 without a JSON error and Retry-After: %q %v", w.Body.String(), w.Header())
			}
		} else if w.Code != http.StatusCreated {
			t.Fatalf("upload from %s: %d %s", from, w.Code, w.Body.String())
		}
		return w.Code
	}
	count := func(codes []int) (ok int) {
		for _, c := range codes {
			if c == http.StatusCreated {
				ok++
			}
		}
		return ok
	}
	var v4, v6, mapped []int
	for i := range 1000 {
		v4 = append(v4, send(fmt.Sprintf("10.1.2.%d:40000", i%256)))
		v6 = append(v6, send(fmt.Sprintf("[2001:db8:1:2:%x:%x::1]:40000", i/256, i%256)))
	}
	mapped = append(mapped, send("[::ffff:10.1.2.77]:40000")) // the same /24, written as IPv6
	if got := count(v4); got != defaultPrefixSubmitBurst {
		t.Errorf("1,000 uploads from one /24: %d accepted, want the prefix budget %d", got, defaultPrefixSubmitBurst)
	}
	if got := count(v6); got != defaultPrefixSubmitBurst {
		t.Errorf("1,000 uploads from one /64: %d accepted, want the prefix budget %d", got, defaultPrefixSubmitBurst)
	}
	if mapped[0] != http.StatusTooManyRequests {
		t.Errorf("an IPv4-mapped address of the spent /24: %d, want 429", mapped[0])
	}
	// A thousand networks, one upload each: the global budget holds.
	var spread []int
	for i := range 1000 {
		spread = append(spread, send(fmt.Sprintf("10.%d.%d.1:40000", 100+i/256, i%256)))
	}
	if got, want := count(spread), defaultGlobalSubmitBurst-2*defaultPrefixSubmitBurst; got != want {
		t.Errorf("1,000 networks: %d accepted, want what the global budget %d has left, %d", got, defaultGlobalSubmitBurst, want)
	}
	// Time refills the budgets.
	now = now.Add(time.Minute)
	if c := send("10.1.2.3:40000"); c != http.StatusCreated {
		t.Errorf("after a minute: %d, want 201", c)
	}
	if stored, _ := ts.st.CountRuns(context.Background(), store.Filter{}); stored != 2*defaultPrefixSubmitBurst+count(spread)+1 {
		t.Errorf("%d runs stored", stored)
	}
}

// The limiter's state stays bounded however many addresses it sees.
func TestLimiterBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := &limiter{now: func() time.Time { return now }, sets: []*buckets{newBuckets(1, 5)}}
	for i := range 100000 {
		l.allow(fmt.Sprintf("2001:db8:%x::/64", i))
	}
	if n := l.size(); n > maxBuckets+1 {
		t.Errorf("%d buckets kept after 100,000 addresses, want at most %d", n, maxBuckets+1)
	}
	// The newcomers share one bucket: it is spent, a kept client's is not.
	if _, ok := l.allow("a newcomer"); ok {
		t.Error("a client past the bound got its own bucket")
	}
	if _, ok := l.allow("2001:db8:1::/64"); !ok {
		t.Error("a kept client lost its bucket")
	}
}

// How the API answers what it does not serve, wrong media types, forged Host headers,
// reserved ids, and names as long as the server stores.
func testContract(t *testing.T, ts *testServer) {
	good := encode(t, sampleRecord("ct-1", "A", "B", "Pi", 20))
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/jsonx"} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/results", bytes.NewReader(good))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, body := roundTrip(t, req)
		var e apiError
		_ = json.Unmarshal(body, &e)
		if resp.StatusCode != http.StatusUnsupportedMediaType || e.Error == "" {
			t.Errorf("Content-Type %q: %d %q, want 415 with a JSON error", ct, resp.StatusCode, e.Error)
		}
	}
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/results", bytes.NewReader(good))
	req.Header.Set("Content-Type", "application/json; charset=UTF-8")
	req.Host = "evil.example"
	resp, body := roundTrip(t, req)
	var out submitted
	_ = json.Unmarshal(body, &out)
	if resp.StatusCode != 201 || out.URL != ts.URL+"/result/ct-1" {
		t.Errorf("with Host evil.example: %d, permalink %q; want 201 and %s/result/ct-1", resp.StatusCode, out.URL, ts.URL)
	}
	reserved := sampleRecord("published-geerling-2020-usb-99", "A", "B", "Pi", 20)
	if c, body := ts.post(t, encode(t, reserved)); c != 400 || body["field"] != "id" {
		t.Errorf("a published- id: %d %v, want 400 on id", c, body)
	}

	for _, c := range []struct {
		method, path string
		code         int
		allow        string
		json         bool
	}{
		{"PUT", "/api/v1/results", 405, "POST", true},
		{"GET", "/api/v1/results", 405, "POST", true},
		{"OPTIONS", "/api/v1/results", 405, "POST", true},
		{"DELETE", "/api/v1/home", 405, "GET, HEAD", true},
		{"POST", "/api/v1/results/ct-1", 405, "DELETE, GET, HEAD", true},
		{"POST", "/search", 405, "GET, HEAD", false},
		{"POST", "/api/v1/nothing", 404, "", true},
		{"GET", "/api/v1/nothing", 404, "", true},
		{"GET", "/nothing", 404, "", false},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
		resp, body := roundTrip(t, req)
		isJSON := strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && json.Valid(body)
		if resp.StatusCode != c.code || resp.Header.Get("Allow") != c.allow || isJSON != c.json {
			t.Errorf("%s %s: %d Allow %q JSON %v; want %d %q %v", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), isJSON, c.code, c.allow, c.json)
		}
	}

	// The longest names the server stores, with every character a URL treats specially, and
	// one whose lower case is longer than itself: every link to them works.
	name := func(prefix string) string {
		return prefix + string([]rune(strings.Repeat("İ/?&#%+ é", maxName))[:maxName-len(prefix)])
	}
	long := sampleRecord("ct-long", name("v"), name("m"), name("b"), 20)
	long.SD.OEMID = strings.Repeat("İ", 16)
	long.SD.Name = name("s")
	ts.mustPost(t, long)
	var res ResultData
	if c := ts.getJSON(t, "/api/v1/results/ct-long", &res); c != 200 {
		t.Fatalf("result: %d", c)
	}
	key := long.DeviceKey()
	links := []string{res.Summary.URL, res.Summary.DriveURL, boardPath(res.Summary.Board),
		"/api/v1/drive?key=" + url.QueryEscape(key), "/api/v1/board?name=" + url.QueryEscape(long.Host.Model),
		"/api/v1/search?board=" + url.QueryEscape(long.Host.Model) + "&q=" + url.QueryEscape(long.Device.Model),
		"/compare?drive=" + url.QueryEscape(key) + "&result=ct-long", "/value?drive=" + url.QueryEscape(key) + "&price=3"}
	for _, l := range links {
		if c, body := ts.get(t, l); c != 200 {
			t.Errorf("link %.120s: %d %.200s", l, c, body)
		}
	}
}

// A result the operator hides answers 410 on its pages and leaves the rankings at once (within
// the server's one-second look at the moderation epoch), though the rankings are kept 30 s.
func testHiddenLeavesAtOnce(t *testing.T, dsn string) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1, now: func() time.Time { return now }})
	for i, speed := range []float64{0.5, 0.7, 0.9} {
		r := honestRun(fmt.Sprintf("hide-%d", i), fmt.Sprintf("Card %d", i), "Raspberry Pi 4 Model B", speed, now.Add(-time.Hour))
		ts.mustPost(t, r)
	}
	best := func() string {
		var home HomeData
		if c := ts.getJSON(t, "/api/v1/home", &home); c != 200 || len(home.Leaderboard.Sections) == 0 {
			t.Fatalf("home: %d %+v", c, home)
		}
		name := home.Leaderboard.Sections[0].Drives[0].Name
		return name[strings.LastIndex(name, "Card "):][:len("Card 0")] // the model name ends in its capacity
	}
	if b := best(); b != "Card 2" {
		t.Fatalf("best before hiding = %q", b)
	}
	if _, err := ts.st.SetModeration(context.Background(), "hide-2", store.ModerationHidden); err != nil {
		t.Fatal(err)
	}
	now = now.Add(1500 * time.Millisecond) // the kept rankings are still fresh for 28 s
	if b := best(); b != "Card 1" {
		t.Errorf("best after hiding the best = %q, want Card 1 at once", b)
	}
	for _, p := range []string{"/result/hide-2", "/api/v1/results/hide-2", "/api/v1/results/hide-2/raw", "/result/hide-2/raw", "/api/v1/compare?result=hide-2"} {
		if c, _ := ts.get(t, p); c != http.StatusGone {
			t.Errorf("GET %s of a hidden result: %d, want 410", p, c)
		}
	}
	if _, err := ts.st.SetModeration(context.Background(), "hide-2", store.ModerationAuto); err != nil {
		t.Fatal(err)
	}
	now = now.Add(1500 * time.Millisecond)
	if b := best(); b != "Card 2" {
		t.Errorf("best after unhiding = %q, want Card 2 back", b)
	}
}

// Past the requests in flight and the queue, requests are turned away with 503 and Retry-After,
// as JSON under /api/. An upload whose body is still arriving holds no slot (body.go): reads are
// served beside it.
func testGate(t *testing.T, dsn string) {
	ts := startServer(t, dsn, Options{SubmitPerS: -1, RequestPerS: -1, MaxInFlight: 1, MaxQueued: 1, QueueWait: 300 * time.Millisecond})
	srv := ts.Config.Handler.(*Server)
	pr, pw := io.Pipe()
	defer pw.Close()
	held := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/results", pr)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			held <- 0
			return
		}
		resp.Body.Close()
		held <- resp.StatusCode
	}()
	_, _ = pw.Write([]byte(`{"id":`))
	if c, _ := ts.get(t, "/api/v1/home"); c != 200 {
		t.Errorf("a read beside an upload still arriving: %d, want 200", c)
	}
	// A request being served holds the one read slot.
	if !srv.gate.enter(context.Background()) {
		t.Fatal("the free slot was refused")
	}
	queued := make(chan int, 1)
	go func() {
		c, _ := ts.get(t, "/api/v1/home")
		queued <- c
	}()
	for len(srv.gate.queue) == 0 {
		time.Sleep(5 * time.Millisecond) // until the request above waits in the queue
	}
	resp, body := fetch(t, ts.URL+"/api/v1/home")
	if !retryLater(resp) || !json.Valid(body) {
		t.Errorf("past the slot and the queue: %d Retry-After %q %s; want 503 with Retry-After, JSON", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if c := <-queued; c != http.StatusServiceUnavailable {
		t.Errorf("queued past its wait: %d, want 503", c)
	}
	if c, _ := ts.get(t, "/static/site.css"); c != 200 {
		t.Errorf("an embedded file waited for a slot: %d", c)
	}
	srv.gate.leave()
	pw.Close()
	if c := <-held; c != http.StatusBadRequest {
		t.Errorf("the held upload, cut short: %d, want 400", c)
	}
	if c, _ := ts.get(t, "/api/v1/home"); c != 200 {
		t.Errorf("once free: %d", c)
	}
}
