#!/usr/bin/env bash
# PIIX3 (8086:7010): ata_piix configures the disk for MWDMA2 (the PIIX3 has
# no Ultra DMA), 16 MiB verified, no timing violation.
. "$(dirname "$0")/personality-lib.sh"
personality_test piix3 XFER_MW_DMA_2
