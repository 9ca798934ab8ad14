# shellcheck shell=bash
# tools/atalab test: build everything, then run every test with meson.

meson_build_dir() {
	# One build directory per checkout: meson records absolute source paths.
	echo "$ATALAB_CACHE/meson/$(printf '%s' "$ATALAB_ROOT" | sha256sum | cut -c1-16)"
}

cmd_test() {
	local -a meson_args=()
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help)
			cat <<USAGE
usage: atalab test [meson test options, e.g. --suite unit, a test name, -v]
Builds everything (as 'atalab build'), configures the meson project once and
runs every test: core unit tests (suite 'unit') and guest tests that boot a
guest on the emulated controller (suite 'guest').  The last line is the
summary 'N passed, N failed, N skipped'.
USAGE
			return 0
			;;
		*) meson_args+=("$1"); shift ;;
		esac
	done
	build_all
	local build
	build=$(meson_build_dir)
	if [ ! -f "$build/build.ninja" ]; then
		run_logged "$ATALAB_CACHE/logs/meson-setup.log" meson setup "$build" "$ATALAB_ROOT"
	fi
	local rc=0
	ATALAB_CACHE=$ATALAB_CACHE meson test -C "$build" --print-errorlogs \
		"${meson_args[@]}" || rc=$?
	test_summary "$build/meson-logs/testlog.json" || rc=1
	return $rc
}

# 'N passed, N failed, N skipped' from meson's machine-readable log.  A
# skipped test is never counted as passed.
test_summary() {
	local json=$1
	[ -f "$json" ] || { echo "0 passed, 1 failed, 0 skipped"; return 1; }
	python3 - "$json" <<'PY'
import json, sys
passed = failed = skipped = 0
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        result = json.loads(line)["result"]
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
PY
}
