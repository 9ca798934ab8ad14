#!/usr/bin/env bash
# A hung guest is killed after --timeout with a clear message.
. "$(dirname "$0")/lib.sh"
expect_status 124 --disk "$WORK/disk.img" --driver none --timeout 8 -- sleep 600
grep -q 'killed' "$WORK/stderr" || fail "no timeout message: $(cat "$WORK/stderr")"
