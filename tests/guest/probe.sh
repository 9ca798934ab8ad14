#!/usr/bin/env bash
# The default command (no guest command given) reports the controller.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img"
grep -q '^pci .*: 8086:7111 class 0x010180 driver ata_piix$' "$WORK/stdout" ||
	fail "probe output lacks the controller: $(cat "$WORK/stdout")"
