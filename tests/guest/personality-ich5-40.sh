#!/usr/bin/env bash
# ICH5 PATA with a 40-conductor cable: ata_piix sees no 80-wire report in
# IDE_CONFIG (and the drive's word 93 agrees) and stays at UDMA/33; 16 MiB
# verified, no timing violation (in particular no udma-40-wire).
. "$(dirname "$0")/personality-lib.sh"
personality_test ich5 XFER_UDMA_2 --cable 40
"$ATALAB" trace grep --kind timing --source ata0 --dev 0 "$TRACE" | tail -n1 |
	grep -q 'udma=on:udma2 ct=2 clk=33$' || fail "decoded timing is not UDMA 2: $(grep ' timing d0' "$TRACE" | tail -n1)"
