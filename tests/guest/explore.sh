#!/usr/bin/env bash
# tools/atalab explore with a small budget, on the gcov kernel: four runs two
# at a time fill the corpus (the first run folded in always finds lines) and the
# coverage set (libata-eh.c lines executed), runs.log has a line per run,
# and a second explore of the same folder goes on from run 5, with the
# corpus it left; a campaign of two jobs (--emit-jobs, GNU parallel) merges
# into one folder, and a job made for other builds refuses to run.
. "$(dirname "$0")/lib.sh"
dir=$WORK/explore
rc=0
"$ATALAB" explore --runs 4 --jobs 2 --seed 3 "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
# A finding exits 1: the oracles may find something in libata; only a
# usage or runner failure is a failure here.
[ $rc -le 1 ] || fail "explore exited $rc: $(tail -n 20 "$WORK/out" "$WORK/err")"
cat "$WORK/out"
[ "$(wc -l <"$dir/runs.log")" = 4 ] || fail "runs.log has $(wc -l <"$dir/runs.log") lines, not 4"
# The first run folded in (runs end in any order) found lines.
first=$(awk 'NR == 1 && $4 + 0 > 0 { print $1 }' "$dir/runs.log")
[ -n "$first" ] || fail "the first run folded in found no lines: $(cat "$dir/runs.log")"
[ -f "$dir/corpus/run$first.scenario" ] || fail "run $first is not in the corpus"
grep -q '^H libata-eh.c:' "$dir/coverage.set" || fail "no line of libata-eh.c executed"
grep -q '^F libata-eh.c:' "$dir/coverage.set" || fail "no libata-eh.c line left to find"
grep -Eq '^coverage: libata-eh.c +[0-9.]+% of lines' "$WORK/out" || fail "no per-file summary"
grep -q 'explore: 4 runs in ' "$WORK/err" || fail "no progress line for run 4: $(tail -n 3 "$WORK/err")"
# A corpus scenario is a scenario: it checks, and names its workload.
"$ATALAB" scenario --check "$dir/corpus/run$first.scenario" >/dev/null || fail "run $first's scenario does not check"
echo "ok: 4 runs, corpus $(ls "$dir/corpus" | wc -l), $(grep -c '^H' "$dir/coverage.set") lines executed"

rc=0
"$ATALAB" explore --runs 2 --jobs 2 --seed 3 "$dir" >"$WORK/out2" 2>"$WORK/err2" || rc=$?
[ $rc -le 1 ] || fail "the resumed explore exited $rc: $(tail -n 20 "$WORK/out2" "$WORK/err2")"
grep -q "from run 5," "$WORK/err2" || fail "the resumed explore did not start at run 5: $(head -n 3 "$WORK/err2")"
[ "$(awk '{ print $1 }' "$dir/runs.log" | sort -n | paste -sd' ')" = "1 2 3 4 5 6" ] ||
	fail "runs.log after resuming: $(awk '{ print $1 }' "$dir/runs.log" | paste -sd' ')"
[ -f "$dir/corpus/run$first.scenario" ] || fail "resuming lost the corpus"
echo "ok: resumed at run 5; runs.log: $(awk '{ printf "%s:%s ", $1, $4 }' "$dir/runs.log")"

# A campaign: two searches as jobs (a seed each), run by GNU parallel,
# merged into one folder.
c=$WORK/campaign
"$ATALAB" explore --emit-jobs 2 --runs 1 --minimize-runs 0 --seed 5 "$c" >"$WORK/emit" 2>&1 ||
	fail "--emit-jobs failed: $(tail -n 5 "$WORK/emit")"
[ "$(wc -l <"$c/jobs.txt")" = 2 ] || fail "jobs.txt: $(cat "$c/jobs.txt")"
# A job made for other builds refuses to run, before a guest boots.
sed 's/ kernel=/ kernel=stale/' "$c/jobs/shard1/job.sh" >"$WORK/stale.sh"
rc=0
sh "$WORK/stale.sh" >"$WORK/stale.out" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "not the ones the job was made for" "$WORK/stale.out" ||
	fail "a job for other builds: exit $rc: $(tail -n 3 "$WORK/stale.out")"
[ ! -f "$c/jobs/shard1/runs.log" ] || fail "the refused job ran"
command -v parallel >/dev/null || fail "GNU parallel missing (tools/atalab setup installs it)"
parallel --jobs 2 --halt never <"$c/jobs.txt" >"$WORK/parallel.out" 2>&1 || true
for k in 1 2; do
	[ "$(wc -l <"$c/jobs/shard$k/runs.log" 2>/dev/null)" = 1 ] ||
		fail "job $k ran no run: $(tail -n 5 "$WORK/parallel.out")"
done
# Each job drew with its own seed: run 1 of seed 5, and of seed 6.
[ "$(awk '{ print $2 }' "$c/jobs/shard1/runs.log" "$c/jobs/shard2/runs.log" | paste -sd' ')" = "5000016 6000019" ] ||
	fail "the jobs' seeds: $(cat "$c"/jobs/shard*/runs.log)"
rc=0
"$ATALAB" explore --merge "$c" >"$WORK/merge" 2>&1 || rc=$?
[ $rc -le 1 ] || fail "--merge exited $rc: $(tail -n 5 "$WORK/merge")"
[ "$(awk '{ print $1 }' "$c/runs.log" | paste -sd' ')" = "1 2" ] || fail "merged runs.log: $(cat "$c/runs.log")"
grep -q '^H ' "$c/coverage.set" && [ -s "$c/coverage.svg" ] || fail "the merge has no coverage or no curve"
echo "ok: a campaign of two jobs merged: $(grep -c '^H' "$c/coverage.set") lines executed"
