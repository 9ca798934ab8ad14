#!/usr/bin/env bash
# The guest sees atalab-ide with the PIIX4 IDE identity: 8086:7111, class
# 0101, prog-if 80 (legacy mode, bus master).
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" -- check-pci-id 8086 7111 0x010180
grep -q '^found .*: 0x8086 0x7111 0x010180$' "$WORK/stdout" || fail "unexpected output: $(cat "$WORK/stdout")"
