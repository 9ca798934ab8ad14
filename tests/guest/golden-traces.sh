#!/usr/bin/env bash
# Golden traces (traces/golden/README.md): every golden's deterministic run
# again, its trace diffed against the golden with trace diff's default
# ignores (time, polls, addresses); a difference fails with the diff's
# report.  Also: every golden is there, reads as a trace and has the
# normalized times (all 0).
. "$(dirname "$0")/lib.sh"
. "$ATALAB_ROOT/tools/lib/golden.sh"
GOLDEN=$ATALAB_ROOT/$ATALAB_GOLDEN_DIR
mapfile -t names < <(golden_names)
for name in "${names[@]}"; do
	[ -f "$GOLDEN/$name.trace" ] ||
		fail "no golden $ATALAB_GOLDEN_DIR/$name.trace (tools/atalab trace bless $name)"
	"$ATALAB" trace check "$GOLDEN/$name.trace" >/dev/null ||
		fail "the golden $name.trace is not a valid trace"
	grep -v '^#' "$GOLDEN/$name.trace" | grep -qv '^0 ' &&
		fail "the golden $name.trace is not normalized (a record with a time)"
done
echo "goldens: ${#names[@]} files, $(cat "$GOLDEN"/*.trace | wc -c) bytes"

# against_golden NAME: rerun it and diff
against_golden() {
	local rc=0
	golden_run "$1" "$WORK/$1.trace" "$WORK" || return 1
	"$ATALAB" trace diff "$GOLDEN/$1.trace" "$WORK/$1.trace" >"$WORK/$1.diff" 2>&1 || rc=$?
	if [ $rc != 0 ]; then
		echo "$1 differs from its golden (trace diff exit $rc; tools/atalab trace bless $1 after an intended change):"
		cat "$WORK/$1.diff"
		return 1
	fi
	echo "$1: as its golden ($(grep -vc '^#' "$WORK/$1.trace") records)"
}
golden_each against_golden "${names[@]}" || fail "a run differs from its golden (above)"
echo "PASS: ${#names[@]} runs as their goldens"
