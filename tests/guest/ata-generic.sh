#!/usr/bin/env bash
# ata_generic (all_generic_ide=1) picks DMA from the drive DMA capable bits
# that firmware_init leaves in BMISX, as a BIOS does: every drive is
# configured for UDMA/100 (the drive's best; ata_generic does not program
# timings) and a pattern verifies on each.
. "$(dirname "$0")/lib.sh"
mapfile -t disks < <(io_disks)
expect_status 0 "${disks[@]}" --disk-size 16M --driver ata_generic \
	--append ata_generic.all_generic_ide=1 -- sh -c '
m="ATALAB HARDDISK"
check-ata-devices "1.0:XFER_UDMA_5:$m" "1.1:XFER_UDMA_5:$m" "2.0:XFER_UDMA_5:$m" || exit 1
for p in '"$IO_POSITIONS"'; do pattern-rw /dev/$(blk-of $p) 4M $p || exit 2; done'
[ "$(grep -c 'configured for UDMA/100' "$WORK/console.log")" = 3 ] || fail "not every drive was configured for UDMA/100"
grep -q 'scsi host0: ata_generic' "$WORK/console.log" || fail "ata_generic did not drive the controller"
expect_clean_ata_log
