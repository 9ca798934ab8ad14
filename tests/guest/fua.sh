#!/usr/bin/env bash
# WRITE DMA FUA EXT (3Dh) on a master, a slave and the secondary channel.
# Linux 6.1.192 enables FUA only on NCQ devices (ata_dev_config_fua), so
# libata.fua=1 gives no FUA on PATA: sd says so, and the FUA writes are
# issued through SCSI/ATA translation (ATA PASS-THROUGH 16, sg_raw).  The
# trace shows the command as a forced-unit-access write; the data reads
# back in the guest and is in the image files after power-off.
. "$(dirname "$0")/lib.sh"
mapfile -t disks < <(io_disks)
TRACE=$WORK/trace
expect_status 0 "${disks[@]}" --disk-size 16M --append libata.fua=1 --trace "$TRACE" -- sh -c '
ata-pattern write /tmp/w --size 4K --seed 7 >/dev/null
for p in '"$IO_POSITIONS"'; do
	d=$(blk-of $p) || exit 1
	ata16-write-fua $d $((100 + p)) /tmp/w >/dev/null || exit 2
	dd if=/dev/$d of=/tmp/r bs=512 skip=$((100 + p)) count=8 iflag=direct 2>/dev/null
	cmp /tmp/w /tmp/r || exit 3
done'
grep -q "doesn't support DPO or FUA" "$WORK/console.log" || fail "sd claims FUA: did libata start using it on PATA?"
"$ATALAB_CACHE_BIN"/ata-pattern write "$WORK/want" --size 4K --seed 7 >/dev/null
for p in $IO_POSITIONS; do
	ch=$((p / 2)) dev=$((p % 2)) lba=$((100 + p))
	trace_has --kind cmd --source "ata$ch" --dev $dev --word 0x3d --word WRITE_DMA_FUA_EXT \
		--key lba=$lba --key count=8 "$TRACE" ||
		fail "position $p: no WRITE DMA FUA EXT in the trace"
	trace_has --kind io --source "ata$ch" --dev $dev --word write --key lba=$lba --key count=8 \
		--key fua=1 "$TRACE" ||
		fail "position $p: the backend write was not FUA"
	dd if="$WORK/disk$p.img" bs=512 skip=$lba count=8 2>/dev/null | cmp - "$WORK/want" ||
		fail "position $p: the image does not hold the data"
done
expect_clean_ata_log
