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
stopped=""
for _ in $(seq 300); do
	kill -0 "$GUEST_PID" 2>/dev/null || break
	stopped=$(hmp "info status" | grep -o 'paused (io-error)' || true)
	[ -n "$stopped" ] && break
	sleep 0.1
done
[ -n "$stopped" ] || fail "the VM did not stop on ENOSPC (werror=enospc): $(cat "$WORK/stdout" "$WORK/stderr")"

grep -qx done "$WORK/stdout" && fail "the guest went on while the VM was stopped"
hmp cont >/dev/null
rc=0
wait "$GUEST_PID" || rc=$?
[ $rc = 0 ] || fail "guest exited $rc: $(cat "$WORK/stderr")"
grep -qx done "$WORK/stdout" || fail "the retried write did not complete"
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
