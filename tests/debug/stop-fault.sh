#!/usr/bin/env bash
# --stop-on fault=ID stops the guest at the command a fault rule fires on,
# with the PC where the driver issued it and the rule named in the reason;
# a stop-on naming another rule never stops (the same script then fails).
. "$(dirname "$0")/lib.sh"
printf 'unc id=bad drive=0 class=read lba=20000+8\n' >"$WORK/unc.rules"
# shellcheck disable=SC2016 # expanded by the guest shell
read_bad='ata-pattern read /dev/sda --offset $((19996 * 512)) --size 8192 --block 8192 --direct >/dev/null; echo "read exit $?"'
session 0 --disk "$WORK/d.img" --disk-size 16M --faults "$WORK/unc.rules" --stop-on fault=bad \
	--gdb-batch "$DEBUG_DIR/stop-fault.gdb" -- sh -c "$read_bad"
grep -qx 'read exit 1' "$WORK/stdout" || fail "the guest's read did not fail after the stop"
[ "$(grep -c 'atalab: the device stopped the guest' "$WORK/stdout")" = 1 ] || fail "not one device stop"
session 126 --disk "$WORK/d.img" --faults "$WORK/unc.rules" --stop-on fault=other \
	--gdb-batch "$DEBUG_DIR/stop-fault.gdb" -- sh -c "$read_bad"
grep -q 'the guest is not stopped: it ended\|not the device' "$WORK/stdout" ||
	fail "with another rule's id the script failed for another reason: $(tail -n5 "$WORK/stdout")"
echo "ok: no stop for a rule that is not named"
