#!/usr/bin/env bash
# The scenario library (tests/scenarios/): every scenario passes, two
# guests at a time; the table and the JUnit file are printed.
. "$(dirname "$0")/lib.sh"
rc=0
"$ATALAB" scenario --jobs 2 --junit "$WORK/junit.xml" --work "$WORK/runs" \
	"$ATALAB_ROOT/tests/scenarios" >"$WORK/table" 2>"$WORK/stderr" || rc=$?
cat "$WORK/table"
grep 'guest run ended' "$WORK/stderr" | sed 's/^atalab-scenario: /  /'
[ "$rc" = 0 ] || fail "scenario library: exit $rc: $(grep -E '  NO  ' "$WORK/table"; tail -n 5 "$WORK/stderr")"
n=$(find "$ATALAB_ROOT/tests/scenarios" -name '*.scenario' | wc -l)
grep -q "<testsuite [^>]*tests=\"$n\" failures=\"0\"" "$WORK/junit.xml" ||
	fail "JUnit does not list $n passing scenarios: $(head -n 3 "$WORK/junit.xml")"
echo "ok: $n scenarios"
