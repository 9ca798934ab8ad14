#!/usr/bin/env bash
# 64 MiB written and read back with O_DIRECT over UDMA; after the guest
# powered off, the image file holds the pattern.
. "$(dirname "$0")/lib.sh"
img=$WORK/disk.img
expect_status 0 --disk "$img" --disk-size 96M -- sh -c \
	'check-ata-devices 1.0:XFER_UDMA_2:"ATALAB HARDDISK" && pattern-rw /dev/sda 64M 11'
cat "$WORK/stdout"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$img" --size 64M --seed 11 || fail "image does not hold the pattern"
expect_clean_ata_log
