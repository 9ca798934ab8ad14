#!/usr/bin/env bash
# tools/atalab explore --merge, without a guest: two hand-made searches
# merged give the coverage set that one search folding both runs' counts
# gives (the union), both corpora with the second's runs renumbered after
# the first's, one finding for one signature found in both, the verdicts
# kept word for word; a second merge of the same folders changes nothing;
# the summary compares with --against and the curve is drawn, one line per
# search.
. "$(dirname "$0")/lib.sh"
load_atalab
set +u
build_all >/dev/null 2>&1 || { echo "FAIL: the build failed" >&2; exit 1; }
ex=$(explore_binary)
atalab=$ATALAB_ROOT/tools/atalab

# finding SEARCH SIGNATURE RUN...: a finding of SEARCH seen in RUNs.
finding() {
	local f=$WORK/$1/findings/$2 r
	mkdir -p "$f"
	echo "$2: seen" >"$f/verdict"
	for r in "${@:3}"; do
		echo "# run $r" >"$f/run$r.scenario"
		echo "run$r" >>"$f/runs"
	done
}
lcov_info "$WORK/a.info" "libata-eh.c 10,1 11,0 12,5" "libata-sff.c 3,0"
lcov_info "$WORK/b.info" "libata-eh.c 10,2 11,1 12,0 13,0" "ata_piix.c 7,4 8,0"
lcov_info "$WORK/lib.info" "libata-eh.c 10,1 11,1 12,1 13,1"
mkdir -p "$WORK/a/corpus" "$WORK/b/corpus"
"$ex" cover "$WORK/a/coverage.set" "$WORK/a.info" >/dev/null
"$ex" cover "$WORK/b/coverage.set" "$WORK/b.info" >/dev/null
"$ex" cover "$WORK/union.set" "$WORK/a.info" >/dev/null
"$ex" cover "$WORK/union.set" "$WORK/b.info" >/dev/null
printf '%s\n' "1 11 - 2 2 100 ok" "2 12 run1.scenario 0 2 110 oops: BUG:  two  spaces" \
	"3 13 run1.scenario 1 3 120 ok" >"$WORK/a/runs.log"
printf '%s\n' "1 21 - 3 3 105 ok" "2 22 run1.scenario 0 3 115 oops: BUG: again" >"$WORK/b/runs.log"
echo "# a1" >"$WORK/a/corpus/run1.scenario"
echo "# a3" >"$WORK/a/corpus/run3.scenario"
echo "# b1" >"$WORK/b/corpus/run1.scenario"
finding a oops-BUG 2
finding a hang-x 3
finding b oops-BUG 2

"$atalab" explore --merge --against "$WORK/lib.info" "$WORK/m" "$WORK/a" "$WORK/b" >"$WORK/out" 2>&1
rc=$?
[ $rc = 1 ] && ok "merge: exit 1 (findings)" || bad "merge: exit $rc, not 1: $(tail -n 5 "$WORK/out")"
cmp -s "$WORK/m/coverage.set" "$WORK/union.set" && ok "the merged coverage set is one search's union" ||
	bad "merged set differs from the union: $(diff "$WORK/m/coverage.set" "$WORK/union.set" | head -n 5)"
got=$(cd "$WORK/m/corpus" && ls | sort -V | paste -sd' ')
[ "$got" = "run1.scenario run3.scenario run4.scenario" ] && ok "corpus: $got" || bad "corpus: $got"
[ "$(cat "$WORK/m/corpus/run4.scenario")" = "# b1" ] && ok "b's run 1 is run 4" || bad "run4 is $(cat "$WORK/m/corpus/run4.scenario")"
want=$(printf '%s\n' "1 11 - 2 - 100 ok" "2 12 run1.scenario 0 - 110 oops: BUG:  two  spaces" \
	"3 13 run1.scenario 1 - 120 ok" "4 21 - 3 - 105 ok" "5 22 run4.scenario 0 - 115 oops: BUG: again")
[ "$(cat "$WORK/m/runs.log")" = "$want" ] && ok "runs.log renumbered, parents renamed, verdicts kept" ||
	bad "runs.log: $(cat "$WORK/m/runs.log")"
[ "$(paste -sd' ' "$WORK/m/findings/oops-BUG/runs")" = "run2 run5" ] && ok "one finding for oops-BUG, runs 2 and 5" ||
	bad "oops-BUG runs: $(paste -sd' ' "$WORK/m/findings/oops-BUG/runs")"
[ -f "$WORK/m/findings/oops-BUG/run2.scenario" ] && [ -f "$WORK/m/findings/hang-x/run3.scenario" ] &&
	ok "findings keep their scenarios" || bad "findings: $(cd "$WORK/m/findings" && find . -type f | paste -sd' ')"
grep -qx 'coverage: libata-eh.c     75.0% of lines (3 of 4); against 100.0% (4 of 4)' "$WORK/out" &&
	ok "summary against the library: $(grep libata-eh "$WORK/out")" || bad "summary: $(grep coverage: "$WORK/out")"
[ "$(grep -c '<polyline' "$WORK/m/coverage.svg")" = 2 ] && grep -q 'scenario library: 4<' "$WORK/m/coverage.svg" &&
	ok "curve: two searches and the library's line" || bad "curve: $(head -c 600 "$WORK/m/coverage.svg")"

cp -r "$WORK/m" "$WORK/m1"
"$atalab" explore --merge "$WORK/m" "$WORK/a" "$WORK/b" >"$WORK/out2" 2>&1
diff -r -x coverage.svg "$WORK/m1" "$WORK/m" >/dev/null && grep -q 'merged into .* already' "$WORK/out2" &&
	ok "merging the same searches again changes nothing" || bad "a second merge: $(diff -r "$WORK/m1" "$WORK/m" | head -n 5)"

"$atalab" explore --merge --budget 5m "$WORK/m" "$WORK/a" >"$WORK/err" 2>&1
rc=$?
[ $rc = 2 ] && grep -q -- '--merge takes only --against, not --budget' "$WORK/err" && ok "--merge --budget: usage error" ||
	bad "--merge --budget: exit $rc: $(cat "$WORK/err")"
"$atalab" explore --merge "$WORK/m" "$WORK/a.info" >"$WORK/err" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'is not a search' "$WORK/err" && ok "merging a non-search: usage error" ||
	bad "merging a file: exit $rc: $(cat "$WORK/err")"
finish
