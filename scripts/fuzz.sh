#!/usr/bin/env bash
# Runs every Go fuzz target of the project briefly (FUZZTIME inputs each, default 100000x): decoders
# of sysfs registers, revision codes, mountinfo, fio JSON and published data must not panic on
# any input. New Fuzz* functions are picked up without editing this script.
set -euo pipefail
cd "$(dirname "$0")/.."
# A count, not a duration: Go 1.26's fuzz coordinator can report a spurious "context deadline
# exceeded" failure when a duration-based -fuzztime ends under CPU load (golang/go#75804,
# fixed in Go 1.27); an input count never races that deadline.
fuzztime=${FUZZTIME:-100000x}
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
  pkg=./$(dirname "${file#./}")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
    echo "-- fuzz $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tail -n 20
    test "${PIPESTATUS[0]}" -eq 0
  done
done
