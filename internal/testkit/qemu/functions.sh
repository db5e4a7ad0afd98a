# Shell functions of a lab guest (internal/testkit/qemu), sourced by /init and by every step_sh
# script. Building blocks for tests: find a drive, break it, fake it.

# lab_disk ID: the /dev node of the configuration's drive ID (drives are found by size).
lab_disk() {
  local want; want=$(awk -v id="$1" '$1 == id { print $2 }' /lab/disks)
  [ -n "$want" ] || return 1
  local s d; for s in /sys/block/*/size; do
    d=${s%/size}; d=${d##*/}
    case $d in loop*|ram*|dm-*) continue;; esac
    [ "$(cat "$s")" = "$want" ] && { echo "/dev/$d"; return 0; }
  done
  return 1
}
# lab_sectors DEV: size of a block device in 512-byte sectors.
lab_sectors() { cat "/sys/class/block/${1#/dev/}/size"; }
# lab_dm_node NAME: /dev/dm-N of a device-mapper device.
lab_dm_node() {
  local n d
  for n in /sys/block/dm-*/dm/name; do
    [ "$(cat "$n" 2>/dev/null)" = "$1" ] && { d=${n%/dm/name}; echo "/dev/${d##*/}"; return 0; }
  done
  return 1
}
# lab_dm_linear NAME DEV: a pass-through device over DEV (to swap to error later); prints its node.
lab_dm_linear() { labctl dm create "$1" "0 $(lab_sectors "$2") linear $2 0"; }
# lab_dm_error NAME: from now on every I/O to NAME fails with EIO (table swapped live).
lab_dm_error() { labctl dm reload "$1" "0 $(lab_sectors "$(lab_dm_node "$1")") error"; }
# lab_dm_flakey NAME DEV UP DOWN: DEV passes I/O for UP seconds then fails it for DOWN, in turn.
lab_dm_flakey() { labctl dm create "$1" "0 $(lab_sectors "$2") flakey $2 0 $3 $4"; }
# lab_dm_flakey_swap NAME DEV UP DOWN: swap a live device's table to flakey over DEV.
lab_dm_flakey_swap() { labctl dm reload "$1" "0 $(lab_sectors "$2") flakey $2 0 $3 $4"; }
# lab_dm_wrap NAME DEV FAKE_SECTORS: a fake-capacity card claiming FAKE_SECTORS whose every
# sector past DEV's real size lands again at the start; prints its node.
lab_dm_wrap() { labctl dm create "$1" "$(labctl wrap-table "$2" "$(lab_sectors "$2")" "$3")"; }
# lab_dm_remove NAME
lab_dm_remove() { labctl dm remove "$1"; }
# lab_delete_disk DEV: the SCSI layer forgets the disk, as when a USB drive is pulled.
lab_delete_disk() { echo 1 > "/sys/block/${1#/dev/}/device/delete"; }
# step ID CMD...: run CMD and print its output and exit code for the host.
step() {
  id=$1; shift
  echo "@@begin $id"
  ( "$@" ) >/tmp/step.out 2>/tmp/step.err </dev/null
  rc=$?
  sed 's/^/@@o /' /tmp/step.out
  sed 's/^/@@e /' /tmp/step.err
  echo "@@end $id $rc"
}
# step_sh ID SCRIPT: step with a shell script that can use these functions.
step_sh() { step "$1" sh -c ". /lab/functions.sh; $2"; }
