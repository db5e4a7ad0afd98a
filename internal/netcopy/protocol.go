package netcopy

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The protocol, one TCP connection:
//
//	sender: "IOMARK-COPY 1 <token> <size>\n"
//	sink:   "OK\n"  or  "REFUSED <reason>\n" (and closes)
//	sender: <size> bytes of data, then closes its side
//	sink:   "DONE <key=value ...>\n" once the data is written and synced (or the copy ended
//	        early: ended=drive-full, ...), then closes.
const (
	magic        = "IOMARK-COPY"
	version      = 1
	maxLineBytes = 512
	tokenBytes   = 16
)

// NewToken returns a one-time token: 128 random bits in hex.
func NewToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// hello is the sender's first line.
type hello struct {
	token string
	size  int64
}

func (h hello) String() string { return fmt.Sprintf("%s %d %s %d\n", magic, version, h.token, h.size) }

// readLine reads one line of at most maxLineBytes, without its newline.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) && len(b) > 0 {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		if c == '\n' {
			return string(b), nil
		}
		if len(b) >= maxLineBytes {
			return "", errors.New("line too long")
		}
		b = append(b, c)
	}
}

// parseHello decodes the sender's first line.
func parseHello(line string) (hello, error) {
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != magic {
		return hello{}, errors.New("not an iomark sender")
	}
	if v, err := strconv.Atoi(f[1]); err != nil || v != version {
		return hello{}, fmt.Errorf("protocol version %q: this sink speaks %d (use the same iomark version on both sides)", f[1], version)
	}
	size, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil || size <= 0 || size > 1<<50 {
		return hello{}, fmt.Errorf("size %q is not a byte count", f[3])
	}
	return hello{token: f[2], size: size}, nil
}

// tokenMatches compares in constant time.
func tokenMatches(got, want string) bool {
	return len(got) == len(want) && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// Summary is what the sink tells the sender at the end ("DONE ..." line).
type Summary struct {
	WrittenBytes int64
	NetMBPerS    float64
	DriveMBPerS  float64
	Limit        string
	Ended        string
}

func (s Summary) line() string {
	return fmt.Sprintf("DONE written=%d net_mb_per_s=%.2f drive_mb_per_s=%.2f limit=%s ended=%s\n",
		s.WrittenBytes, s.NetMBPerS, s.DriveMBPerS, s.Limit, s.Ended)
}

// parseSummary decodes a "DONE ..." line; unknown keys are ignored.
func parseSummary(line string) (Summary, error) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "DONE" {
		return Summary{}, fmt.Errorf("not a summary: %q", line)
	}
	var s Summary
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch k {
		case "written":
			s.WrittenBytes, _ = strconv.ParseInt(v, 10, 64)
		case "net_mb_per_s":
			s.NetMBPerS, _ = strconv.ParseFloat(v, 64)
		case "drive_mb_per_s":
			s.DriveMBPerS, _ = strconv.ParseFloat(v, 64)
		case "limit":
			s.Limit = v
		case "ended":
			s.Ended = v
		}
	}
	return s, nil
}
