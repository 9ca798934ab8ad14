#!/usr/bin/env bash
# tools/atalab run --deterministic: ten runs of one job (ata_piix probing
# disks on both channels, then writing, reading and flushing through both)
# give traces that tools/atalab trace diff --ignore none calls identical:
# times, poll counts and guest addresses included.  Two controls, so the
# ten can fail: without --deterministic two runs differ, and with it but
# atalab-ide's deterministic=off (icount alone, backend completions at host
# times) they differ too.
. "$(dirname "$0")/lib.sh"
JOB='ata-pattern write /dev/sda --size 1M --seed 5 --direct >/dev/null &&
ata-pattern write /dev/sdb --size 512K --seed 6 >/dev/null && sync &&
dd if=/dev/sda of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null &&
ata-pattern verify /dev/sdb --size 512K --seed 6 --direct'

# one N [run options]: run the job with fresh disks into $WORK/N.trace
one() {
	local n=$1
	shift
	rm -f "$WORK/$n-a.img" "$WORK/$n-b.img"
	"$ATALAB" run --quiet --log "$WORK/$n.log" --disk-size 16M --disk "$WORK/$n-a.img" --disk none \
		--disk "$WORK/$n-b.img" --trace "$WORK/$n.trace" "$@" -- sh -c "$JOB" >"$WORK/$n.out" 2>&1 ||
		{ echo "run $n failed:"; cat "$WORK/$n.out"; tail -n 20 "$WORK/$n.log"; return 1; }
}

# Two guests at a time.
for pair in "1 2" "3 4" "5 6" "7 8" "9 10"; do
	set -- $pair
	one "$1" --deterministic & p1=$!
	one "$2" --deterministic & p2=$!
	wait $p1 || fail "deterministic run $1 failed"
	wait $p2 || fail "deterministic run $2 failed"
done
records=$(grep -vc '^#' "$WORK/1.trace")
[ "$records" -gt 500 ] || fail "the trace of run 1 has only $records records"
same=0
for n in 2 3 4 5 6 7 8 9 10; do
	if "$ATALAB" trace diff --ignore none "$WORK/1.trace" "$WORK/$n.trace" >"$WORK/diff$n"; then
		same=$((same + 1))
	else
		echo "run $n differs from run 1:"
		head -n 30 "$WORK/diff$n"
	fi
done
echo "deterministic: $((same + 1)) of 10 runs give the same trace ($records records), --ignore none"
[ $same = 9 ] || fail "only $((same + 1)) of 10 deterministic runs agree"
"$ATALAB" trace diff --format unified --ignore none "$WORK/1.trace" "$WORK/10.trace" >"$WORK/unified" ||
	fail "the unified diff of runs 1 and 10 is not empty: $(head -c 2000 "$WORK/unified")"

# The controls: each must differ from its twin.
one c1 & p1=$!
one c2 & p2=$!
wait $p1 && wait $p2 || fail "a plain run failed"
rc=0
"$ATALAB" trace diff --ignore none "$WORK/c1.trace" "$WORK/c2.trace" >/dev/null || rc=$?
[ $rc = 1 ] || fail "two plain runs: trace diff --ignore none exited $rc, expected 1 (different)"
one i1 --deterministic --device-opt deterministic=off & p1=$!
one i2 --deterministic --device-opt deterministic=off & p2=$!
wait $p1 && wait $p2 || fail "an icount-only run failed"
rc=0
"$ATALAB" trace diff --ignore none "$WORK/i1.trace" "$WORK/i2.trace" >"$WORK/icount" || rc=$?
[ $rc = 1 ] || fail "two icount-only runs: trace diff --ignore none exited $rc, expected 1"
echo "controls: two plain runs differ; two runs with icount but host-timed completions differ:"
grep -m3 ' vs ' "$WORK/icount" || true
