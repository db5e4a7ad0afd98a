#!/bin/busybox sh
# /init of a lab guest (internal/testkit/qemu). Mounts the pseudo filesystems, loads the storage
# modules, waits for the drives, runs /lab/steps.sh and reboots (QEMU runs with -no-reboot,
# so that ends it). Every line meant for the host starts with "@@".
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mkdir -p /mnt /run /etc
. /lab/functions.sh
echo "@@boot $(uname -r) $(uname -m)"
while read -r m; do
  echo "@@insmod $m"
  insmod "/lib/modules/$(uname -r)/$m" 2>/tmp/insmod.err || echo "@@warn insmod $m: $(cat /tmp/insmod.err)"
done < /lab/modules
want=$(cat /lab/want-disks)
i=0
while :; do
  found=0
  while read -r id sectors; do lab_disk "$id" >/dev/null && found=$((found + 1)); done < /lab/disks
  [ "$found" -ge "$want" ] && break
  i=$((i + 1))
  [ $i -ge 120 ] && { echo "@@warn only $found of $want drives after 60 s"; break; }
  sleep 0.5
done
while read -r id sectors; do echo "@@disk $id $(lab_disk "$id")"; done < /lab/disks
echo "@@ready"
. /lab/steps.sh
echo "@@done"
sync
reboot -f
