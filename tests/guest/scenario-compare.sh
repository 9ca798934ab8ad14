#!/usr/bin/env bash
# tools/atalab scenario --compare-driver and --trace: a scenario of the
# library runs with its driver (ata_piix) and with atalab_piix, both meet
# its expectations, both traces are kept, and the two are compared by trace
# diff: a summary line for the scenario and the report in WORK/compare
# (atalab_piix writes no register with the value it holds: docs/driver.md,
# difference 9).
. "$(dirname "$0")/lib.sh"
"$ATALAB" scenario --jobs 2 --compare-driver atalab_piix --trace "$WORK/traces" --work "$WORK/runs" \
	"$ATALAB_ROOT/tests/scenarios/unc-transient.scenario" >"$WORK/out" 2>&1 ||
	{ cat "$WORK/out"; fail "scenario --compare-driver failed"; }
cat "$WORK/out"
[ -f "$WORK/traces/unc-transient.trace" ] && [ -f "$WORK/traces/unc-transient.atalab_piix.trace" ] ||
	fail "--trace did not keep both traces: $(ls "$WORK/traces")"
[ "$("$ATALAB" trace header "$WORK/traces/unc-transient.atalab_piix.trace" run.driver)" = atalab_piix ] ||
	fail "the second trace is not atalab_piix's"
grep -Eq '^unc-transient +[0-9]+ differences?: timing [0-9]+$' "$WORK/out" ||
	fail "no summary line with timing differences for unc-transient"
grep -q 'UDMACTL writes that change nothing \[whole run\]: [1-9][0-9]* vs 0' "$WORK/runs/compare/unc-transient.diff" ||
	fail "the report lacks ata_piix's redundant UDMACTL writes: $(cat "$WORK/runs/compare/unc-transient.diff")"
# The UNC and its error handling are libata's: the same with both drivers.
! grep -q '^errors:' "$WORK/runs/compare/unc-transient.diff" ||
	fail "the drivers' error handling differs: $(cat "$WORK/runs/compare/unc-transient.diff")"
echo "ok: both runs pass, both traces kept, compared: $(grep '^unc-transient ' "$WORK/out" | tail -n 1)"
