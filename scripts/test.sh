#!/usr/bin/env bash
# Every test of the project: the one command README.md gives and .ci/run calls.
# Installs what tests need, checks formatting and vet, runs all Go tests (the I/O tests build
# throttled loop devices from files they create, so run as root to exercise them; the QEMU lab
# of internal/qemulab boots Debian kernels, kept in /var/cache/iomark-qemu, about 2 minutes),
# then builds the five release targets and runs the arm builds under qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-test-deps.sh

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

echo "== go vet"
go vet ./...

echo "== go test"
# -p 1: the I/O tests measure throttled devices; running packages side by side on two cores
# would make them compete for CPU.
go test -count=1 -p 1 -timeout 40m ./...

echo "== fuzz (short)"
bash scripts/fuzz.sh

echo "== cross builds and qemu-user smoke tests"
bash scripts/cross-check.sh

echo "== all tests passed in ${SECONDS}s"
