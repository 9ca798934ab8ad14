#!/usr/bin/env bash
# explore finds the bugs planted in atalab_piix_planted (docs/explore.md),
# each with a small budget: planted=1, a NULL dereference after an error
# reset (oops); planted=2, the host lock never released on an error reset
# (the debugging kernel's "scheduling while atomic"); planted=3, the bus
# master's error bit swallowed (data).  Each search stops at its first finding, which must be
# the planted bug's, minimizes it (a minimal scenario that checks, with no
# more rules), and the data search without the bug finds nothing.
. "$(dirname "$0")/lib.sh"
# find_planted N KINDS WANT [OPTION...]: explore with bug N and rules of
# KINDS; the first finding's verdict must start with WANT.
find_planted() {
	local n=$1 kinds=$2 want=$3 dir=$WORK/planted$1 rc=0 t0=$SECONDS f
	shift 3
	"$ATALAB" explore --driver atalab_piix_planted --append "atalab_piix_planted.planted=$n" \
		--kinds "$kinds" --runs 30 --jobs 2 --seed 1 --until-finding "$@" "$dir" \
		>"$WORK/out$n" 2>"$WORK/err$n" || rc=$?
	[ $rc = 1 ] || fail "planted bug $n: explore exited $rc (1: findings): $(tail -n 15 "$WORK/out$n" "$WORK/err$n")"
	f=$(grep -m1 'finding: ' "$WORK/err$n") || fail "planted bug $n: no finding"
	[[ "${f#*finding: }" == "$want"* ]] || fail "planted bug $n: the first finding is '${f#*finding: }', not '$want...'"
	"$ATALAB" scenario --check "$dir"/findings/*/run*.scenario "$dir"/findings/*/minimal.scenario \
		>/dev/null || fail "planted bug $n: a finding's scenario does not check"
	rules() { grep -c '^rule' "$1"; }
	[ "$(rules "$dir"/findings/*/minimal.scenario)" -le "$(rules "$(ls "$dir"/findings/*/run*.scenario)")" ] ||
		fail "planted bug $n: the minimal scenario has more rules than the finding's"
	echo "ok: planted bug $n found in $((SECONDS - t0)) s, run ${f#*run }; minimized:" \
		"$(paste -sd, "$dir"/findings/*/minimized)"
}
find_planted 1 timeout,lost-irq "oops: BUG: kernel NULL pointer dereference" --timeout 35 --minimize-runs 4
grep -q 'RIP: .*atalab_piix_set_mode' "$WORK"/planted1/findings/*/console.log ||
	fail "planted bug 1: the oops is not in atalab_piix_set_mode"
# The debugging kernel (kernel/gcov.config) reports the lock still held
# when the error handler sleeps next, instead of a guest that stops.
find_planted 2 timeout,lost-irq "oops: BUG: scheduling while atomic" --timeout 35 --minimize-runs 3
grep -q 'atalab_piix_pata_prereset' "$WORK"/planted2/findings/*/console.log ||
	fail "planted bug 2: the report does not name atalab_piix_pata_prereset"
find_planted 3 bm-error "data: ata-pattern: " --workloads pattern,write-dma --timeout 35 --minimize-runs 4
# The same search without the bug finds nothing: the data finding is the
# planted bug's, not the oracle's.
runs=$(awk '$1 > n { n = $1 } END { print n }' "$WORK/planted3/runs.log")
rc=0
"$ATALAB" explore --driver atalab_piix_planted --append atalab_piix_planted.planted=0 --kinds bm-error \
	--workloads pattern,write-dma --timeout 35 --runs "$runs" --jobs 2 --seed 1 "$WORK/control" \
	>"$WORK/out0" 2>"$WORK/err0" || rc=$?
[ $rc = 0 ] || fail "planted=0, the same $runs runs: exit $rc: $(grep -h 'finding' "$WORK/out0" "$WORK/err0")"
echo "ok: planted=0, the same $runs runs: no finding"
