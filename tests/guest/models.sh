#!/usr/bin/env bash
# --model takes any case; --list-models and --list-device-opts describe the
# choices; --cable on a personality without cable reporting is warned
# about; --ide-mode native on one without native mode is refused before
# booting.  (Unknown names: tests/tools/cli-errors.sh.)
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/d.img" --disk-size 16M --model ICH5 -- cat /sys/bus/pci/devices/0000:00:01.0/device
[ "$(cat "$WORK/stdout")" = 0x24db ] || fail "--model ICH5: device $(cat "$WORK/stdout")"
echo "ok: --model ICH5 is ich5 (8086:24db)"
"$ATALAB" run --list-models >"$WORK/models" 2>/dev/null || fail "--list-models failed"
for m in "piix4 *8086:7111 *pio4,mwdma2,udma2" "piix3 *8086:7010" "ich5 *8086:24db .*reports the cable .*native PCI mode" "ich5-sata *8086:24d1 .*native PCI mode"; do
	grep -Eq "^$m" "$WORK/models" || fail "--list-models lacks '$m': $(cat "$WORK/models")"
done
grep -q 'registers: PI@0x09, IDETIM0@0x40, .* IDE_CONFIG@0x54' "$WORK/models" || fail "no register list"
! grep -E '^piix[34] .*native' "$WORK/models" || fail "a PIIX listed with native mode"
echo "ok: --list-models"
"$ATALAB" run --list-device-opts >"$WORK/opts" 2>/dev/null || fail "--list-device-opts failed"
grep -q '^  stop-on=<string> *- stop the guest' "$WORK/opts" && grep -q '^  model=<str> *- controller personality: piix4' "$WORK/opts" &&
	grep -q '^  strict=<bool> *- a mis-timed' "$WORK/opts" && grep -q '^  mode=<str> *- legacy (default), native' "$WORK/opts" || fail "--list-device-opts: $(cat "$WORK/opts")"
echo "ok: --list-device-opts describes the properties"
expect_status 0 --disk "$WORK/d.img" --cable 80 -- true
grep -q 'warning: --cable 80: piix4 does not report the cable to the guest' "$WORK/stderr" ||
	fail "no --cable warning: $(cat "$WORK/stderr")"
echo "ok: --cable on piix4 is warned about"
rc=0
"$ATALAB" run --quiet --log "$WORK/refused.log" --disk "$WORK/d.img" --model piix4 --ide-mode native -- true \
	>"$WORK/stdout" 2>"$WORK/stderr" || rc=$?
[ $rc = 2 ] && grep -q -- '--ide-mode native: piix4 has no native PCI mode' "$WORK/stderr" ||
	fail "--ide-mode native on piix4: exit $rc, $(cat "$WORK/stderr")"
[ ! -s "$WORK/refused.log" ] || fail "a guest booted for a refused --ide-mode"
echo "ok: --ide-mode native on piix4 is refused before booting"
