#!/usr/bin/env bash
# The release test, run by scripts/test.sh: builds the release twice, from two clones of HEAD in
# different directories with different umask and TZ, and checks that
#   - both give the same SHA256SUMS, and `sha256sum -c` passes;
#   - every binary is within the size budget (scripts/release.sh fails otherwise);
#   - the archives and packages hold what they should; the arm64, armv7 and riscv64 binaries run
#     `iomark version` under qemu-user, the armhf package's under an ARM1176 (Pi Zero/1) and the
#     armel package's under an ARM926 (ARMv5);
#   - install.sh (shellcheck -s sh) installs from a local HTTP mirror under dash and under busybox
#     (sh, wget, tar, sha256sum), upgrades when run again, and refuses a tampered archive
#     without installing anything;
#   - in a debootstrap'ed bookworm chroot (never this machine) the amd64 .deb installs,
#     `iomark --version`, `man iomark` and completion work, `systemd-analyze verify` accepts the
#     unit, and `dpkg --purge` leaves none of the package's files.
# The chroot is built once (about 3 minutes) and kept as a tarball in /var/cache/iomark-chroot.
# Needs root for the chroot; without root that part says so and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.1.0
work=$(mktemp -d /var/tmp/iomark-release-test.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if mountpoint -q "$work/root/proc" 2>/dev/null; then umount "$work/root/proc" || umount -l "$work/root/proc"; fi
  # --one-file-system: never follow a mount that did not come off into the chroot's /proc.
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
fail() { echo "release-test: $*" >&2; exit 1; }

echo "-- what the binary links"
# The charts draw on gonum's vg canvases with one font; gonum.org/v1/plot itself would add eleven
# more fonts and three unused back ends, gonum/stat its matrix code (docs/decisions.md).
deps=$(go list -deps ./cmd/iomark)
for p in gonum.org/v1/plot gonum.org/v1/gonum/stat gonum.org/v1/gonum/mat codeberg.org/go-pdf/fpdf; do
  if grep -qx "$p" <<<"$deps"; then fail "cmd/iomark links $p"; fi
done
# The charts' one font is internal/report/font's, embedded gzipped; no font package of
# go-fonts is linked (the Go fonts that gonum's plot/text links for its LaTeX handler are
# docs/decisions.md's "Binary size" remainder).
if grep -E '^(codeberg.org/go-fonts/|github.com/go-fonts/)' <<<"$deps"; then
  fail "cmd/iomark links a go-fonts package besides internal/report/font"
fi
echo "ok: no gonum.org/v1/plot, gonum/stat or fpdf; one font (internal/report/font)"

echo "-- two clones of $(git rev-parse --short HEAD)"
git clone -q --no-hardlinks . "$work/a"
mkdir -p "$work/deep/other"
git clone -q --no-hardlinks . "$work/deep/other/b"
(cd "$work/a" && umask 022 && TZ=UTC bash scripts/release.sh "$version" "$work/out-a")
(cd "$work/deep/other/b" && umask 077 && TZ=Pacific/Chatham LC_ALL=C.UTF-8 bash scripts/release.sh "$version" "$work/out-b") >/dev/null
if ! cmp -s "$work/out-a/SHA256SUMS" "$work/out-b/SHA256SUMS"; then
  diff "$work/out-a/SHA256SUMS" "$work/out-b/SHA256SUMS" || true
  fail "two clones of one commit gave different release bytes"
fi
out=$work/out-a
(cd "$out" && sha256sum --quiet -c SHA256SUMS) || fail "sha256sum -c failed"
[ "$(cat "$out/LATEST")" = "$version" ] || fail "LATEST is not $version"
echo "ok: identical SHA256SUMS from both clones; sha256sum -c passes"

echo "-- archive and package contents"
for a in amd64 arm64 armv6 armv7 riscv64; do
  list=$(tar -tzf "$out/iomark_${version}_linux_$a.tar.gz")
  for f in iomark README.md LICENSE man/iomark.1.gz man/iomark-run.1.gz completions/iomark.bash completions/_iomark completions/iomark.fish; do
    grep -qx "iomark_${version}_linux_$a/$f" <<<"$list" || fail "$a archive lacks $f"
  done
done
for a in amd64 arm64 armhf armel riscv64; do
  deb=$out/iomark_${version}_$a.deb
  [ "$(dpkg-deb -f "$deb" Architecture)" = "$a" ] || fail "$deb is not for $a"
  list=$(dpkg-deb -c "$deb" | awk '{print $6}')
  for f in ./usr/bin/iomark ./usr/share/man/man1/iomark.1.gz ./usr/share/doc/iomark/copyright \
    ./usr/share/bash-completion/completions/iomark ./usr/share/zsh/vendor-completions/_iomark \
    ./usr/share/fish/vendor_completions.d/iomark.fish ./lib/systemd/system/iomark-serve.service; do
    grep -qx "$f" <<<"$list" || fail "$a package lacks $f"
  done
done
echo "ok: archives and packages hold binary, man pages, completions, licence, unit"

echo "-- foreign binaries under qemu-user"
x=$work/x
mkdir -p "$x"
for a in arm64:qemu-aarch64-static armv7:qemu-arm-static riscv64:qemu-riscv64-static; do
  IFS=: read -r name q <<<"$a"
  tar -xzf "$out/iomark_${version}_linux_$name.tar.gz" -C "$x"
  "$q" "$x/iomark_${version}_linux_$name/iomark" version | grep -q "^iomark $version$" || fail "$name binary does not run under $q"
done
for a in armhf:arm1176 armel:arm926; do
  IFS=: read -r arch cpu <<<"$a"
  dpkg-deb -x "$out/iomark_${version}_$arch.deb" "$x/$arch"
  qemu-arm-static -cpu "$cpu" "$x/$arch/usr/bin/iomark" version | grep -q "^iomark $version$" ||
    fail "the $arch package's binary does not run on an $cpu"
done
echo "ok: arm64, armv7, riscv64 run; armhf runs on an arm1176, armel on an arm926"

echo "-- install.sh from a local mirror"
shellcheck -s sh install.sh
mirror=$work/mirror
mkdir -p "$mirror/v$version"
cp "$out/LATEST" "$mirror/"
cp "$out/SHA256SUMS" "$out/iomark_${version}_linux_amd64.tar.gz" "$mirror/v$version/"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$work" "$port" >"$work/http.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/mirror/LATEST')" 2>/dev/null && break
  sleep 0.2
done
base=http://127.0.0.1:$port/mirror
IOMARK_BASE_URL=$base PREFIX=$work/p1 dash install.sh 2>"$work/inst.log" || { cat "$work/inst.log"; fail "install.sh under dash failed"; }
"$work/p1/bin/iomark" --version | grep -q "^iomark $version$" || fail "dash install: wrong binary"
grep -q "next: .*iomark run" "$work/inst.log" || fail "install.sh does not say what to run next"
# busybox alone on PATH: its sh, wget (no curl), tar and sha256sum. Running again upgrades in place.
bb=$work/bb
mkdir -p "$bb"
for applet in $(busybox --list); do ln -sf "$(command -v busybox)" "$bb/$applet"; done
printf 'stale\n' >"$work/p1/bin/iomark"
env -i PATH="$bb" IOMARK_BASE_URL="$base" PREFIX="$work/p1" "$bb/sh" install.sh 2>"$work/inst-bb.log" || { cat "$work/inst-bb.log"; fail "install.sh under busybox failed"; }
"$work/p1/bin/iomark" version | grep -q "^iomark $version$" || fail "busybox re-install did not replace the binary"
# A tampered archive: refused, nothing installed.
mkdir -p "$work/bad/v$version"
cp "$mirror/LATEST" "$work/bad/"
cp "$mirror/v$version/"* "$work/bad/v$version/"
printf 'x' >>"$work/bad/v$version/iomark_${version}_linux_amd64.tar.gz"
if IOMARK_BASE_URL=http://127.0.0.1:$port/bad PREFIX=$work/p2 dash install.sh 2>"$work/inst-bad.log"; then
  fail "install.sh installed a tampered archive"
fi
grep -q "checksum mismatch" "$work/inst-bad.log" || { cat "$work/inst-bad.log"; fail "no checksum error for a tampered archive"; }
[ ! -e "$work/p2" ] || fail "a tampered archive left files in its PREFIX: $(find "$work/p2")"
echo "ok: install.sh installs (dash, curl), upgrades (busybox, wget), refuses a tampered archive"

echo "-- the amd64 package in a bookworm chroot"
[ "$(id -u)" = 0 ] || fail "the chroot test needs root"
cache=/var/cache/iomark-chroot
tarball=$cache/bookworm-minbase-systemd-man.tar.gz
if [ ! -s "$tarball" ]; then
  mkdir -p "$cache"
  echo "building the chroot once (debootstrap bookworm)"
  debootstrap --variant=minbase --include=systemd,man-db,bash-completion bookworm "$work/boot" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; fail "debootstrap failed"; }
  tar -C "$work/boot" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
  rm -rf "${work:?}/boot"
fi
root=$work/root
mkdir -p "$root"
tar -C "$root" -xzf "$tarball"
mount -t proc proc "$root/proc"
cp "$out/iomark_${version}_amd64.deb" "$root/tmp/iomark.deb"
# What dpkg and man-db keep for themselves, and /run (systemd-analyze leaves a stamp there; a tmpfs
# on a real system), are not the package's files.
snapshot() { chroot "$root" find / -xdev \( -path /proc -o -path /run -o -path /tmp -o -path /var/cache -o -path /var/lib/dpkg -o -path /var/log \) -prune -o -print | sort; }
snapshot >"$work/before"
chroot "$root" dpkg -i /tmp/iomark.deb >/dev/null
chroot "$root" iomark --version | grep -q "^iomark $version$" || fail "iomark --version in the chroot"
chroot "$root" env MANPAGER=cat MANWIDTH=80 man iomark 2>/dev/null | grep -q "Honest storage benchmarks" || fail "man iomark shows no page"
# bash_completion returns non-zero when sourced outside an interactive shell: judge by complete -p.
chroot "$root" bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader iomark; complete -p iomark' 2>/dev/null |
  grep -q __start_iomark || fail "bash completion for iomark is not in place"
chroot "$root" systemd-analyze verify /lib/systemd/system/iomark-serve.service 2>"$work/verify.log" || { cat "$work/verify.log"; fail "systemd-analyze verify rejects the unit"; }
[ ! -s "$work/verify.log" ] || { cat "$work/verify.log"; fail "systemd-analyze verify warns about the unit"; }
if chroot "$root" systemctl is-enabled iomark-serve.service >/dev/null 2>&1; then fail "the package enables iomark-serve"; fi
chroot "$root" dpkg --purge iomark >/dev/null
snapshot >"$work/after"
if ! cmp -s "$work/before" "$work/after"; then
  diff "$work/before" "$work/after" || true
  fail "dpkg --purge left files behind"
fi
echo "ok: the .deb installs, runs, has its man page, completion and a valid unit, and purges clean"
echo "release-test: ok"
