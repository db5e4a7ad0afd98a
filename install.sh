#!/bin/sh
# Installs iomark: curl -fsSL https://github.com/iomark/iomark/releases/latest/download/install.sh | sh
#
# Downloads the release archive for this machine, checks it against the release's SHA256SUMS
# before anything is installed, and puts the binary in $PREFIX/bin (default /usr/local/bin),
# using sudo only when that directory is not writable. Running it again upgrades.
#   IOMARK_VERSION   a version to install (default: the latest release, from LATEST)
#   IOMARK_BASE_URL  where releases are (default https://github.com/iomark/iomark/releases/download):
#                    archives at BASE/vVERSION/…; LATEST at BASE/../latest/download/LATEST on
#                    GitHub, at BASE/LATEST on any other mirror
#   PREFIX           install prefix (default /usr/local)
# POSIX sh (dash, busybox ash): the whole script is one function, called on the last line, so a
# download cut short runs nothing.

iomark_install() {
	set -eu
	base=${IOMARK_BASE_URL:-https://github.com/iomark/iomark/releases/download}
	base=${base%/}
	prefix=${PREFIX:-/usr/local}

	say() { printf 'iomark install: %s\n' "$*" >&2; }
	die() {
		say "$*"
		exit 1
	}

	if command -v curl >/dev/null 2>&1; then
		fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
	elif command -v wget >/dev/null 2>&1; then
		fetch() { wget -q -O "$2" "$1"; }
	else
		die "neither curl nor wget is installed: install one (apt-get install curl) and run this again"
	fi

	[ "$(uname -s)" = Linux ] || die "iomark runs on Linux only, not $(uname -s)"
	machine=$(uname -m)
	case $machine in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	armv7l | armv8l) arch=armv7 ;;
	armv6l) arch=armv6 ;;
	riscv64) arch=riscv64 ;;
	*) die "no iomark release for $machine: build it from source (https://github.com/iomark/iomark)" ;;
	esac

	# Where the binary goes is settled before anything is downloaded.
	dest=$prefix/bin
	sudo=
	# Writable: the directory, or where it would be made (nothing is made before the check).
	parent=$dest
	while [ ! -e "$parent" ]; do parent=$(dirname "$parent"); done
	if ! { [ -d "$parent" ] && [ -w "$parent" ]; }; then
		if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then
			sudo=sudo
			say "$dest is not writable: using sudo"
		else
			die "cannot write to $dest: run as root, or set PREFIX to a directory of yours (PREFIX=\$HOME/.local)"
		fi
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/iomark-install.XXXXXX") || die "cannot make a temporary directory"
	trap 'rm -rf "$tmp"' EXIT INT TERM

	version=${IOMARK_VERSION:-}
	if [ -z "$version" ]; then
		case $base in
		https://github.com/*/releases/download) latest=${base%/download}/latest/download/LATEST ;;
		*) latest=$base/LATEST ;;
		esac
		fetch "$latest" "$tmp/LATEST" || die "cannot download $latest: set IOMARK_VERSION to the version you want"
		version=$(tr -d ' \r\n' <"$tmp/LATEST")
	fi
	version=${version#v}
	case $version in
	'' | *[!0-9A-Za-z.+~-]*) die "'$version' is not a version (LATEST or IOMARK_VERSION)" ;;
	esac

	archive=iomark_${version}_linux_$arch.tar.gz
	url=$base/v$version
	say "downloading iomark $version for $machine ($arch)"
	fetch "$url/$archive" "$tmp/$archive" || die "cannot download $url/$archive"
	fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS" || die "cannot download $url/SHA256SUMS"

	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")
	[ -n "$want" ] || die "SHA256SUMS of $version does not list $archive: nothing was installed"
	if command -v sha256sum >/dev/null 2>&1; then
		got=$(sha256sum "$tmp/$archive" | awk '{ print $1 }')
	elif command -v shasum >/dev/null 2>&1; then
		got=$(shasum -a 256 "$tmp/$archive" | awk '{ print $1 }')
	else
		die "no sha256sum to check the download with: install coreutils and run this again"
	fi
	[ "$got" = "$want" ] || die "checksum mismatch for $archive (got $got, SHA256SUMS says $want): the download is damaged or was tampered with; nothing was installed"

	mkdir "$tmp/x"
	tar -xzf "$tmp/$archive" -C "$tmp/x" || die "cannot unpack $archive"
	bin=$tmp/x/iomark_${version}_linux_$arch/iomark
	[ -f "$bin" ] || die "$archive holds no iomark binary"
	"$bin" version >/dev/null 2>&1 || die "the downloaded binary does not run on this machine ($machine); nothing was installed"

	$sudo mkdir -p "$dest"
	# Copy beside the old binary, then rename over it: a running iomark keeps its file, and the
	# command is never half-written.
	$sudo cp "$bin" "$dest/.iomark.new"
	$sudo chmod 0755 "$dest/.iomark.new"
	$sudo mv -f "$dest/.iomark.new" "$dest/iomark"

	say "installed $("$dest/iomark" version | head -n 1) in $dest/iomark"
	case :${PATH:-}: in
	*:"$dest":*) next=iomark ;;
	*)
		next=$dest/iomark
		say "$dest is not on PATH"
		;;
	esac
	say "next: cd to a directory on the drive to test, then run: $next run"
}

iomark_install "$@"
