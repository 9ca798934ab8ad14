#!/usr/bin/env bash
# A hung guest is killed after --timeout seconds of wall-clock time (not of
# polling iterations, which stretch on a loaded host) with a clear message.
. "$(dirname "$0")/lib.sh"
# When QEMU starts (the run's clock starts just before), and when the
# guest's console starts (a moment, or on a loaded host a few seconds, later).
(
	until pgrep -f -- "path=$WORK/console.log" >/dev/null; do sleep 0.05; done
	date +%s.%N >"$WORK/qemu-start"
	while [ ! -s "$WORK/console.log" ]; do sleep 0.05; done
	date +%s.%N >"$WORK/console-start"
) &
watcher=$!
expect_status 124 --disk "$WORK/disk.img" --driver none --timeout 8 -- sleep 600
end=$(date +%s.%N)
kill $watcher 2>/dev/null || true
grep -q 'guest still running after 8s: killed' "$WORK/stderr" || fail "no timeout message: $(cat "$WORK/stderr")"
[ -s "$WORK/qemu-start" ] || fail "QEMU was never seen running"
[ -s "$WORK/console-start" ] || fail "the guest's console never started"
# Not much before 8 s after QEMU was seen (a moment after the clock
# started), and not much after 8 s after the console started (a moment
# after the clock started: a slow start only shortens this span).
run=$(echo "$end - $(cat "$WORK/qemu-start")" | bc)
took=$(echo "$end - $(cat "$WORK/console-start")" | bc)
echo "$run" | awk '{ exit !($1 >= 7) }' || fail "killed $run s after QEMU started, not about 8"
echo "$took" | awk '{ exit !($1 < 10.5) }' ||
	fail "killed $took s after the console started, not about 8"
echo "ok: killed $run s after QEMU started, $took s after the guest's console started"
