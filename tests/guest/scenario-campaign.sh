#!/usr/bin/env bash
# A small campaign the way a larger one runs over hosts: --emit-jobs writes
# self-contained jobs, GNU parallel runs them, --merge folds their results
# into one table and JUnit file.  A missed expectation, a job that left no
# result, and a job whose scenario changed after it was made all show.
. "$(dirname "$0")/lib.sh"
command -v parallel >/dev/null || fail "GNU parallel missing (tools/atalab setup installs it)"
lib=$ATALAB_ROOT/tests/scenarios
cp "$lib/unc-persistent.scenario" "$WORK/wrong-exit.scenario"
sed -i 's/^exit = 1$/exit = 0/' "$WORK/wrong-exit.scenario"
grep -qx 'exit = 0' "$WORK/wrong-exit.scenario" || fail "could not edit the expectation"
# A rule that cannot fire (beyond the workload's sectors), with no fired=.
cat >"$WORK/never-fires.scenario" <<'SCENARIO'
[scenario]
[faults]
rule = unc id=elsewhere drive=0 class=read lba=30000+8
[workload]
run = ata-pattern read /dev/$DISK0 --size 4096 --block 4096 --direct
[expect]
exit = 0
SCENARIO
c=$WORK/campaign
"$ATALAB" scenario --emit-jobs "$c" "$lib/unc-persistent.scenario" "$lib/idnf.scenario" \
	"$lib/latency.scenario" "$WORK/wrong-exit.scenario" "$WORK/never-fires.scenario" >"$WORK/emit" ||
	fail "emit-jobs failed: $(cat "$WORK/emit")"
[ "$(wc -l <"$c/jobs.txt")" = 5 ] || fail "jobs.txt does not list 5 jobs: $(cat "$c/jobs.txt")"
grep -q '^# inputs: scenario sha256 [0-9a-f]\{64\}$' "$c/idnf/job.sh" || fail "no input hash in a job: $(cat "$c/idnf/job.sh")"
grep -q '^# kit: qemu=[0-9a-f]* kernel=[0-9a-f]* driver=[0-9a-f]* initramfs=[0-9a-f]*$' "$c/idnf/job.sh" ||
	fail "no kit build keys in a job: $(cat "$c/idnf/job.sh")"
echo "ok: 5 jobs emitted"
parallel --jobs 2 --halt never <"$c/jobs.txt" >"$WORK/parallel.out" 2>&1 || true
for j in unc-persistent idnf latency wrong-exit never-fires; do
	[ -s "$c/$j/result.tsv" ] || fail "job $j left no result: $(tail -n 5 "$WORK/parallel.out")"
done
echo "ok: GNU parallel ran every job"
rc=0
"$ATALAB" scenario --merge "$c" --junit "$WORK/results.xml" >"$WORK/table" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "merge exited $rc with a missed expectation (want 1): $(cat "$WORK/table")"
grep -E '^wrong-exit +exit.* NO ' "$WORK/table" >/dev/null || fail "the missed expectation is not in the table: $(cat "$WORK/table")"
grep -E '^never-fires +rule elsewhere fired >= 1 +NO +0 \(unsaid' "$WORK/table" >/dev/null ||
	fail "a rule that never fired passed: $(grep '^never-fires' "$WORK/table")"
for j in unc-persistent idnf latency; do
	grep -E "^$j " "$WORK/table" | grep -q ' NO ' && fail "$j failed: $(grep -E "^$j " "$WORK/table")"
	grep -Eq "^$j " "$WORK/table" || fail "$j is not in the merged table"
done
grep -q '<testsuite [^>]*tests="5"[^>]*failures="2"' "$WORK/results.xml" ||
	fail "JUnit does not say 5 tests, 2 failures: $(head -n 3 "$WORK/results.xml")"
echo "ok: merged: 3 scenarios pass; the wrong expectation and the rule that never fired fail; JUnit agrees"
# A job that left no result is reported, not skipped.
rm "$c/latency/result.tsv"
"$ATALAB" scenario --merge "$c" >"$WORK/table2" 2>&1 && fail "merge passed with a job missing"
grep -E '^latency .* NO +missing' "$WORK/table2" >/dev/null || fail "the missing result is not named: $(cat "$WORK/table2")"
echo "ok: a missing result is reported"
# A job refuses a scenario edited after the job was made.
echo '# edited' >>"$c/idnf/scenario"
rc=0
"$c/idnf/job.sh" >"$WORK/edited" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q 'the scenario changed since the job was made' "$WORK/edited" ||
	fail "an edited job ran (exit $rc): $(cat "$WORK/edited")"
echo "ok: an edited job refuses to run"
