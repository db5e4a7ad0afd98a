package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/netcopy"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/runner"
	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/target"
)

func init() { subcommands = append(subcommands, newSinkCmd) }

type sinkFlags struct {
	listen     string
	asJSON     bool
	dsn        string
	noSave     bool
	powerWatts float64
	idle       time.Duration
}

func newSinkCmd() *cobra.Command {
	f := &sinkFlags{}
	cmd := &cobra.Command{
		Use:   "sink --listen ADDR:PORT TARGET",
		Short: "Receive a network copy (iomark send) and write it to the drive holding TARGET",
		Long: `sink is the receiving side of the network-fed sustained write: it prints a one-time token,
waits for the one sender that presents it (iomark send on another machine; others are
refused), writes what arrives to one test file in the directory TARGET with O_DIRECT, and
reports the network rate, the drive's rate, which side was the limit, the cliff and the
temperatures over the copy, compared with the drive's local sustained write when one is on
record. The file is removed at the end (also when the sender stops, the drive fills up or on
Ctrl-C) and the run is saved like iomark run's, as profile network-copy (docs/methodology.md).`,
		Example: `  iomark sink --listen 0.0.0.0:5201 /mnt/usb      # on the Pi
  iomark send pi.local:5201 --size 10G --token …  # on another machine, as sink prints`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runSink(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "", "address and port to listen on, e.g. 0.0.0.0:5201 (required)")
	fl.BoolVar(&f.asJSON, "json", false, "print only the result record as JSON")
	addDBFlag(cmd, &f.dsn)
	fl.BoolVar(&f.noSave, "no-save", false, "do not save the run in the results database")
	fl.Float64Var(&f.powerWatts, "power-watts", 0, "the power a meter showed during the copy (W), when the machine reports none (docs/power.md)")
	fl.DurationVar(&f.idle, "idle-timeout", time.Minute, "end the copy when no data arrives for this long")
	return cmd
}

func runSink(cmd *cobra.Command, path string, f *sinkFlags) error {
	if f.listen == "" {
		return usageError("--listen ADDR:PORT is required, e.g. --listen 0.0.0.0:5201")
	}
	if f.powerWatts < 0 || f.powerWatts > 10000 {
		return usageError("--power-watts %v: give the watts your meter showed (e.g. 6.4)", f.powerWatts)
	}
	if f.idle <= 0 {
		return usageError("--idle-timeout must be positive")
	}
	stderr := cmd.ErrOrStderr()
	abs, err := filepath.Abs(path)
	if err != nil {
		return withExit(exitFailure, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return usageError("%s: TARGET must be an existing directory on the drive to measure (the copy is written to one file inside it)", path)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var st *store.Store
	if !f.noSave {
		if st, err = openForSave(ctx, f.dsn); err != nil {
			return err
		}
		defer st.Close()
	}

	line := newLiveLine(stderr)
	logf := func(format string, args ...any) {
		line.clear()
		fmt.Fprintf(stderr, "iomark: "+format+"\n", args...)
	}
	s, err := netcopy.Listen(netcopy.SinkConfig{Listen: f.listen, Dir: abs, Env: sinkEnv(stderr, abs, f, logf), IdleTimeout: f.idle, Log: logf,
		Progress: func(p engine.StreamProgress) {
			line.draw(statusText(status{What: fmt.Sprintf("received %s  network %.1f MB/s, drive", report.Bytes(p.ReceivedBytes), p.NetMBPerS),
				MBPerS: p.DriveMBPerS, Elapsed: p.Elapsed}))
		}})
	if err != nil {
		return withExit(exitFailure, err)
	}
	defer s.Close()
	fmt.Fprintf(stderr, "iomark: sink listening on %s, writing to %s\n", s.Addr(), abs)
	fmt.Fprintf(stderr, "iomark: on the sending machine run (one copy; the token works once):\n")
	for _, host := range sinkHosts(s.Addr()) {
		fmt.Fprintf(stderr, "  iomark send %s --size 10G --token %s\n", host, s.Token())
	}
	rec, serveErr := s.Serve(ctx)
	line.clear()
	if rec == nil {
		if errors.Is(serveErr, context.Canceled) {
			return withExit(exitInterrupted, errors.New("interrupted before a sender arrived: nothing was written"))
		}
		return withExit(exitFailure, serveErr)
	}
	compareLocal(ctx, f.dsn, rec, stderr)
	whyNot := ""
	switch {
	case f.noSave:
		whyNot = "--no-save was given"
	case len(rec.Tests) == 0 || rec.BytesWritten == 0:
		whyNot = "nothing was written"
	}
	saved, saveErr := keepRun(ctx, st, f.dsn, rec, whyNot)
	out := cmd.OutOrStdout()
	if f.asJSON {
		if err := printJSON(out, rec); err != nil {
			return withExit(exitFailure, err)
		}
		fmt.Fprintf(stderr, "iomark: %s\n", report.RunLine(rec, saved))
	} else {
		if err := report.Terminal(out, rec, report.TermOptions{Color: isTerminal(out), Saved: saved}); err != nil {
			return withExit(exitFailure, err)
		}
	}
	return measuredStatus(rec, serveErr, saveErr)
}

// sinkEnv gathers the facts of the drive holding dir and wires them into what the copy's
// record needs.
func sinkEnv(stderr io.Writer, dir string, f *sinkFlags, logf func(string, ...any)) runner.Env {
	facts, err := target.Gather(dir, target.Options{Health: true})
	if err != nil {
		fmt.Fprintf(stderr, "iomark: could not identify the drive (%v); measuring anyway\n", err)
	}
	env := runner.Env{Probe: facts.Report, Log: logf, ToolVersion: Version(), ToolCommit: Commit(), Health: facts.Health}
	sensors := facts.Sensors(target.SensorOptions{MeterWatts: f.powerWatts})
	env.Power, env.DriveTemp, env.Sensors = sensors.Power, sensors.DriveTemp, sensors.Sample
	noPowerNote(stderr, sensors)
	return env
}

// compareLocal puts the drive's latest local sustained rate on record beside the copy.
func compareLocal(ctx context.Context, dsn string, rec *record.Run, stderr io.Writer) {
	if len(rec.Tests) == 0 || rec.Tests[0].Network == nil {
		return
	}
	st, err := openStore(context.WithoutCancel(ctx), dsn)
	if err != nil {
		fmt.Fprintf(stderr, "iomark: %v — not compared with earlier runs\n", err)
		return
	}
	defer st.Close()
	local, rate, ok, err := runstore.LatestSustained(context.WithoutCancel(ctx), st, rec)
	if err != nil {
		fmt.Fprintf(stderr, "iomark: %v — not compared with earlier runs\n", err)
		return
	}
	if ok {
		rec.Tests[0].Network.LocalSustainedMBPerS = &rate
		rec.Tests[0].Network.LocalRunID = local.ID
	}
}

// sinkHosts are the addresses a sender can use: the listening address, or each of this
// machine's non-loopback addresses when listening on all of them.
func sinkHosts(a net.Addr) []string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return []string{a.String()}
	}
	var out []string
	addrs, _ := net.InterfaceAddrs()
	for _, ad := range addrs {
		if ipn, ok := ad.(*net.IPNet); ok && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			out = append(out, net.JoinHostPort(ipn.IP.String(), fmt.Sprint(tcp.Port)))
		}
	}
	if len(out) == 0 {
		out = append(out, net.JoinHostPort("THIS-HOST", fmt.Sprint(tcp.Port)))
	}
	return out
}
