package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/netcopy"
)

func init() { subcommands = append(subcommands, newSendCmd) }

// sendJSON is `iomark send --json`.
type sendJSON struct {
	SentBytes int64            `json:"sent_bytes"`
	DurationS float64          `json:"duration_s"`
	MBPerS    float64          `json:"mb_per_s"`
	Sink      *netcopy.Summary `json:"sink,omitempty"`
	Error     string           `json:"error,omitempty"`
}

func newSendCmd() *cobra.Command {
	var size, token string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "send HOST:PORT --size 10G --token TOKEN",
		Short: "Send a network copy to an iomark sink (the sending side of the long network-fed write)",
		Long: `send connects to the sink (started there with iomark sink) on HOST:PORT. iomark send presents
the one-time token the sink printed (--token, or typed when asked on a terminal) and sends
--size bytes (binary suffixes: 10G is 10 GiB) of incompressible data that never repeats a
sector. It writes nothing to this machine's drives. At the end it prints its own
rate and what the sink measured on its drive.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := engine.ParseSize(size)
			if err != nil || n <= 0 {
				return usageError("--size %q: give a size such as 10G", size)
			}
			if token == "" && isTerminal(cmd.InOrStdin()) {
				token = askToken(cmd.InOrStdin(), cmd.ErrOrStderr())
			}
			if token == "" {
				return usageError("--token is required: copy it from what iomark sink printed")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			stderr := cmd.ErrOrStderr()
			line := newLiveLine(stderr)
			res, sendErr := netcopy.Send(ctx, netcopy.SendConfig{Addr: args[0], Token: token, Size: n,
				Progress: func(sent int64, el time.Duration) {
					left, _ := estimateLeft(sent, n, el)
					st := status{What: "sending", Done: sent, Total: n, Elapsed: el, Left: left}
					if el > 0 {
						st.MBPerS = float64(sent) / el.Seconds() / 1e6
					}
					line.draw(statusText(st))
				}})
			line.clear()
			out := cmd.OutOrStdout()
			if asJSON {
				j := sendJSON{}
				if res != nil {
					j.SentBytes, j.DurationS, j.MBPerS, j.Sink = res.SentBytes, res.DurationS, res.MBPerS, res.Sink
				}
				if sendErr != nil {
					j.Error = sendErr.Error()
				}
				if err := printJSON(out, j); err != nil {
					return withExit(exitFailure, err)
				}
			} else if res != nil {
				fmt.Fprintf(out, "sent %.2f GB in %.1f s: %.1f MB/s\n", float64(res.SentBytes)/1e9, res.DurationS, res.MBPerS)
				if s := res.Sink; s != nil {
					fmt.Fprintf(out, "the sink wrote %.2f GB: network %.1f MB/s, drive %.1f MB/s while writing, limit: %s (%s)\n",
						float64(s.WrittenBytes)/1e9, s.NetMBPerS, s.DriveMBPerS, s.Limit, s.Ended)
					fmt.Fprintln(out, "the full result (cliff, temperatures, comparison) is on the sink")
				}
			}
			if sendErr != nil {
				if ctx.Err() != nil {
					return withExit(exitInterrupted, sendErr)
				}
				if errors.Is(sendErr, ctx.Err()) {
					return withExit(exitInterrupted, sendErr)
				}
				return withExit(exitFailure, sendErr)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&size, "size", "10G", "bytes to send (10G = 10 GiB)")
	cmd.Flags().StringVar(&token, "token", "", "the one-time token iomark sink printed (asked for when omitted on a terminal)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// askToken asks for the sink's token on a terminal, so that the command as people first type
// it (iomark send HOST:PORT --size 10G) works; "" when nothing was typed.
func askToken(in io.Reader, stderr io.Writer) string {
	fmt.Fprint(stderr, "token (printed by iomark sink on the receiving machine): ")
	line, _ := bufio.NewReader(in).ReadString('\n')
	return strings.TrimSpace(line)
}
