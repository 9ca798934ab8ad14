#!/usr/bin/env bash
# The same 64 MiB pattern with libata forced to PIO (libata.dma=0).
. "$(dirname "$0")/lib.sh"
img=$WORK/disk.img
expect_status 0 --disk "$img" --disk-size 96M --append libata.dma=0 --timeout 900 -- sh -c \
	'check-ata-devices 1.0:XFER_PIO_4:"ATALAB HARDDISK" && pattern-rw /dev/sda 64M 12'
cat "$WORK/stdout"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$img" --size 64M --seed 12 || fail "image does not hold the pattern"
expect_clean_ata_log
