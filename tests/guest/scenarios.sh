#!/usr/bin/env bash
# The scenario library (tests/scenarios/): every scenario passes, two
# guests at a time; the table and the JUnit file are printed.  With an
# argument, every scenario runs with that driver instead (--driver).
. "$(dirname "$0")/lib.sh"
rc=0
driver=()
[ $# = 0 ] || driver=(--driver "$1")
"$ATALAB" scenario --jobs 2 "${driver[@]}" --junit "$WORK/junit.xml" --work "$WORK/runs" \
	"$ATALAB_ROOT/tests/scenarios" >"$WORK/table" 2>"$WORK/stderr" || rc=$?
cat "$WORK/table"
grep -E 'guest run ended|runs with driver' "$WORK/stderr" | sed 's/^atalab-scenario: /  /'
[ "$rc" = 0 ] || fail "scenario library: exit $rc: $(grep -E '  NO  ' "$WORK/table"; tail -n 5 "$WORK/stderr")"
if [ $# != 0 ]; then
	grep -q "every scenario runs with driver $1\$" "$WORK/stderr" || fail "the runner did not take --driver $1"
	for log in "$WORK"/runs/*/console.log; do
		grep -q "scsi host0: $1" "$log" || fail "$log: host0 is not $1's: the scenario ran another driver"
	done
fi
n=$(find "$ATALAB_ROOT/tests/scenarios" -name '*.scenario' | wc -l)
grep -q "<testsuite [^>]*tests=\"$n\" failures=\"0\"" "$WORK/junit.xml" ||
	fail "JUnit does not list $n passing scenarios: $(head -n 3 "$WORK/junit.xml")"
echo "ok: $n scenarios${1:+ with $1}"
