#!/usr/bin/env bash
# PIIX4 (8086:7111): UDMA/33, 16 MiB verified, no timing violation.
. "$(dirname "$0")/personality-lib.sh"
personality_test piix4 XFER_UDMA_2
