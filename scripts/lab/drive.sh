#!/usr/bin/env bash
# Emulate a drive with known limits, for people and bench scripts (Go tests use internal/testkit/lab,
# which does the same): a RAM-backed loop device over a random-filled image in /dev/shm,
# attached with direct I/O, optionally with ext4 mounted on it, throttled for EVERY process
# (buffered writeback included) by rules on the root cgroup-v1 blkio controller.
#
#   drive.sh up NAME [--size-mb 1024] [--read-iops N] [--write-iops N]
#                    [--read-mbps N] [--write-mbps N] [--fs ext4|none]
#        prints: DEV=/dev/loopN MNT=/path (MNT empty with --fs none)
#   drive.sh limits NAME [--read-iops N] [--write-iops N] [--read-mbps N] [--write-mbps N]
#        replaces the drive's limits (absent = unlimited)
#   drive.sh down NAME
#   drive.sh list
# Sizes are MiB; rates are IOPS and MB/s = 10^6 bytes/s (as fio and dd print); 0 or absent =
# unlimited. State lives in /run/iomark-lab/NAME. Needs root, the loop module, losetup and
# /sys/fs/cgroup/blkio; mkfs.ext4 for --fs ext4.
set -euo pipefail
STATE=/run/iomark-lab
ROOT_CG=/sys/fs/cgroup/blkio
KINDS="read_iops write_iops read_bps write_bps"
die() { echo "drive.sh: $*" >&2; exit 1; }

preflight() {
  [ "$(id -u)" = 0 ] || die "needs root (sudo bash $0 …)"
  [ -e /dev/loop-control ] || die "no loop driver (modprobe loop)"
  command -v losetup >/dev/null || die "losetup missing (apt-get install util-linux)"
  [ -w $ROOT_CG/blkio.throttle.read_iops_device ] ||
    die "no writable cgroup-v1 blkio controller at $ROOT_CG (cgroup-v2-only systems are not supported)"
  mkdir -p "$STATE"
}

num() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 wants a whole number, got '$2'"; echo "$2"; }

# rules MM RIOPS WIOPS RMBPS WMBPS: set the four rules of one device; 0 removes a rule.
rules() {
  local mm=$1 v f
  local vals=("$2" "$3" $(($4 * 1000000)) $(($5 * 1000000)))
  local i=0
  for f in $KINDS; do
    v=${vals[$i]}; i=$((i + 1))
    echo "$mm $v" >"$ROOT_CG/blkio.throttle.${f}_device"
  done
}
# A loop device's queue outlives detach, and so do throttle rules keyed by its MAJ:MIN:
# clear them on attach and before every detach.
clear_rules() { local f; for f in $KINDS; do echo "$1 0" >"$ROOT_CG/blkio.throttle.${f}_device" 2>/dev/null || true; done; }

parse_limits() { # sets riops wiops rmbps wmbps from --read-iops … options; the rest stays in REST
  riops=0 wiops=0 rmbps=0 wmbps=0 REST=()
  while [ $# -gt 0 ]; do case $1 in
    --read-iops) riops=$(num "$1" "${2:-}"); shift 2;;
    --write-iops) wiops=$(num "$1" "${2:-}"); shift 2;;
    --read-mbps) rmbps=$(num "$1" "${2:-}"); shift 2;;
    --write-mbps) wmbps=$(num "$1" "${2:-}"); shift 2;;
    *) REST+=("$1"); shift;;
  esac; done
}

valid_name() { [[ $1 =~ ^[A-Za-z0-9_-]{1,40}$ ]] || die "drive name '$1': use 1-40 letters, digits, '-' or '_'"; }

up() {
  local name=$1; shift; valid_name "$name"
  parse_limits "$@"; set -- ${REST[@]+"${REST[@]}"}
  local size=1024 fs=ext4
  while [ $# -gt 0 ]; do case $1 in
    --size-mb) size=$(num "$1" "${2:-}"); shift 2;;
    --fs) fs=${2:-}; shift 2;;
    *) die "unknown option $1";; esac; done
  [ "$fs" = ext4 ] || [ "$fs" = none ] || die "--fs wants ext4 or none, got '$fs'"
  [ "$size" -ge 16 ] || die "--size-mb $size: use at least 16"
  [ "$fs" = none ] || command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 missing (apt-get install e2fsprogs)"
  [ -e "$STATE/$name" ] && die "drive $name exists; run: drive.sh down $name"
  local free; free=$(df --output=avail -m /dev/shm | tail -1 | tr -d ' ')
  [ "$free" -gt $((size + 64)) ] || die "/dev/shm has $free MiB free; drive needs $size MiB"

  local img dev="" mm="" mnt=""
  img=$(mktemp "/dev/shm/iomark-lab-$name-XXXXXX.img")
  # Undo whatever was done if any later step fails.
  trap 'rc=$?; [ -n "$mnt" ] && { umount "$mnt" 2>/dev/null; rmdir "$mnt"; }
        [ -n "$mm" ] && clear_rules "$mm"; [ -n "$dev" ] && losetup -d "$dev"; rm -f "$img"; exit $rc' ERR
  # Real random data, no holes: a read never hits a hole, a compressing layer gets no free ride.
  dd if=/dev/urandom of="$img" bs=1M count="$size" status=none
  dev=$(losetup --find --show --direct-io=on "$img")
  mm=$(cat "/sys/block/${dev#/dev/}/dev")
  clear_rules "$mm"
  [ "$(cat "/sys/block/${dev#/dev/}/loop/dio")" = 1 ] || { echo "drive.sh: $dev refuses direct I/O on $img" >&2; false; }
  if [ "$fs" = ext4 ]; then
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
    mnt=$(mktemp -d "/tmp/iomark-lab-$name.XXXXXX"); mount -t ext4 "$dev" "$mnt"
  fi
  rules "$mm" "$riops" "$wiops" "$rmbps" "$wmbps"
  printf 'DEV=%s\nMNT=%s\nIMG=%s\nMM=%s\n' "$dev" "$mnt" "$img" "$mm" >"$STATE/$name"
  trap - ERR
  echo "DEV=$dev MNT=$mnt"
}

load() { # reads a drive's state; only keys we wrote, never sourced
  [ -e "$STATE/$1" ] || die "no drive $1 (drive.sh list)"
  DEV=$(sed -n 's/^DEV=//p' "$STATE/$1"); MNT=$(sed -n 's/^MNT=//p' "$STATE/$1")
  IMG=$(sed -n 's/^IMG=//p' "$STATE/$1"); MM=$(sed -n 's/^MM=//p' "$STATE/$1")
}

# ours: is DEV still attached to our image? (Never detach or clear someone else's device.)
ours() {
  local b; b=$(cat "/sys/block/${DEV#/dev/}/loop/backing_file" 2>/dev/null) || return 1
  [ "${b% (deleted)}" = "$IMG" ]
}

limits() {
  local name=$1; shift; load "$name"
  parse_limits "$@"; [ ${#REST[@]} -eq 0 ] || die "unknown option ${REST[0]}"
  ours || die "drive $name: $DEV is no longer attached to $IMG"
  rules "$MM" "$riops" "$wiops" "$rmbps" "$wmbps"
}

down() {
  local name=$1; load "$name"
  if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
    umount "$MNT" || die "cannot unmount $MNT (a file under it still open?)"
  fi
  [ -z "$MNT" ] || rmdir "$MNT" 2>/dev/null || true
  if ours; then clear_rules "$MM"; losetup -d "$DEV"; fi
  rm -f "$IMG" "$STATE/$name"
}

case ${1:-} in
  up) shift; [ $# -ge 1 ] || die "usage: drive.sh up NAME [options]"; preflight; up "$@";;
  limits) shift; [ $# -ge 1 ] || die "usage: drive.sh limits NAME [options]"; preflight; limits "$@";;
  down) [ $# -eq 2 ] || die "usage: drive.sh down NAME"; preflight; down "$2";;
  list) for f in "$STATE"/*; do [ -e "$f" ] && { echo "$(basename "$f"):"; sed 's/^/  /' "$f"; }; done; true;;
  *) die "usage: drive.sh up|limits|down|list (see the top of $0)";;
esac
