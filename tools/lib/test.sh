# shellcheck shell=bash
# tools/atalab test: build everything, then run the test suites with meson.

meson_build_dir() {
	# One build directory per checkout: meson records absolute source paths.
	echo "$ATALAB_CACHE_ROOT/meson/$(printf '%s' "$ATALAB_ROOT" | sha256sum | cut -c1-16)"
}

test_options() {
	opt_words
	opt --suite SUITE+ "run the tests of SUITE"
	opt --list - "list the tests instead of running them"
	opt -v,--verbose - "show the tests' output as they run"
	opt --num-processes N "tests run in parallel (default: the number of CPUs)"
	opt --repeat N "run each test N times (meson's --repeat)"
	kernel_patch_options
}

test_usage() {
	cat <<USAGE
usage: atalab test [options] [TEST ...]

Builds everything (as 'atalab build'), configures the meson project once and
runs the tests through 'meson test'.  Suites:
  unit    the emulator core under GTest, with ASan and UBSan, and the
          fuzzer's seed, regression and random inputs
  style   the kernel's checkpatch.pl --strict over driver/ and its patch
          series, sparse and W=1, QEMU's checkpatch over qemu-device/, the
          core's include layering
  tools   the atalab command itself: options, cache keys, locks, progress,
          help, completion, the README's recipes
  fuzz    a 45-second libFuzzer run of the core
  guest   guests booted on the emulated controller, asserting from inside
          them and on the host (fault scenarios, the mode matrix, the
          in-tree build of the driver)
  debug   'atalab debug' batch sessions: breakpoints, module symbols, device
          stops
TEST names a test (tools/atalab test --list lists them).

options (passed on to 'meson test'):
$(options_help test_options)

The last line is the summary 'N passed, N failed, N skipped', counted from
this run only; a skipped test is never counted as passed.  When more than
ten tests ran, the ten slowest come before it, with their seconds.  Exit status 0
when no test failed and one passed (a test skipped where it cannot run,
such as kvm-probe-stale without /dev/kvm, is counted as skipped), 1
otherwise (also when meson failed before running any test: its message is
shown).

examples:
  tools/atalab test                   # every suite
  tools/atalab test --suite unit      # one suite
  tools/atalab test streams -v        # one test, verbose
USAGE
}

cmd_test() {
	local -a args=() suites=()
	local s
	opt_values --suite suites
	for s in "${suites[@]}"; do args+=(--suite "$s"); done
	! opt_given --list || args+=(--list)
	! opt_given --verbose || args+=(--verbose)
	for s in --num-processes --repeat; do
		if opt_given $s; then
			[[ "${OPT[$s]}" =~ ^[1-9][0-9]*$ ]] || usage_error "$s wants a positive number, got '${OPT[$s]}'"
			args+=("$s" "${OPT[$s]}")
		fi
	done
	args+=("${OPT_ARGS[@]}")
	build_all
	local build
	build=$(meson_build_dir)
	if [ ! -f "$build/build.ninja" ]; then
		rm -rf "$build"
		run_logged "$ATALAB_CACHE/logs/meson-setup.log" "configuring the meson project" \
			meson setup "$build" "$ATALAB_ROOT"
	fi
	test_run_meson "$build" "${args[@]}"
}

# test_run_meson BUILD [meson test args]: run meson test, then print the
# summary of that run (its own testlog.json, never an earlier one's).
test_run_meson() {
	local build=$1 rc json err a
	shift
	# A listing runs nothing: meson's list is the whole output.
	for a in "$@"; do
		[ "$a" = --list ] && { meson test -C "$build" "$@"; return; }
	done
	json=$build/meson-logs/testlog.json
	err=$(mktemp "${TMPDIR:-/tmp}/atalab-meson.XXXXXX")
	rm -f "$json"
	{
		rc=0
		ATALAB_CACHE=$ATALAB_CACHE meson test -C "$build" --print-errorlogs "$@" \
			2>&1 1>&3 3>&- || rc=$?
		echo $rc >"$err.status"
	} 3>&1 | tee "$err" >&2
	rc=$(cat "$err.status")
	if [ ! -s "$json" ]; then
		msg "meson ran no test (exit $rc):"
		grep -v '^ *$' "$err" | tail -n 5 | sed 's/^/  /' >&2
		rm -f "$err" "$err.status"
		echo "0 passed, 0 failed, 0 skipped"
		return 1
	fi
	rm -f "$err" "$err.status"
	test_summary "$json" || rc=1
	return $rc
}

# 'N passed, N failed, N skipped' from meson's machine-readable log, after
# the ten slowest tests when more than ten ran (where the suite's time
# goes).  A skipped test is never counted as passed; no test at all is a
# failure.
test_summary() {
	python3 - "$1" <<'PY'
import json, sys
passed = failed = skipped = 0
times = []
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        test = json.loads(line)
        result = test["result"]
        times.append((test.get("duration") or 0.0, test["name"]))
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
if len(times) > 10:
    total = sum(t for t, _ in times)
    print(f"the ten slowest of {len(times)} tests ({total:.0f} test-seconds in all):")
    for t, name in sorted(times, key=lambda x: (-x[0], x[1]))[:10]:
        print(f"  {t:7.1f} s  {name}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
PY
}
