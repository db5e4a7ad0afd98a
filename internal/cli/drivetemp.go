package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/iomark/iomark/internal/target"
)

// Readings of a drive's temperature that the machine cannot take (USB flash drives, SD
// cards, USB-NVMe enclosures, USB-SATA bridges without drivetemp): read off a thermometer or
// a thermal camera and typed during the run (--drive-temp-c -), or appended to a file by a
// logger (--drive-temp-c FILE). Each line holds one reading in °C ("47", "47.5", "47 °C"); a
// reading belongs to the sensor sample taken next (within a second), so its time is when it
// arrived. Lines that hold no reading are said once each and skipped.

// minTypedC and maxTypedC bound a plausible drive temperature: a typo (470) is refused.
const (
	minTypedC = -40
	maxTypedC = 150
)

// tailPoll is how often a file of readings is checked for new lines.
const tailPoll = 500 * time.Millisecond

type typedTemps struct {
	mu      sync.Mutex
	pending *float64
	n       int
	done    chan struct{}
	once    sync.Once
}

// startTypedTemps reads readings from stdin (arg "-") or from the end of file arg as lines
// are added, until stop. warn says what was skipped.
func startTypedTemps(arg string, stdin io.Reader, warn func(string)) (*typedTemps, error) {
	tt := &typedTemps{done: make(chan struct{})}
	name := "standard input"
	var r io.Reader = stdin
	if arg != "-" {
		f, err := os.Open(arg)
		if err != nil {
			return nil, fmt.Errorf("--drive-temp-c %s: %w — give a file a logger appends readings to (create it first), or - to type readings during the run", arg, err)
		}
		name, r = arg, &tailReader{f: f, done: tt.done}
		// Readings already in the file were taken before this run: start at its end.
		if _, err := f.Seek(0, io.SeekEnd); err != nil {
			f.Close()
			return nil, fmt.Errorf("--drive-temp-c %s: %w", arg, err)
		}
	}
	go func() {
		sc := bufio.NewScanner(r)
		for line := 1; sc.Scan(); line++ {
			text := strings.TrimSpace(sc.Text())
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			c, ok := parseCelsius(text)
			if !ok {
				warn(fmt.Sprintf("line %d of %s: %q is no drive temperature in °C (%d to %d); skipped", line, name, text, minTypedC, maxTypedC))
				continue
			}
			tt.mu.Lock()
			tt.pending, tt.n = &c, tt.n+1
			tt.mu.Unlock()
		}
	}()
	return tt, nil
}

// parseCelsius reads "47", "47.5", "47C", "47 °C".
func parseCelsius(s string) (float64, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(s), "C"), "°"))
	c, err := strconv.ParseFloat(s, 64)
	if err != nil || c < minTypedC || c > maxTypedC {
		return 0, false
	}
	return c, true
}

// take returns the reading that arrived since the last take, nil when none did.
func (t *typedTemps) take() *float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.pending
	t.pending = nil
	return c
}

// readings describes the readings to the sensors of a run; from is --drive-temp-c's value.
func (t *typedTemps) readings(from string) *target.Readings {
	r := &target.Readings{Source: "file", Sensor: "readings appended to " + from + " during the run (--drive-temp-c)", Take: t.take}
	if from == "-" {
		r.Source, r.Sensor = "typed", "readings typed on standard input during the run (--drive-temp-c -)"
	}
	return r
}

// count is how many readings arrived.
func (t *typedTemps) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// stop ends the reading of a file (a reader of stdin is left to the process's end: a read of
// a terminal cannot be interrupted).
func (t *typedTemps) stop() { t.once.Do(func() { close(t.done) }) }

// tailReader reads a file as it grows, like tail -f, until done.
type tailReader struct {
	f    *os.File
	done chan struct{}
}

func (t *tailReader) Read(p []byte) (int, error) {
	for {
		n, err := t.f.Read(p)
		if n > 0 {
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			t.f.Close()
			return 0, err
		}
		select {
		case <-t.done:
			t.f.Close()
			return 0, io.EOF
		case <-time.After(tailPoll):
		}
	}
}
