#!/usr/bin/env bash
# Backend errors follow QEMU's rerror/werror policy, as for ide-hd.  The
# primary slave's image sits behind blkdebug, which fails one read of
# sector 20000 (EIO) and one write of sector 24576 (ENOSPC):
#  - rerror default (report): the read ends with UNC; libata reports a
#    media error and O_DIRECT gets EIO;
#  - werror default (enospc: stop): the VM stops with an I/O error, and
#    after "cont" the write is submitted again and succeeds;
#  - werror=report: the write ends with ABRT, libata retries it, and it
#    succeeds.
#  - a failing FLUSH CACHE under werror=stop: the drive reads BSY|DRDY
#    while the VM is stopped, and the flush ends well after "cont";
#  - the same with werror=stop on -drive and no device property (QEMU's
#    convention, hw/block/block.c: the device's "auto" keeps the backend's
#    policy; qtest ide-test /ide/flush/retry_pci), and info atalab shows
#    it; with werror=report on the device too, the device's wins for
#    writes only: ABRT, no stop, rerror still stop;
#  - a CD-ROM's failing read under -drive rerror=stop: stopped, retried.
# In every case the data verifies in the guest and in the image file.
. "$(dirname "$0")/lib.sh"
blkdebug() {
	truncate -s 16M "$1"
	# blkdebug under the raw format driver: raw raises the read_aio and
	# write_aio events on its file child.
	printf '%s' "if=none,id=bd,driver=raw,file.driver=blkdebug,file.image.filename=$1"
	printf '%s' ",file.inject-error.0.event=read_aio,file.inject-error.0.sector=20000"
	printf '%s' ",file.inject-error.0.errno=5,file.inject-error.0.once=on"
	printf '%s' ",file.inject-error.1.event=write_aio,file.inject-error.1.sector=24576"
	printf '%s' ",file.inject-error.1.errno=28,file.inject-error.1.once=on"
}
# wait_for_io_error_stop WHAT: until the background guest's VM is paused
# by an I/O error (at most 60 s).
wait_for_io_error_stop() {
	local _
	for _ in $(seq 600); do
		kill -0 "$GUEST_PID" 2>/dev/null || break
		hmp "info status" | grep -q 'paused (io-error)' && return 0
		sleep 0.1
	done
	fail "the VM did not stop $1: $(cat "$WORK/stdout" "$WORK/stderr")"
}
# resume_and_finish LINE WHAT: the stopped guest has not printed LINE;
# after "cont" it ends well, having printed it (WHAT completed).
resume_and_finish() {
	local rc=0
	grep -qx "$1" "$WORK/stdout" && fail "the guest printed '$1' while the VM was stopped"
	hmp cont >/dev/null
	wait "$GUEST_PID" || rc=$?
	[ $rc = 0 ] || fail "guest exited $rc: $(cat "$WORK/stderr")"
	grep -qx "$1" "$WORK/stdout" || fail "$2 did not complete"
}
cmd='
d=$(blk-of 1) || exit 1
ata-pattern read /dev/$d --offset $((20000 * 512)) --size 512 --block 512 --direct 2>/dev/null && exit 2
echo read-failed
ata-pattern write /dev/$d --offset 12M --size 1M --seed 5 --direct >/dev/null || exit 3
ata-pattern verify /dev/$d --offset 12M --size 1M --seed 5 --direct >/dev/null || exit 4
echo done'

# werror default: stop, then continue
guest_bg --disk "$WORK/disk0.img" --disk-size 16M --qemu-arg -drive \
	--qemu-arg "$(blkdebug "$WORK/b.img")" --device-opt drive1=bd -- sh -c "$cmd"
wait_for_output read-failed 120
wait_for_io_error_stop "on ENOSPC (werror=enospc)"

resume_and_finish done "the retried write"
grep -q 'ata1.01: error: { UNC }' "$WORK/console.log" || fail "the failed read was not a media error"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/b.img" --offset 12M --size 1M --seed 5 >/dev/null ||
	fail "the image does not hold the written data"

# werror=report: ABRT, retried by libata
rm -f "$WORK/b.img"
expect_status 0 --disk "$WORK/disk0.img" --disk-size 16M --qemu-arg -drive \
	--qemu-arg "$(blkdebug "$WORK/b.img")" --device-opt drive1=bd \
	--device-opt werror=report -- sh -c "$cmd"
grep -q 'ata1.01: error: { ABRT }' "$WORK/console.log" || fail "werror=report: no ABRT reported"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/b.img" --offset 12M --size 1M --seed 5 >/dev/null ||
	fail "werror=report: the image does not hold the written data"

# A failing FLUSH CACHE under werror=stop: while the VM is stopped the
# drive reads BSY|DRDY (C0h, as ide-hd), the command has not ended; after
# "cont" the flush is retried and ends well, libata seeing no error.
rm -f "$WORK/b.img"
truncate -s 16M "$WORK/b.img"
flushdebug="if=none,id=bd,driver=raw,file.driver=blkdebug,file.image.filename=$WORK/b.img"
flushdebug="$flushdebug,file.inject-error.0.event=flush_to_disk,file.inject-error.0.iotype=flush"
flushdebug="$flushdebug,file.inject-error.0.errno=5,file.inject-error.0.once=on"
guest_bg --disk "$WORK/disk0.img" --disk-size 16M --qemu-arg -drive --qemu-arg "$flushdebug" \
	--device-opt drive1=bd --device-opt werror=stop -- sh -c '
d=$(blk-of 1) || exit 1
echo writing
ata-pattern write /dev/$d --offset 4M --size 64K --seed 7 >/dev/null || exit 3
echo flushed'
# (the fsync at the end of the write is the flush)
wait_for_output writing 120
wait_for_io_error_stop "on the failing flush (werror=stop)"
hmp "info atalab" >"$WORK/held.txt"
grep -q '^ *drive1: status=0xc0 ' "$WORK/held.txt" ||
	fail "the drive of the held flush does not read BSY|DRDY: $(grep drive1 "$WORK/held.txt")"
resume_and_finish flushed "the retried flush"
grep -q 'ata1.01: error' "$WORK/console.log" && fail "libata saw an error on the held flush: $(grep 'ata1.01' "$WORK/console.log")"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/b.img" --offset 4M --size 64K --seed 7 >/dev/null ||
	fail "flush: the image does not hold the written data"
echo "held flush: $(grep '^ *drive1:' "$WORK/held.txt")"

# werror=stop on -drive, the device property left alone: the -drive's
# policy holds (before, the device took report/enospc and ended the flush
# with ABRT at once).
rm -f "$WORK/b.img"
truncate -s 16M "$WORK/b.img"
flushcmd='
d=$(blk-of 1) || exit 1
echo writing
ata-pattern write /dev/$d --offset 4M --size 64K --seed 7 >/dev/null || exit 3
echo flushed
sleep 2'
guest_bg --timeout 120 --disk "$WORK/disk0.img" --disk-size 16M --qemu-arg -drive \
	--qemu-arg "$flushdebug,werror=stop,rerror=stop" --device-opt drive1=bd -- sh -c "$flushcmd"
wait_for_output writing 120
wait_for_io_error_stop "on the failing flush (werror=stop on -drive)"
hmp "info atalab" >"$WORK/held.txt"
grep -q '^ *drive1: status=0xc0 ' "$WORK/held.txt" ||
	fail "-drive werror=stop: drive1 is not held (BSY|DRDY): $(grep drive1 "$WORK/held.txt")"
grep -q '^ *drive1 backend: rerror=stop werror=stop$' "$WORK/held.txt" ||
	fail "-drive werror=stop: info atalab does not show the -drive's policy: $(grep drive1 "$WORK/held.txt")"
resume_and_finish flushed "the retried flush (-drive werror=stop)"
grep -q 'ata1.01: error' "$WORK/console.log" &&
	fail "-drive werror=stop: libata saw an error on the held flush: $(grep 'ata1.01' "$WORK/console.log")"
echo "-drive werror=stop: $(grep '^ *drive1' "$WORK/held.txt" | tr '\n' ' ')"

# ... and the device's own werror=report overrides the -drive's werror,
# and only it: rerror stays the -drive's stop.
rm -f "$WORK/b.img"
truncate -s 16M "$WORK/b.img"
guest_bg --timeout 120 --disk "$WORK/disk0.img" --disk-size 16M --qemu-arg -drive \
	--qemu-arg "$flushdebug,werror=stop,rerror=stop" --device-opt drive1=bd --device-opt werror=report \
	-- sh -c "$flushcmd"
wait_for_output flushed 120
hmp "info atalab" >"$WORK/policy.txt"
grep -q '^ *drive1 backend: rerror=stop werror=report$' "$WORK/policy.txt" ||
	fail "-drive stop with the device's werror=report: $(grep drive1 "$WORK/policy.txt")"
wait "$GUEST_PID" || fail "-drive stop with the device's werror=report: the guest failed: $(cat "$WORK/stderr")"
grep -q 'ata1.01: error: { ABRT }' "$WORK/console.log" ||
	fail "-drive werror=stop with the device's werror=report: no ABRT on the flush"
echo "-drive werror=stop, device werror=report: ABRT, no stop; $(grep '^ *drive1 backend' "$WORK/policy.txt")"

# A CD-ROM's reads follow rerror too (ide-cd does): -drive rerror=stop and
# a failing read of the disc: the VM stops, after cont the read is retried
# and the block arrives.
genisoimage -quiet -V ERR -o "$WORK/disc.iso" "$ATALAB_ROOT/tools/guest" || fail "genisoimage failed"
cddebug="if=none,id=cdbd,media=cdrom,readonly=on,driver=raw,file.driver=blkdebug,file.image.filename=$WORK/disc.iso"
cddebug="$cddebug,file.inject-error.0.event=read_aio,file.inject-error.0.sector=$((20 * 4))"
cddebug="$cddebug,file.inject-error.0.errno=5,file.inject-error.0.once=on,rerror=stop"
guest_bg --timeout 120 --disk "$WORK/disk0.img" --disk none --disk none --qemu-arg -drive --qemu-arg "$cddebug" \
	--device-opt drive2=cdbd --device-opt kind2=cd -- sh -c '
echo reading
dd if=/dev/sr0 bs=2048 skip=20 count=1 iflag=direct 2>/dev/null | od -An -tx1 | head -n 2 >/tmp/blk || exit 3
[ -s /tmp/blk ] || exit 4
echo read-done'
wait_for_output reading 120
wait_for_io_error_stop "on the failing CD-ROM read (rerror=stop on -drive)"
hmp "info atalab" >"$WORK/cd.txt"
grep -q '^ *drive2 backend: rerror=stop werror=report$' "$WORK/cd.txt" ||
	fail "CD-ROM: info atalab does not show the -drive's rerror: $(grep drive2 "$WORK/cd.txt")"
resume_and_finish read-done "the retried CD-ROM read"
echo "CD-ROM rerror=stop: held, retried after cont; $(grep '^ *drive2 backend' "$WORK/cd.txt")"
