#!/usr/bin/env bash
# Installs what the tests need from Debian's packages, once. Safe to run again.
# Peers (fio, hdparm) are installed only to compare against; iomark itself never calls them.
set -euo pipefail
need=()
want() { command -v "$1" >/dev/null 2>&1 || need+=("$2"); }
want fio fio
want hdparm hdparm
want qemu-aarch64-static qemu-user-static
want losetup util-linux
want mkfs.ext4 e2fsprogs
want mkfs.vfat dosfstools
want sfdisk fdisk        # verify's tests partition an emulated card
want file file
want chromium chromium  # the results site's browser tests (never a downloaded browser)
want bpftrace bpftrace  # bench/engine-vs-fio -trace: the kernel times each request (a peer, never used by iomark)
# The QEMU lab (internal/qemulab): emulators, and the tools that unpack Debian kernels and build
# an initramfs. Kernels and busybox themselves are fetched by the lab with apt-get download.
want qemu-system-x86_64 qemu-system-x86
want qemu-system-aarch64 qemu-system-arm
want modprobe kmod
want cpio cpio
want fdtput device-tree-compiler
want xz xz-utils
want python3 python3    # schemathesis (PyPI, in a virtual environment test.sh makes)
python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
# initdb is not on PATH: look where Debian puts it. The store tests start their own server.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup-test-deps: missing ${need[*]}; run as root (or: sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "setup-test-deps: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "${need[@]}" >/dev/null
fi
