package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/runstore"
	"github.com/iomark/iomark/internal/server"
)

func init() { subcommands = append(subcommands, newServeCmd) }

func newServeCmd() *cobra.Command {
	var db, addr, baseURL string
	var memoryMiB int64
	var burstUploads int
	var trustedProxies []string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the results site: pages and the JSON API that iomark run --submit uploads to",
		Long: `serve runs the results site on --addr: pages for searching, drives, boards, results,
comparing and value, and the JSON API under /api/v1 (described at /api/v1/openapi.json).
Results are kept in a SQLite file (the default) or a PostgreSQL database (--db postgres://…);
the published reference results are added at start, marked with their sources.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return usageError("--addr %q: give HOST:PORT, e.g. 127.0.0.1:8080 or :8080", addr)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if memoryMiB < 64 {
				return usageError("--memory %d: give at least 64 (MiB)", memoryMiB)
			}
			if baseURL != "" {
				if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return usageError("--base-url %q: give http(s)://host[:port], the address visitors reach the site at", baseURL)
				}
			}
			proxies, err := server.ParseTrustedProxies(trustedProxies)
			if err != nil {
				return usageError("%v", err)
			}
			return serve(ctx, cmd, db, addr, baseURL, memoryMiB<<20, burstUploads, proxies)
		},
	}
	addDBFlag(cmd, &db)
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on; :8080 listens on every interface")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "public URL of the site for permalinks, e.g. https://results.example (default: the address it listens on)")
	cmd.Flags().IntVar(&burstUploads, "burst-uploads", 30, "hold for review every upload of a drive model past this many within an hour from 10 or more addresses (a launch brings honest bursts: held results wait for `iomark moderate approve`); 0 turns it off")
	cmd.Flags().StringSliceVar(&trustedProxies, "trusted-proxy", nil, "CIDR[,CIDR]: reverse proxies or load balancers whose X-Forwarded-For names the client (the rightmost hop outside these ranges); without it forwarding headers are ignored")
	cmd.Flags().Int64Var(&memoryMiB, "memory", server.DefaultMemoryMiB, "memory budget of the server process in MiB: SQLite's page caches get a quarter, kept rankings an eighth, and the Go runtime is told the rest")
	return cmd
}

func serve(ctx context.Context, cmd *cobra.Command, db, addr, baseURL string, memoryBytes int64, burstUploads int, proxies []netip.Prefix) error {
	logger := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
	plan := server.PlanMemory(memoryBytes)
	debug.SetMemoryLimit(plan.GoLimitBytes)
	st, err := openStoreWith(ctx, db, plan.Store)
	if err != nil {
		return withExit(exitFailure, err)
	}
	defer st.Close()
	if n, err := server.SeedPublished(ctx, st); err != nil {
		logger.Warn("published results", "err", err)
	} else if n > 0 {
		logger.Info("added published reference results", "count", n)
	}
	if n, err := runstore.Redecide(ctx, st); err != nil {
		logger.Warn("re-deciding stored results for the comparison model", "err", err)
	} else if n > 0 {
		logger.Info("re-decided stored results for the comparison model", "count", n)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return withExit(exitFailure, fmt.Errorf("listening on %s: %w; pick another --addr", addr, err))
	}
	if baseURL == "" {
		// Never the Host header of a request: anyone can set it, and permalinks would name their site.
		baseURL = listenURL(ln.Addr())
		logger.Warn("--base-url is not set: permalinks name the address the server listens on; give --base-url with the address visitors reach it at", "permalinks", baseURL)
	}
	if burstUploads == 0 {
		burstUploads = -1 // off
	}
	s, err := server.New(st, server.Options{BaseURL: baseURL, Logger: logger, CacheBytes: plan.CacheBytes, BurstUploads: burstUploads, TrustedProxies: proxies})
	if err != nil {
		ln.Close()
		return withExit(exitFailure, err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	fmt.Fprintf(cmd.ErrOrStderr(), "iomark: serving results on http://%s (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	go func() {
		start := time.Now()
		if err := s.Warm(ctx); err != nil && ctx.Err() == nil {
			logger.Warn("computing the home page's rankings", "err", err)
			return
		}
		logger.Info("home page rankings ready", "took", time.Since(start).Round(time.Millisecond))
	}()
	select {
	case err := <-done:
		s.Close()
		return withExit(exitFailure, err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = hs.Shutdown(shut)
	s.Close() // after the handlers: a running upload is answered first
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return withExit(exitFailure, err)
	}
	return nil
}

// listenURL is http://HOST:PORT of a listening address; an unspecified one (":8080") is named
// localhost, the one name sure to reach it.
func listenURL(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String()
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port))
}
