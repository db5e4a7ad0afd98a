#!/usr/bin/env bash
# Builds static release binaries: scripts/build.sh [OUTDIR] -> OUTDIR/iomark-linux-{amd64,arm64,armv6,armv7,riscv64}
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/goflags.sh
out=${1:-dist}
mkdir -p "$out"
ver=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
rev=$(git rev-parse HEAD 2>/dev/null || echo unknown)
ld="-s -w -X github.com/iomark/iomark/internal/cli.version=$ver -X github.com/iomark/iomark/internal/cli.commit=$rev"
build() { # name goarch [goarm]
  echo "building $1"
  CGO_ENABLED=0 GOOS=linux GOARCH=$2 GOARM=${3:-} go build -trimpath "${iomark_gcflags[@]}" -ldflags "$ld" -o "$out/iomark-linux-$1" ./cmd/iomark
}
build amd64 amd64
build arm64 arm64
build armv6 arm 6
build armv7 arm 7
build riscv64 riscv64
