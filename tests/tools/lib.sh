# shellcheck shell=bash
# Shared by tests/tools/*.sh: a work directory, failure reporting, and
# running the atalab command or its library functions.
set -uo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
ATALAB=$ATALAB_ROOT/tools/atalab
WORK=$(mktemp -d "${TMPDIR:-/tmp}/atalab-tools-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILURES=0

# A failed check: reported, counted; the test fails at its end (finish).
bad() {
	echo "FAIL: $*" >&2
	FAILURES=$((FAILURES + 1))
}
ok() { echo "ok: $*"; }

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}

# expect STATUS PATTERN -- atalab arguments...: atalab exits STATUS and
# its output (stdout and stderr) has a line matching PATTERN (grep -E).
expect() {
	local want=$1 pattern=$2 got=0
	shift 3
	"$ATALAB" "$@" >"$WORK/out" 2>&1 </dev/null || got=$?
	if [ "$got" != "$want" ] || ! grep -qE -- "$pattern" "$WORK/out"; then
		bad "atalab $* exited $got (want $want); wanted a line matching: $pattern"
		sed 's/^/  | /' "$WORK/out" >&2
	else
		ok "atalab $* -> $got: $(grep -E -m1 -- "$pattern" "$WORK/out")"
	fi
}

# The atalab library, for tests of single functions (in this shell).
load_atalab() {
	local lib
	set +e
	. "$ATALAB_ROOT/tools/lib/commands.sh"
	for lib in $(atalab_libs); do
		# shellcheck disable=SC1090
		. "$ATALAB_ROOT/tools/lib/$lib.sh"
	done
}

# lcov_info FILE "NAME.c LINE,COUNT ..."...: an lcov tracefile of files
# under drivers/ata/, for explore's coverage sets.
lcov_info() {
	local f=$1 rec da
	shift
	: >"$f"
	for rec in "$@"; do
		printf 'SF:/src/linux/drivers/ata/%s\n' "${rec%% *}" >>"$f"
		for da in ${rec#* }; do echo "DA:$da" >>"$f"; done
		echo end_of_record >>"$f"
	done
}

finish() {
	[ "$FAILURES" = 0 ] || { echo "$FAILURES check(s) failed" >&2; exit 1; }
	echo "all checks passed"
}
