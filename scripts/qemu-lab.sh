#!/usr/bin/env bash
# The QEMU lab by hand (docs/qemu-lab.md): installs its Debian packages if missing, then runs
# scripts/qemu-lab: list | boot CONFIG [-console] [-sh SCRIPT]... | capture CONFIG [DIR].
# Kernels and busybox are downloaded once into $IOMARK_QEMU_CACHE (default /var/cache/iomark-qemu).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-deps.sh
exec go run ./scripts/qemu-lab "$@"
