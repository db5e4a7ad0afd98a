#!/usr/bin/env bash
# Installs what the tests need from Debian's packages, once. Safe to run again.
# Peers (fio, hdparm) are installed only to compare against; iomark itself never calls them.
set -euo pipefail
need=()
want() { command -v "$1" >/dev/null 2>&1 || need+=("$2"); }
want fio fio
want hdparm hdparm
want f3probe f3          # bench/verify-vs-f3 sets iomark verify beside f3probe, f3write and f3read
want flashbench flashbench  # bench/verify-vs-f3: info --geometry beside flashbench -a
want qemu-aarch64-static qemu-user-static
want losetup util-linux
want mkfs.ext4 e2fsprogs
want mkfs.vfat dosfstools
want sfdisk fdisk        # verify's tests partition an emulated card
want file file
want chromium chromium  # the results site's browser tests (never a downloaded browser)
want bpftrace bpftrace  # bench/engine-vs-fio -trace: the kernel times each request (a peer, never used by iomark)
# The QEMU lab (internal/testkit/qemu): emulators, and the tools that unpack Debian kernels and build
# an initramfs. Kernels and busybox themselves are fetched by the lab with apt-get download.
want qemu-system-x86_64 qemu-system-x86
want qemu-system-aarch64 qemu-system-arm
want modprobe kmod
want cpio cpio
want fdtput device-tree-compiler
want xz xz-utils
want python3 python3    # schemathesis (PyPI, in a virtual environment test.sh makes); install.sh's test mirror
# The release test (scripts/release-test.sh): install.sh under dash and busybox, shellcheck, and a
# bookworm chroot to install the .deb in (never on this machine).
want shellcheck shellcheck
want busybox busybox
want debootstrap debootstrap
want curl curl          # install.sh's first choice (busybox's wget is the other)
python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
# initdb is not on PATH: look where Debian puts it. The store tests start their own server.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# iozone (bench/sbc-vs-iozone: the sbc-reviews block beside the template's iozone line) is in
# Debian's non-free component, which a default bookworm source list leaves out: add it.
if ! command -v iozone >/dev/null 2>&1; then
  need+=(iozone3)
  if [ "$(id -u)" = 0 ] && ! grep -rqs 'non-free' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      > /etc/apt/sources.list.d/debian-non-free.sources
  fi
fi
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

# Kernel interfaces a fresh machine has not set up (each step is a no-op where it is done):
# tracefs for the kernel-trace tests (bpftrace says "tracepoint not found" without it), the loop
# driver for the throttled devices, FUSE for the emulated cards.
if [ "$(id -u)" = 0 ]; then
  if [ -d /sys/kernel/tracing ] && ! grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts; then
    mount -t tracefs tracefs /sys/kernel/tracing || echo "setup-test-deps: cannot mount tracefs on /sys/kernel/tracing; the kernel-trace tests will fail" >&2
  fi
  [ -e /dev/loop-control ] || modprobe loop 2>/dev/null || echo "setup-test-deps: no loop driver (modprobe loop failed); the I/O tests will fail" >&2
  [ -e /dev/fuse ] || modprobe fuse 2>/dev/null || mknod -m 0666 /dev/fuse c 10 229 || echo "setup-test-deps: no /dev/fuse; the emulated-card tests will fail" >&2
fi
