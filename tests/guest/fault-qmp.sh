#!/usr/bin/env bash
# Fault rules of a running guest change over QMP (tools/atalab fault): a
# read that works, then a UNC rule added at run time makes the same read
# fail with a media error; the rule's firing is counted and listed; after
# "fault clear" the read works again.  The guest waits for the clear by
# polling another sector that a second rule ("gate") fails until then, so
# it leaves the counted sector alone while the host lists the rules
# (media errors do not count toward libata's speed-down).
. "$(dirname "$0")/lib.sh"
QMP=$WORK/qmp.sock
guest_bg --disk "$WORK/disk0.img" --disk-size 16M --trace "$WORK/trace" \
	--qemu-arg -qmp --qemu-arg "unix:$QMP,server=on,wait=off" -- sh -c '
rd() { ata-pattern read /dev/sda --offset $(($1 * 512)) --size 4096 --block 4096 --direct >/dev/null 2>&1; }
rd 30000 && echo first-read-ok
echo ready
# Reads work until the host has added the rule (bounded, no fixed wait)
i=0
while rd 30000 && [ $i -lt 240 ]; do i=$((i + 1)); sleep 0.25; done
[ $i -lt 240 ] && echo second-read-failed
echo halfway
i=0
until rd 20000 || [ $i -ge 240 ]; do i=$((i + 1)); sleep 0.5; done
[ $i -lt 240 ] && echo gate-opened
rd 30000 && echo third-read-ok'
wait_for_output ready 120
"$ATALAB" fault add --qmp "$QMP" "unc id=gate drive=0 class=read lba=20000+8" ||
	fail "fault add failed"
"$ATALAB" fault add --qmp "$QMP" "unc id=live drive=0 class=read lba=30000+8" ||
	fail "fault add failed"
# A bad rule is refused, with its column, and the guest goes on
out=$("$ATALAB" fault add --qmp "$QMP" "unc drive=9" 2>&1) && fail "a bad rule was accepted"
[[ $out == *"fault-add:1:11: drive wants 0-3 or any, got '9'"* ]] || fail "bad rule message: $out"
"$ATALAB" fault list --qmp "$QMP" >"$WORK/list1"
grep -q '^unc id=live drive=0 class=read lba=30000-30007 .* fired=[01]$' "$WORK/list1" ||
	fail "the added rule is not listed: $(cat "$WORK/list1")"
wait_for_output halfway 120
"$ATALAB" fault list --qmp "$QMP" >"$WORK/list2"
grep -q 'id=live .* fired=1$' "$WORK/list2" || fail "the rule did not fire once: $(cat "$WORK/list2")"
"$ATALAB" fault clear --qmp "$QMP"
[ -z "$("$ATALAB" fault list --qmp "$QMP")" ] || fail "fault clear left rules"
wait "$GUEST_PID" || fail "guest failed: $(cat "$WORK/stderr")"
for line in first-read-ok second-read-failed gate-opened third-read-ok; do
	grep -qx "$line" "$WORK/stdout" || fail "guest did not print $line: $(cat "$WORK/stdout")"
done
grep -q 'ata1.00: error: { UNC }' "$WORK/console.log" || fail "libata saw no UNC"
trace_has --kind ATA_FAULT --source ata0 --dev 0 --key rule=live --key kind=unc --key cmd=0xc8 \
	--key lba=30000 "$WORK/trace" || fail "no firing record"
