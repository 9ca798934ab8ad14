#!/usr/bin/env bash
# Every path handed to QEMU is escaped for its option syntax: commas in the
# log, disk and trace names and in $TMPDIR (the run directory) work, and
# --trace creates its folder as --log does.
. "$(dirname "$0")/lib.sh"
dir="$WORK/odd,dir"
mkdir -p "$dir/tmp,1"
TMPDIR="$dir/tmp,1" expect_status 0 --log "$dir/logs,1/con,sole.log" --disk "$dir/d,isk.img" \
	--disk-size 16M --trace "$dir/new,folder/tr,ace" -- sh -c 'echo "hi from $(cat /sys/block/sda/size)"'
[ "$(cat "$WORK/stdout")" = "hi from 32768" ] || fail "stdout: $(cat "$WORK/stdout")"
grep -q 'Linux version' "$dir/logs,1/con,sole.log" || fail "no console in the log with commas in its name"
[ "$(stat -c %s "$dir/d,isk.img")" = 16777216 ] || fail "the disk with a comma was not created as asked"
trace_has --kind cmd --source ata0 --dev 0 --word IDENTIFY_DEVICE "$dir/new,folder/tr,ace" ||
	fail "no trace in the new folder"
[ -z "$(ls -A "$dir/tmp,1")" ] || fail "the run directory was left behind: $(ls -A "$dir/tmp,1")"
echo "ok: commas in the log, disk, trace and TMPDIR paths"
