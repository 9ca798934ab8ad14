#!/usr/bin/env bash
# ICH5 PATA (8086:24DB) with an 80-conductor cable: ata_piix reads the cable
# from IDE_CONFIG and picks UDMA/100 (100 MHz clock select); 16 MiB
# verified, no timing violation.
. "$(dirname "$0")/personality-lib.sh"
personality_test ich5 XFER_UDMA_5 --cable 80
"$ATALAB" trace grep --kind timing --source ata0 --dev 0 "$TRACE" | tail -n1 |
	grep -q 'udma=on:udma5 ct=1 clk=100$' || fail "decoded timing is not UDMA 5: $(grep ' timing d0' "$TRACE" | tail -n1)"
