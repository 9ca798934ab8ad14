#!/usr/bin/env bash
# --coverage: two scenarios on the gcov kernel give an lcov report of
# libata and the PIIX drivers: the speed-down scenario executed
# ata_down_xfermask_limit (libata-core.c) and ata_piix's mode setting, the
# media error scenario never sped down, and the report counts both runs.
. "$(dirname "$0")/lib.sh"
lib=$ATALAB_ROOT/tests/scenarios
"$ATALAB" scenario --jobs 2 --coverage --work "$WORK/runs" "$lib/icrc-speed-down.scenario" \
	"$lib/unc-persistent.scenario" >"$WORK/out" 2>"$WORK/stderr" ||
	fail "the coverage run failed: $(tail -n 20 "$WORK/out" "$WORK/stderr")"
grep '^coverage: ' "$WORK/out" || fail "no coverage summary: $(tail -n 5 "$WORK/out")"
grep -Eq '^coverage: 2 runs, [0-9.]+% of the lines' "$WORK/out" || fail "the summary does not count 2 runs"
for f in libata-eh.c libata-sff.c ata_piix.c; do
	grep -Eq "^coverage: $f +[1-9][0-9.]*% of lines" "$WORK/out" || fail "no lines of $f covered"
done
info=$WORK/runs/coverage/coverage.info
[ -s "$WORK/runs/coverage/index.html" ] || fail "no HTML report"
# fnda FUNCTION: its call count in the merged report.
fnda() { awk -F'[:,]' -v f="$1" '$1 == "FNDA" && $3 == f { n += $2 } END { print n + 0 }' "$info"; }
[ "$(fnda ata_down_xfermask_limit)" -gt 0 ] || fail "ata_down_xfermask_limit not executed by the speed-down scenario"
[ "$(fnda piix_set_dmamode)" -gt 0 ] || fail "piix_set_dmamode not executed"
echo "ok: ata_down_xfermask_limit ran $(fnda ata_down_xfermask_limit) times, piix_set_dmamode $(fnda piix_set_dmamode)"
# Each run's own counts: the media error run never sped down.
lcov --quiet --capture --directory "$WORK/runs/unc-persistent/gcov" --output-file "$WORK/unc.info" >/dev/null 2>&1 ||
	fail "lcov on the media error run failed"
n=$(awk -F'[:,]' '$1 == "FNDA" && $3 == "ata_down_xfermask_limit" { n += $2 } END { print n + 0 }' "$WORK/unc.info")
[ "$n" = 0 ] || fail "the media error run shows ata_down_xfermask_limit $n times"
echo "ok: the media error run alone never called ata_down_xfermask_limit"
