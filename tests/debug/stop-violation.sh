#!/usr/bin/env bash
# Stops on hardware events, in the timing-violation guest test's scenario
# (ICH5, 80-wire, UDMA/100; the guest clears FAST_PCB0 through sysfs, then
# reads by DMA): --stop-on write=IDE_CONFIG stops at ata_piix's own write
# and at the guest's wrong write with the PC inside the code that did the
# config write; --stop-on violation=udma-timing stops at the command that
# the wrong timing breaks.  Without the wrong write no violation stop comes
# and the same script fails.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2016 # expanded by the guest shell
poke='v=$(pci-config read 0x55) && pci-config write 0x55 $((v & ~0x10))'
stops=(--stop-on write=IDE_CONFIG --stop-on violation=udma-timing)
session 0 --model ich5 --cable 80 --disk "$WORK/d.img" --disk-size 16M "${stops[@]}" \
	--gdb-batch "$DEBUG_DIR/stop-violation.gdb" -- \
	sh -c "$poke && ata-pattern read /dev/sda --size 1M --direct >/dev/null && echo guest-done"
grep -qx guest-done "$WORK/stdout" || fail "the guest did not finish after the stops"
[ "$(grep -c 'atalab: the device stopped the guest' "$WORK/stdout")" = 3 ] || fail "not 3 device stops"
session 126 --model ich5 --cable 80 --disk "$WORK/d.img" "${stops[@]}" \
	--gdb-batch "$DEBUG_DIR/stop-violation.gdb" -- \
	sh -c "ata-pattern read /dev/sda --size 1M --direct >/dev/null"
grep -q 'the guest is not stopped: it ended\|not the device' "$WORK/stdout" ||
	fail "without the wrong write the script failed for another reason: $(tail -n5 "$WORK/stdout")"
echo "ok: no violation stop without the wrong write"
