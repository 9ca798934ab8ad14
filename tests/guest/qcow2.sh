#!/usr/bin/env bash
# A qcow2 image works as a drive: 16 MiB pattern written and verified in the
# guest, then found in the image after power-off.
. "$(dirname "$0")/lib.sh"
img=$WORK/disk.qcow2
expect_status 0 --disk "$img" --disk-size 64M -- pattern-rw /dev/sda 16M 21
"$QEMU_IMG" info "$img" | grep -q '^file format: qcow2' || fail "$img is not qcow2"
"$QEMU_IMG" convert -O raw "$img" "$WORK/disk.raw"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/disk.raw" --size 16M --seed 21 || fail "image does not hold the pattern"
expect_clean_ata_log
