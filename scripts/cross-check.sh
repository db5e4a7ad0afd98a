#!/usr/bin/env bash
# Builds every release target and runs `iomark version` and a small psync job on a file under
# qemu-user for arm64 and armv7 (and riscv64 where qemu has it). io_uring answers ENOSYS under
# qemu-user, so --engine auto must fall back to psync there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d /tmp/iomark-cross.XXXXXX)
work=$(mktemp -d /var/tmp/iomark-cross-work.XXXXXX)
trap 'rm -rf "$out" "$work"' EXIT
bash scripts/build.sh "$out"
for f in "$out"/iomark-linux-*; do
  file "$f" 2>/dev/null | grep -q 'statically linked' || { command -v file >/dev/null && { echo "$f is not static"; exit 1; }; }
done
smoke() { # qemu-binary name
  local q=$1 name=$2
  if ! command -v "$q" >/dev/null; then echo "cross-check: $q missing"; exit 1; fi
  echo "-- $name under $q"
  "$q" "$out/iomark-linux-$name" version
  "$q" "$out/iomark-linux-$name" job --target "$work" --rw randrw --bs 4k --qd 4 --size 8m --runtime 1s --engine auto --json >"$work/$name.json"
  grep -q '"engine": *"psync"' "$work/$name.json" || { echo "$name: expected the psync fallback under qemu-user"; cat "$work/$name.json"; exit 1; }
  grep -q '"ios": *[1-9]' "$work/$name.json" || { echo "$name: job did no I/O"; cat "$work/$name.json"; exit 1; }
  [ -z "$(ls -A "$work" | grep -v json)" ] || { echo "$name: job left a file behind"; ls -la "$work"; exit 1; }
}
smoke qemu-aarch64-static arm64
smoke qemu-arm-static armv7
if command -v qemu-riscv64-static >/dev/null; then smoke qemu-riscv64-static riscv64; fi
echo "cross-check: ok"
