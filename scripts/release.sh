#!/usr/bin/env bash
# Release artifacts: scripts/release.sh VERSION OUTDIR
#   OUTDIR/iomark_VERSION_linux_{amd64,arm64,armv6,armv7,riscv64}.tar.gz  binary, README, LICENSE,
#          man pages, bash/zsh/fish completions
#   OUTDIR/iomark_VERSION_{amd64,arm64,armhf,armel,riscv64}.deb          made by nfpm (pinned)
#   OUTDIR/install.sh, OUTDIR/LATEST (the version), OUTDIR/SHA256SUMS over all of them
# The same commit gives the same bytes whatever the clone's directory, umask or TZ: every
# timestamp is the commit's (SOURCE_DATE_EPOCH), every mode is set here, go builds with
# -trimpath and no build id. Every binary must be at most IOMARK_MAX_BINARY_MIB MiB (20).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/goflags.sh

NFPM=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2 # pinned: newer ones need a newer Go
if [ $# -ne 2 ]; then echo "usage: scripts/release.sh VERSION OUTDIR (e.g. 0.1.0 out/)" >&2; exit 2; fi
version=${1#v}
out=$2
case $version in
  [0-9]*.[0-9]*.[0-9]*) ;;
  *) echo "release: version $1 is not MAJOR.MINOR.PATCH (e.g. 0.1.0)" >&2; exit 2 ;;
esac
max_mib=${IOMARK_MAX_BINARY_MIB:-20}

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export TZ=UTC LC_ALL=C
umask 022
commit=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "release: the work tree has uncommitted changes; the binaries would not be the commit's" >&2
  [ "${IOMARK_RELEASE_DIRTY:-}" = 1 ] || exit 1
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/iomark-release.XXXXXX")
trap 'rm -rf "$stage"' EXIT

ld="-s -w -buildid= -X github.com/iomark/iomark/internal/cli.version=$version -X github.com/iomark/iomark/internal/cli.commit=$commit"
echo "== man pages and completions"
GOFLAGS=-buildvcs=false go run -trimpath -ldflags "$ld" ./scripts/gendocs "$stage/docs"
gzip -9n "$stage"/docs/man/*.1

# name goarch goarm: the tarball and binary names; armv5 goes only into the armel package.
targets="amd64:amd64: arm64:arm64: armv5:arm:5 armv6:arm:6 armv7:arm:7 riscv64:riscv64:"
too_big=0
for t in $targets; do
  IFS=: read -r name goarch goarm <<<"$t"
  echo "== build $name"
  mkdir -p "$stage/bin/$name"
  CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm GOFLAGS=-buildvcs=false \
    go build -trimpath "${iomark_gcflags[@]}" -ldflags "$ld" -o "$stage/bin/$name/iomark" ./cmd/iomark
  size=$(stat -c %s "$stage/bin/$name/iomark")
  if [ "$size" -gt $((max_mib * 1024 * 1024)) ]; then
    echo "release: $name binary is $size bytes ($(awk "BEGIN{printf \"%.2f\", $size/1048576}") MiB), over the ${max_mib} MiB budget (docs/decisions.md, binary size)" >&2
    too_big=1
  fi
  printf '%s %s\n' "$name" "$size" >>"$stage/sizes"
done
[ "$too_big" = 0 ] || exit 1

# tarfile DIR NAME: a gzipped tar of DIR's contents under NAME/, owned by root, the commit's time.
tarfile() {
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    --mode='u+rwX,go+rX,go-w' --format=gnu -C "$(dirname "$1")" -cf - "$(basename "$1")" | gzip -9n >"$out/$2"
}

for name in amd64 arm64 armv6 armv7 riscv64; do
  echo "== archive $name"
  d="$stage/tar/iomark_${version}_linux_$name"
  mkdir -p "$d/man" "$d/completions"
  install -m 0755 "$stage/bin/$name/iomark" "$d/iomark"
  install -m 0644 README.md LICENSE "$d/"
  install -m 0644 "$stage"/docs/man/*.1.gz "$d/man/"
  install -m 0644 "$stage"/docs/completions/* "$d/completions/"
  tarfile "$d" "iomark_${version}_linux_$name.tar.gz"
done

# nfpm is built once per release from the module proxy, at its pinned version.
GOBIN="$stage/tools" go install "$NFPM"

# Debian's copyright file: the machine-readable header, then the licence itself.
{
  printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
  printf 'Upstream-Name: iomark\nSource: https://github.com/iomark/iomark\n\n'
  printf 'Files: *\nCopyright: the iomark authors\nLicense: Apache-2.0\n\n'
  printf 'License: Apache-2.0\n'
  sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' LICENSE
} >"$stage/copyright"

# deb arch : binary. armhf carries the ARMv6 build: Raspberry Pi OS 32-bit is armhf on every Pi
# and built for ARMv6, so an ARMv7 binary would die on a Pi Zero or 1. armel is Debian's ARMv5.
for t in amd64:amd64 arm64:arm64 armhf:armv6 armel:armv5 riscv64:riscv64; do
  IFS=: read -r arch name <<<"$t"
  echo "== package $arch ($name binary)"
  cfg="$stage/nfpm-$arch.yaml"
  {
    cat <<EOF
name: iomark
arch: $arch
platform: linux
version: $version
version_schema: none
section: utils
priority: optional
maintainer: iomark maintainers <iomark@users.noreply.github.com>
homepage: https://github.com/iomark/iomark
license: Apache-2.0
mtime: "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)"
description: |-
  Honest storage benchmarks for the Raspberry Pi and any Linux machine.
  iomark tells what a drive is, what stands between it and the CPU, how fast it
  really is and whether it is fake, and compares it with published results.
  It also serves a results site (iomark serve; iomark-serve.service, not enabled).
contents:
  - {src: "$stage/bin/$name/iomark", dst: /usr/bin/iomark, file_info: {mode: 0755}}
  - {src: "$stage/copyright", dst: /usr/share/doc/iomark/copyright, file_info: {mode: 0644}}
  - {src: packaging/iomark-serve.service, dst: /lib/systemd/system/iomark-serve.service, file_info: {mode: 0644}}
  - {src: "$stage/docs/completions/iomark.bash", dst: /usr/share/bash-completion/completions/iomark, file_info: {mode: 0644}}
  - {src: "$stage/docs/completions/_iomark", dst: /usr/share/zsh/vendor-completions/_iomark, file_info: {mode: 0644}}
  - {src: "$stage/docs/completions/iomark.fish", dst: /usr/share/fish/vendor_completions.d/iomark.fish, file_info: {mode: 0644}}
EOF
    for m in "$stage"/docs/man/*.1.gz; do
      printf '  - {src: "%s", dst: /usr/share/man/man1/%s, file_info: {mode: 0644}}\n' "$m" "$(basename "$m")"
    done
  } >"$cfg"
  "$stage/tools/nfpm" package --config "$cfg" --packager deb --target "$out/iomark_${version}_$arch.deb" >/dev/null
done

echo "$version" >"$out/LATEST"
install -m 0644 install.sh "$out/install.sh"
(cd "$out" && sha256sum iomark_"${version}"_* LATEST install.sh >SHA256SUMS)
echo "== release $version in $out"
awk '{printf "  %-8s %10d bytes  %.2f MiB\n", $1, $2, $2/1048576}' "$stage/sizes"
cat "$out/SHA256SUMS"
