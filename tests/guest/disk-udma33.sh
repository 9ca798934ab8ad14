#!/usr/bin/env bash
# ata_piix finds the disk on atalab-ide (piix4) and configures it for UDMA/33;
# the kernel log shows no ATA error.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" -- check-ata-devices 1.0:XFER_UDMA_2:"ATALAB HARDDISK"
expect_clean_ata_log
