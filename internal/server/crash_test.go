package server

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/testkit/pg"
)

// childEnv makes the test binary a server instead (TestMain), for the kill -9 test.
const childEnv = "IOMARK_SERVER_TEST_CHILD_DSN"

func TestMain(m *testing.M) {
	if dsn := os.Getenv(childEnv); dsn != "" {
		os.Exit(runChild(dsn))
	}
	os.Exit(m.Run())
}

// runChild serves dsn on a free loopback port and prints the address on stdout.
func runChild(dsn string) int {
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := New(st, Options{SubmitPerS: -1, RequestPerS: -1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(ln.Addr().String())
	_ = http.Serve(ln, s)
	return 1
}

// TestKill9DuringIngestLosesNothingAcknowledged uploads from several clients at once, kills the
// server with SIGKILL while uploads are in flight, and checks every upload answered 201 is in
// the database afterwards, whole.
func TestKill9DuringIngestLosesNothingAcknowledged(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { testKill9(t, sqliteDSN(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { testKill9(t, pg.NewDatabase(t, pg.Start(t))) })
}

func testKill9(t *testing.T, dsn string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dsn)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the child server did not start: %v", err)
	}
	base := "http://" + strings.TrimSpace(line)

	const clients, killAfter = 4, 60
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	killed := make(chan struct{})
	var once sync.Once
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := fmt.Sprintf("k%d-%d", c, i)
				rec := encode(t, sampleRecord(id, "Vendor", fmt.Sprintf("Model %d", c), "Pi 4", float64(10+i%30)))
				code, _ := postQuiet(base, rec)
				// Four clients share one address, and the server reads at most two bodies of
				// an address at once: a 429 then asks to retry, as a real client would.
				for tries := 0; code == http.StatusTooManyRequests && tries < 50; tries++ {
					time.Sleep(20 * time.Millisecond)
					code, _ = postQuiet(base, rec)
				}
				if code == http.StatusCreated {
					mu.Lock()
					acked = append(acked, id)
					n := len(acked)
					mu.Unlock()
					if n >= killAfter {
						once.Do(func() {
							_ = cmd.Process.Signal(syscall.SIGKILL)
							close(killed)
						})
					}
				}
				select {
				case <-killed:
					if code != http.StatusCreated {
						return // the server is gone
					}
				default:
					if code != http.StatusCreated {
						t.Errorf("upload %s answered %d before the kill", id, code)
						once.Do(func() { _ = cmd.Process.Signal(syscall.SIGKILL); close(killed) })
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	_ = cmd.Wait()

	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("reopening after kill -9: %v", err)
	}
	defer st.Close()
	for _, id := range acked {
		run, tests, err := st.GetRun(context.Background(), id)
		if err != nil || len(tests) != 2 || len(run.Record) == 0 {
			t.Errorf("acknowledged run %s: %v (%d tests)", id, err, len(tests))
		}
	}
	n, err := st.CountRuns(context.Background(), store.Filter{})
	if err != nil || n < len(acked) {
		t.Errorf("%d runs stored, %d acknowledged (%v)", n, len(acked), err)
	}
	t.Logf("%d uploads acknowledged before kill -9, all found; %d stored", len(acked), n)
}

func postQuiet(base string, body []byte) (int, error) {
	resp, err := http.Post(base+"/api/v1/results", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
