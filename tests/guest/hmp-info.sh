#!/usr/bin/env bash
# The README's monitor recipe: a guest kept alive with --monitor SOCKET,
# `atalab monitor SOCKET 'info atalab'` shows the model, the cables, where
# each channel is decoded and interrupts and, per drive, the decoded timing
# and the violation count; qom-get reads the same
# from /machine/peripheral/ata; `atalab monitor SOCKET quit` ends it.
. "$(dirname "$0")/lib.sh"
mon=$WORK/monitor.sock
"$ATALAB" run --quiet --log "$WORK/console.log" --disk "$WORK/disk.img" --disk-size 16M \
	--model ich5 --cable 80 --timeout 300 --monitor "$mon" -- \
	sh -c 'pattern-rw /dev/sda 4M 3 && echo ready && sleep 600' \
	>"$WORK/stdout" 2>"$WORK/stderr" &
run=$!
wait_for_line "$WORK/stdout" ready $run || { wait $run || true; fail "guest never got ready: $(cat "$WORK/stderr")"; }
"$ATALAB" monitor "$mon" 'info atalab' >"$WORK/hmp.txt" || fail "atalab monitor failed"
"$ATALAB" monitor "$mon" 'qom-get /machine/peripheral/ata violations0' 'qom-get /machine/peripheral/ata cable1' \
	>"$WORK/qom.txt" || fail "atalab monitor qom-get failed"
"$ATALAB" monitor "$mon" quit || fail "atalab monitor quit failed"
wait $run || true
cat "$WORK/hmp.txt" "$WORK/qom.txt"
head -n1 "$WORK/hmp.txt" | grep -qx '/machine/peripheral/ata: model ich5, cable0 80, cable1 80, strict off' ||
	fail "no controller line first"
grep -qx '  channel0: legacy mode, command 0x1f0, control 0x3f6, IRQ 14' "$WORK/hmp.txt" &&
	grep -qx '  channel1: legacy mode, command 0x170, control 0x376, IRQ 15' "$WORK/hmp.txt" ||
	fail "no channel lines"
grep -qE '^ *drive0: .*udma.*checks=[1-9][0-9]* violations=0' "$WORK/hmp.txt" || fail "drive0 line lacks the decode or counts"
grep -q '^  stop-on: none, stops=0, last stop: none$' "$WORK/hmp.txt" || fail "no stop-on line"
[ "$(cat "$WORK/qom.txt")" = "$(printf '0\n80')" ] || fail "qom-get answers: $(cat "$WORK/qom.txt")"
! grep -q 'info atalab\|(qemu)' "$WORK/hmp.txt" || fail "the client shows the monitor's echo or prompt"
