# shellcheck shell=bash
# Shared by tests/debug/*.sh: `atalab debug` batch sessions (gdb scripts
# next to the tests) with the guest tests' helpers.
. "$(dirname "$0")/../guest/lib.sh"
DEBUG_DIR=$(cd "$(dirname "$0")" && pwd)

# session EXPECTED [debug options] [-- guest command]: a batch debug run
# with this test's console log; its stdout (gdb's and the guest's) and
# stderr in $WORK/stdout and $WORK/stderr.
session() {
	local want=$1 got=0 t0=$SECONDS
	shift
	"$ATALAB" debug --quiet --log "$WORK/console.log" "$@" >"$WORK/stdout" 2>"$WORK/stderr" </dev/null || got=$?
	if [ "$got" != "$want" ]; then
		echo "--- stdout ---" >&2; cat "$WORK/stdout" >&2
		echo "--- stderr ---" >&2; cat "$WORK/stderr" >&2
		fail "atalab debug $* exited $got, expected $want"
	fi
	echo "session exited $got after $((SECONDS - t0)) s"
}
