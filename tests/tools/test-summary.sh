#!/usr/bin/env bash
# The summary line of atalab test comes from the run that just happened,
# never from an earlier run's log, and a meson failure before any test ran
# is a failure that shows meson's message; --list only lists.
# (test_run_meson on a small meson project of its own.)
. "$(dirname "$0")/lib.sh"
load_atalab
proj=$WORK/proj
mkdir -p "$proj"
cat >"$proj/meson.build" <<'MESON'
project('summary-test', 'c')
sh = find_program('sh')
test('passes', sh, args: ['-c', 'exit 0'])
test('also-passes', sh, args: ['-c', 'exit 0'])
test('skips', sh, args: ['-c', 'exit 77'])
MESON
meson setup "$WORK/build" "$proj" >/dev/null 2>&1 || { bad "meson setup failed"; finish; }
rc=0
test_run_meson "$WORK/build" >"$WORK/out1" 2>&1 || rc=$?
last=$(tail -n1 "$WORK/out1")
[ "$rc" = 0 ] && [ "$last" = "2 passed, 0 failed, 1 skipped" ] && ok "summary of a full run: $last" ||
	bad "full run: exit $rc, $last"
rc=0
test_run_meson "$WORK/build" passes >"$WORK/out2" 2>&1 || rc=$?
last=$(tail -n1 "$WORK/out2")
[ "$rc" = 0 ] && [ "$last" = "1 passed, 0 failed, 0 skipped" ] && ok "summary of one test: $last" ||
	bad "one test: exit $rc, $last"
rc=0
test_run_meson "$WORK/build" --list >"$WORK/list" 2>&1 || rc=$?
[ "$rc" = 0 ] && [ "$(grep -cE '^(summary-test:)?(passes|also-passes|skips)$' "$WORK/list")" = 3 ] && ! grep -q 'passed,' "$WORK/list" &&
	ok "--list lists the 3 tests once, no summary" || bad "--list: exit $rc, $(tr '\n' ' ' <"$WORK/list")"
rc=0
test_run_meson "$WORK/build" no-such-test >"$WORK/out3" 2>&1 || rc=$?
last=$(tail -n1 "$WORK/out3")
[ "$rc" != 0 ] && ok "a run of no test fails (exit $rc)" || bad "a run of no test passed"
[ "$last" = "0 passed, 0 failed, 0 skipped" ] && ok "and is not summarized from the earlier log" ||
	bad "stale summary: $last"
grep -A3 "meson ran no test" "$WORK/out3" | grep -q "No suitable tests defined" &&
	ok "meson's own message is shown" || bad "no cause shown: $(cat "$WORK/out3")"
# More than ten tests: the ten slowest, slowest first, before the summary.
big=$WORK/big
mkdir -p "$big"
{
	echo "project('slowest-test', 'c')"
	echo "sh = find_program('sh')"
	echo "test('slow', sh, args: ['-c', 'sleep 1.2'])"
	echo "test('slower', sh, args: ['-c', 'sleep 2'])"
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "test('quick$i', sh, args: ['-c', 'exit 0'])"; done
} >"$big/meson.build"
meson setup "$WORK/big-build" "$big" >/dev/null 2>&1 || { bad "meson setup (12 tests) failed"; finish; }
rc=0
test_run_meson "$WORK/big-build" >"$WORK/out5" 2>&1 || rc=$?
slowest=$(sed -n '/^the ten slowest of 12 tests/,$p' "$WORK/out5")
[ "$rc" = 0 ] && [ "$(tail -n1 "$WORK/out5")" = "12 passed, 0 failed, 0 skipped" ] &&
	[ "$(sed -n 2p <<<"$slowest" | awk '{print $3}')" = slower ] &&
	[ "$(sed -n 3p <<<"$slowest" | awk '{print $3}')" = slow ] &&
	[ "$(grep -c '^ .* s  ' <<<"$slowest")" = 10 ] &&
	ok "12 tests: the ten slowest listed, slowest first, then the summary" ||
	bad "12 tests: exit $rc: $(cat "$WORK/out5")"
grep -q 'slowest' "$WORK/out1" && bad "3 tests: a slowest list: $(cat "$WORK/out1")" ||
	ok "3 tests: no slowest list"
rc=0
test_run_meson "$WORK/no-build" >"$WORK/out4" 2>&1 || rc=$?
[ "$rc" != 0 ] && [ "$(tail -n1 "$WORK/out4")" = "0 passed, 0 failed, 0 skipped" ] &&
	grep -q "meson ran no test" "$WORK/out4" && ok "a missing build directory fails with its cause" ||
	bad "broken build dir: exit $rc: $(cat "$WORK/out4")"
finish
