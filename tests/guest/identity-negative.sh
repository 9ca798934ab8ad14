#!/usr/bin/env bash
# The identity check can fail: it rejects another ID, and a guest without the
# controller.
. "$(dirname "$0")/lib.sh"
expect_status 1 --disk "$WORK/disk.img" -- check-pci-id 8086 7010 0x010180
grep -q 'no PCI function' "$WORK/stderr" || fail "no diagnostic on stderr"
expect_status 1 --controller none --driver none -- check-pci-id 8086 7111 0x010180
