#!/usr/bin/env bash
# A hung guest is killed after --timeout seconds of wall-clock time (not of
# polling iterations, which stretch on a loaded host) with a clear message.
. "$(dirname "$0")/lib.sh"
# When the guest's console starts: a moment after QEMU started.
(
	while [ ! -s "$WORK/console.log" ]; do sleep 0.05; done
	date +%s.%N >"$WORK/console-start"
) &
watcher=$!
expect_status 124 --disk "$WORK/disk.img" --driver none --timeout 8 -- sleep 600
end=$(date +%s.%N)
kill $watcher 2>/dev/null || true
grep -q 'guest still running after 8s: killed' "$WORK/stderr" || fail "no timeout message: $(cat "$WORK/stderr")"
[ -s "$WORK/console-start" ] || fail "the guest's console never started"
took=$(echo "$end - $(cat "$WORK/console-start")" | bc)
echo "$took" | awk '{ exit !($1 >= 6.5 && $1 < 10.5) }' ||
	fail "killed $took s after the console started, not about 8"
echo "ok: killed $took s after the guest's console started"
