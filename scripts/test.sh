#!/usr/bin/env bash
# Every test of the project: the one command README.md gives and .ci/run calls.
# Installs what tests need, checks formatting, the generated pages and vet, runs all Go tests
# (the I/O tests build throttled loop devices from files they create, so run as root to exercise
# them; the QEMU lab of internal/testkit/qemu boots Debian kernels, kept in /var/cache/iomark-qemu,
# about 2 minutes),
# then builds the five release targets and runs the arm builds under qemu-user, and builds and
# checks the release (scripts/release-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-test-deps.sh

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

echo "== templ generate (the site's pages: the committed *_templ.go are what their .templ files give)"
go tool templ generate -log-level error
git diff --exit-code -- '*_templ.go'
untracked=$(git ls-files --others --exclude-standard -- '*_templ.go')
if [ -n "$untracked" ]; then echo "templ generated files not committed:"; echo "$untracked"; exit 1; fi

echo "== go vet"
go vet ./...

echo "== schemathesis (for TestSchemathesis: the API against its OpenAPI document)"
# Installed from PyPI on every run, every package pinned (scripts/schemathesis-requirements.txt),
# into a virtual environment in a temporary directory this script removes when it exits (25 s
# here at load 2, 2 min 15 s at load 13). IOMARK_SCHEMATHESIS, when already set, names one to use instead.
SCHEMATHESIS_VERSION=4.32.5
if [ -z "${IOMARK_SCHEMATHESIS:-}" ]; then
  schemathesis_dir=$(mktemp -d "${TMPDIR:-/tmp}/iomark-schemathesis.XXXXXX")
  trap 'rm -rf "$schemathesis_dir"' EXIT
  python3 -m venv "$schemathesis_dir/venv"
  "$schemathesis_dir/venv/bin/pip" install --quiet --disable-pip-version-check \
    -r scripts/schemathesis-requirements.txt
  IOMARK_SCHEMATHESIS="$schemathesis_dir/venv/bin/schemathesis"
fi
if [[ "$("$IOMARK_SCHEMATHESIS" --version)" != *" $SCHEMATHESIS_VERSION" ]]; then
  echo "$IOMARK_SCHEMATHESIS is not schemathesis $SCHEMATHESIS_VERSION"; exit 1
fi
export IOMARK_SCHEMATHESIS

echo "== go test"
# -p 1: the I/O tests measure throttled devices; running packages side by side on two cores
# would make them compete for CPU.
go test -count=1 -p 1 -timeout 40m ./...

echo "== fuzz (short)"
bash scripts/fuzz.sh

echo "== cross builds and qemu-user smoke tests"
bash scripts/cross-check.sh

echo "== release: reproducible from two clones, packages, install.sh, the .deb in a chroot"
# Every binary must be at most 20 MiB (docs/decisions.md, "Binary size").
bash scripts/release-test.sh

echo "== all tests passed in ${SECONDS}s"
