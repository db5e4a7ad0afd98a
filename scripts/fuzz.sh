#!/usr/bin/env bash
# Runs every Go fuzz target of the project for a short time (FUZZTIME, default 10s): decoders
# of sysfs registers, revision codes, mountinfo, fio JSON and published data must not panic on
# any input. New Fuzz* functions are picked up without editing this script.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
  pkg=./$(dirname "${file#./}")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
    echo "-- fuzz $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tail -n 20
    test "${PIPESTATUS[0]}" -eq 0
  done
done
