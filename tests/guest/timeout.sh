#!/usr/bin/env bash
# A hung guest is killed after --timeout seconds of wall-clock time (not of
# polling iterations) with a clear message.
. "$(dirname "$0")/lib.sh"
start=$(date +%s.%N)
expect_status 124 --disk "$WORK/disk.img" --driver none --timeout 8 -- sleep 600
took=$(echo "$(date +%s.%N) - $start" | bc)
grep -q 'guest still running after 8s: killed' "$WORK/stderr" || fail "no timeout message: $(cat "$WORK/stderr")"
# 8 s from QEMU's start, plus the build check before it and the kill.
echo "$took" | awk '{ exit !($1 >= 8 && $1 < 12) }' || fail "killed after $took s of wall-clock time, not about 8"
echo "ok: killed after $took s"
