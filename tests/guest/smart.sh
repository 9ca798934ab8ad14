#!/usr/bin/env bash
# smartctl (smartmontools) on a master, a slave and the secondary channel:
# -a reports a healthy drive with no error logged, and a short self-test
# started with -t short completes without error.
. "$(dirname "$0")/lib.sh"
mapfile -t disks < <(io_disks)
expect_status 0 "${disks[@]}" --disk-size 16M -- sh -c '
for p in '"$IO_POSITIONS"'; do
	d=$(blk-of $p) || exit 1
	smartctl -a /dev/$d >/tmp/a.$p
	echo "smartctl -a $p rc=$?"
	cat /tmp/a.$p
	grep -q "self-assessment test result: PASSED" /tmp/a.$p || exit 2
	grep -q "No Errors Logged" /tmp/a.$p || exit 3
	smartctl -t short /dev/$d >/dev/null || exit 4
done
sleep 3
for p in '"$IO_POSITIONS"'; do
	smartctl -l selftest /dev/$(blk-of $p) >/tmp/s.$p
	cat /tmp/s.$p
	grep -Eq "^# 1 +Short offline +Completed without error" /tmp/s.$p || exit 5
done'
for p in $IO_POSITIONS; do
	grep -qx "smartctl -a $p rc=0" "$WORK/stdout" || fail "smartctl -a on position $p did not exit 0"
done
expect_clean_ata_log
