#!/usr/bin/env bash
# hdparm -N shows the host protected area and sets it; after the disk is
# deleted and its SCSI host rescanned, the kernel sees the new capacity
# (libata: "HPA detected").  On a master, a slave and the secondary channel.
. "$(dirname "$0")/lib.sh"
mapfile -t disks < <(io_disks)
expect_status 0 "${disks[@]}" --disk-size 16M -- sh -c '
for p in '"$IO_POSITIONS"'; do
	d=$(blk-of $p) || exit 1
	hdparm -N /dev/$d | grep -q "max sectors   = 32768/32768, HPA is disabled" || exit 2
	hdparm -N 30000 --yes-i-know-what-i-am-doing /dev/$d | grep -q "30000/32768, HPA is enabled" || exit 3
	echo 1 >/sys/block/$d/device/delete
	echo "- - -" >/sys/class/scsi_host/host$((p / 2))/scan
	d=$(blk-of $p) || exit 4
	echo "position $p: $d $(cat /sys/block/$d/size) sectors"
	hdparm -N /dev/$d | grep -q "max sectors   = 30000/32768, HPA is enabled" || exit 5
done'
cat "$WORK/stdout"
for p in $IO_POSITIONS; do
	grep -q "^position $p: sd[a-z] 30000 sectors$" "$WORK/stdout" || fail "position $p: the kernel does not see 30000 sectors"
done
[ "$(grep -c 'HPA detected: current 30000, native 32768' "$WORK/console.log")" -ge 3 ] ||
	fail "libata did not report the HPA of each rescanned disk"
