# shellcheck shell=bash disable=SC2034
# The go build flags of every release binary, sourced by scripts/build.sh and
# scripts/release.sh so that what CI measures is what ships.
#
# iomark_gcflags: no inlining (-l) except where iomark's I/O runs. Inlining copies a function's
# body into each caller; turned off it takes about 1 MB (5%) off the amd64 binary, which the
# 20 MiB budget needs (docs/decisions.md, "Binary size"). What keeps inlining is every package
# an I/O passes through while it is timed: the engine, verify's reads and writes
# (internal/flash), the latency histograms and their HdrHistogram, the runtime (scheduler,
# timers, maps) and the standard library's internal packages, sync, time, math
# (math/rand/v2 picks each offset), encoding/binary (stamps each write) and
# golang.org/x/sys/unix. A package compiled with -l exports no inline bodies, so these also
# stay inlined in the engine's own code. The rest (PostgreSQL, the site, charts, reports)
# runs between measurements, where a call more costs nanoseconds. SQLite (modernc.org, C
# translated to Go) keeps it too: without inlining its code grows, by 188 KB.
# A pattern given later wins for the packages it matches (go help build).
iomark_gcflags=(
  -gcflags='all=-l'
  -gcflags='runtime=' -gcflags='internal/...=' -gcflags='sync/...=' -gcflags='time='
  -gcflags='math/...=' -gcflags='encoding/binary=' -gcflags='golang.org/x/sys/unix='
  -gcflags='github.com/HdrHistogram/...=' -gcflags='modernc.org/...='
  -gcflags='github.com/iomark/iomark/internal/engine=' -gcflags='github.com/iomark/iomark/internal/stats='
  -gcflags='github.com/iomark/iomark/internal/flash='
)
