#!/usr/bin/env bash
# Two runs at once do not collide: the default disk is locked by the run
# using it (a second run is told to bring its own), and each run gets a
# default console log of its own.  (In a private cache, so the defaults are
# this test's.)  The first run holds its disk and log until the other two
# have run, however long that takes on a loaded machine: its guest polls a
# sector that a fault rule ("gate") fails until the host clears the rules
# over QMP.
. "$(dirname "$0")/lib.sh"
private_cache
QMP=$WORK/qmp.sock
echo 'unc id=gate drive=0 class=read lba=30000+8' >"$WORK/gate.rules"
"$ATALAB" run --quiet --faults "$WORK/gate.rules" --qemu-arg -qmp --qemu-arg "unix:$QMP,server=on,wait=off" -- sh -c '
echo first
i=0
until ata-pattern read /dev/sda --offset $((30000 * 512)) --size 4096 --direct >/dev/null 2>&1 || [ $i -ge 600 ]; do
	i=$((i + 1))
	sleep 0.5
done
[ $i -lt 600 ] && echo released' >"$WORK/a.out" 2>"$WORK/a.err" </dev/null &
a=$!
wait_for_line "$WORK/a.out" first $a || fail "the first run did not start: $(cat "$WORK/a.err")"
rc=0
"$ATALAB" run --quiet -- true >"$WORK/b.out" 2>"$WORK/b.err" </dev/null || rc=$?
[ "$rc" = 1 ] && grep -q "the default disk $ATALAB_CACHE/disks/disk0.img is in use by another atalab run; give this run a disk of its own with --disk FILE" "$WORK/b.err" ||
	fail "second run on the default disk: exit $rc: $(cat "$WORK/b.err")"
echo "ok: the default disk is locked"
rc=0
"$ATALAB" run --disk "$WORK/c.img" --disk-size 16M -- echo second >"$WORK/c.out" 2>"$WORK/c.err" </dev/null || rc=$?
[ "$rc" = 0 ] && grep -qx second "$WORK/c.out" || fail "a run with its own disk: exit $rc: $(cat "$WORK/c.err")"
grep -q "run.log is in use by another run: this run's console log is $ATALAB_CACHE/logs/run-2.log" "$WORK/c.err" ||
	fail "no own log: $(cat "$WORK/c.err")"
grep -q 'Linux version' "$ATALAB_CACHE/logs/run-2.log" || fail "run-2.log has no console"
echo "ok: the second run logs to run-2.log"
"$ATALAB" fault clear --qmp "$QMP" || fail "fault clear failed"
wait $a || fail "the first run failed: $(cat "$WORK/a.err")"
grep -qx released "$WORK/a.out" || fail "the first run was not held until the others ended: $(cat "$WORK/a.out")"
grep -q 'Linux version' "$ATALAB_CACHE/logs/run.log" || fail "the first run's log was clobbered"
[ "$(grep -c 'Linux version' "$ATALAB_CACHE/logs/run.log")" = 1 ] || fail "run.log holds two consoles"
echo "ok: the first run's log is its own"
