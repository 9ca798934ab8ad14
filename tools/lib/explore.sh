# shellcheck shell=bash
# tools/atalab explore: a coverage-guided search of fault space.  Each run
# is a scenario (docs/scenarios.md) that tools/explore/atalab-explore draws:
# a workload and fault rules, fresh or mutated from the corpus.  It runs on
# the gcov kernel (tools/lib/coverage.sh); a run that executes lines of
# libata or the PIIX drivers no run executed before joins the corpus, and
# a run that breaks an oracle is a finding, kept with its scenario.

EXPLORE_MODELS=(piix3 piix4 ich5 ich5-sata)

explore_options() {
	opt_words
	opt --driver NAME "module the guests load (default ata_piix)"
	opt --personality NAME "controller: ${EXPLORE_MODELS[*]} (default piix4)"
	opt --budget TIME "stop starting runs after TIME (90s, 30m, 2h; default 30m)"
	opt --runs N "stop after N runs (with --budget: whichever comes first)"
	opt --jobs N "guests at a time (default: number of CPUs)"
	opt --seed N "seed of the draws (default 1); a resumed DIR goes on from its last run"
}

explore_usage() {
	cat <<USAGE
usage: atalab explore [--driver M] [--personality P] [--budget TIME] [--runs N]
                      [--jobs N] [--seed S] DIR

Searches fault space for error paths nobody wrote a scenario for.  Each run
boots the gcov kernel (built once, as for scenario --coverage) with a
scenario drawn at random: a workload (probe, DMA and PIO reads, writes,
flushes, a pattern check, SMART and hdparm) and one to four fault rules of
any kind, with random classes, ranges and triggers; or a corpus scenario
mutated (a rule or trigger redrawn, a rule added or dropped, another
workload).  A run that executes lines of libata-core, -eh, -sff, -scsi,
ata_piix or atalab_piix that no earlier run executed joins the corpus.

Oracles, each a finding kept with its scenario, console log and trace:
  oops     the kernel logged an oops, BUG, WARNING, panic, lockdep or KASAN
           report, or a hung task
  hang     the guest did not finish within the scenario's timeout
  broken   QEMU or the guest's init failed (exit 125): a host-side crash
  core-bug the model's trace has a bug record (a core invariant broke)
A finding's scenario reproduces it: tools/atalab scenario --coverage FILE.

DIR keeps everything, and a second explore of DIR goes on where it
stopped: corpus/ (the scenarios that found coverage), findings/NAME/,
coverage.set (every line executed, and every line instrumented), runs.log
(one line per run: number, seed, parent, new lines, verdict).

options:
$(options_help explore_options)

exit status: 0 no finding; 1 findings (listed at the end); 2 bad usage.

examples:
  tools/atalab explore --budget 30m --jobs 2 /tmp/explore
  tools/atalab explore --driver atalab_piix --personality ich5 --runs 50 /tmp/explore-ich5
USAGE
}

# explore_seconds 90s|30m|2h|45: seconds.
explore_seconds() {
	[[ "$1" =~ ^([1-9][0-9]*)([smh]?)$ ]] || return 1
	case "${BASH_REMATCH[2]}" in
	h) echo $((BASH_REMATCH[1] * 3600)) ;;
	m) echo $((BASH_REMATCH[1] * 60)) ;;
	*) echo "${BASH_REMATCH[1]}" ;;
	esac
}

# explore_judge JOBDIR STATUS: the oracles' verdict on a finished run, one
# line: "ok" or "KIND: what" (KIND oops, hang, broken, core-bug).
explore_judge() {
	local job=$1 status=$2 line n
	line=$(grep -m1 -E 'BUG:|WARNING:|Oops|general protection fault|Kernel panic|INFO: task .* blocked|KASAN:|UBSAN:|possible (recursive|circular) locking|inconsistent lock state|lockdep' \
		"$job/console.log" 2>/dev/null) || line=""
	if [ -n "$line" ]; then
		echo "oops: $(sed -E 's/^\[ *[0-9.]+\] //' <<<"$line")"
	elif [ "$status" = 124 ]; then
		echo "hang: the guest did not finish within the scenario's timeout"
	elif [ "$status" = 125 ] || [ "$status" = none ]; then
		echo "broken: QEMU or the guest's init failed (exit $status): $(tail -n 1 "$job/stderr" 2>/dev/null)"
	elif [ -f "$job/trace" ] &&
		n=$("$(trace_tool_binary)" grep --kind bug --count "$job/trace" 2>/dev/null) && [ "$n" -gt 0 ]; then
		echo "core-bug: $("$(trace_tool_binary)" grep --kind bug "$job/trace" | head -n 1)"
	else
		echo ok
	fi
}

# explore_signature VERDICT: the verdict without numbers, addresses and
# times, so that one bug found twice is one finding.
explore_signature() {
	sed -E 's/0x[0-9a-f]+|[0-9]+/N/g; s/[^A-Za-z0-9_.:-]+/-/g' <<<"$1" | cut -c1-80
}

# explore_draw N: the scenario of run N (EXPLORE_* of the caller) in
# DIR/work/N/scenario; prints its parent ("-" for a fresh draw).
explore_draw() {
	local n=$1 seed parent="-" w=$EXPLORE_DIR/work/$1
	local -a corpus
	seed=$((EXPLORE_SEED * 1000003 + n))
	mkdir -p "$w"
	mapfile -t corpus < <(find "$EXPLORE_DIR/corpus" -name '*.scenario' 2>/dev/null | LC_ALL=C sort)
	# Seven runs in ten mutate a corpus scenario, once there is one.
	if [ ${#corpus[@]} -gt 0 ] && [ $((seed % 10)) -lt 7 ]; then
		parent=${corpus[$(((seed / 10) % ${#corpus[@]}))]}
	fi
	local -a from=()
	[ "$parent" = - ] || from=("$parent")
	"$(explore_binary)" gen "$seed" "${from[@]}" |
		sed "/^\[scenario\]$/a model = $EXPLORE_MODEL" >"$w/scenario" || return 1
	echo "$seed ${parent##*/}"
}

# explore_run N: run N in the background's shell: the guest, its counts,
# the verdict in DIR/work/N/verdict.
explore_run() {
	local w=$EXPLORE_DIR/work/$1 status=none
	local -a driver=()
	[ -z "$EXPLORE_DRIVER" ] || driver=(--driver "$EXPLORE_DRIVER")
	"$(scenario_binary)" run-one "${driver[@]}" "$w/scenario" "$w/job" >"$w/out" 2>"$w/err" || true
	status=$(sed -n 's/.*guest run ended (exit \([0-9]*\)).*/\1/p' "$w/err" | tail -n 1)
	[ -n "$status" ] || status=none
	if coverage_collect "$w/job" 2>>"$w/err"; then
		lcov --quiet --capture --directory "$w/job/gcov" --output-file "$w/run.info" \
			--rc lcov_branch_coverage=0 >>"$w/err" 2>&1 || rm -f "$w/run.info"
	fi
	explore_judge "$w/job" "$status" >"$w/verdict"
}

# explore_fold N INFO: fold run N's results into the corpus, the
# coverage set, the findings and runs.log (the parent shell only).
explore_fold() {
	local n=$1 info=$2 w=$EXPLORE_DIR/work/$1 verdict new="-" sig f
	verdict=$(cat "$w/verdict" 2>/dev/null || echo "broken: the run left no verdict")
	if [ -s "$w/run.info" ]; then
		read -r _ new _ EXPLORE_HIT _ EXPLORE_FOUND < <("$(explore_binary)" cover \
			"$EXPLORE_DIR/coverage.set" "$w/run.info") || new="-"
		if [ "$new" != - ] && [ "$new" -gt 0 ]; then
			cp "$w/scenario" "$EXPLORE_DIR/corpus/run$n.scenario"
		fi
	fi
	if [ "$verdict" != ok ]; then
		sig=$(explore_signature "$verdict")
		f=$EXPLORE_DIR/findings/$sig
		if [ ! -d "$f" ]; then
			mkdir -p "$f"
			cp "$w/scenario" "$f/run$n.scenario"
			for x in console.log trace stdout; do
				[ ! -f "$w/job/$x" ] || cp "$w/job/$x" "$f/"
			done
			echo "$verdict" >"$f/verdict"
			msg "explore: run $n: finding: $verdict"
		fi
		echo "run$n" >>"$f/runs"
	fi
	printf '%s %s %s %s\n' "$n" "$info" "$new" "$verdict" >>"$EXPLORE_DIR/runs.log"
	rm -rf "$w"
}

explore_progress() {
	local runs=$1 t=$2 corpus findings
	corpus=$(find "$EXPLORE_DIR/corpus" -name '*.scenario' | wc -l)
	findings=$(find "$EXPLORE_DIR/findings" -mindepth 1 -maxdepth 1 -type d | wc -l)
	msg "explore: $runs runs in ${t}s ($((runs * 60 / (t > 0 ? t : 1))) per min), lines ${EXPLORE_HIT:-0} of ${EXPLORE_FOUND:-0}, corpus $corpus, findings $findings"
}

# explore_kill_tree PID: PID and every process under it (a run's
# atalab-scenario, atalab run and QEMU).
explore_kill_tree() {
	local child
	for child in $(pgrep -P "$1"); do explore_kill_tree "$child"; done
	kill -TERM "$1" 2>/dev/null || true
}

cmd_explore() {
	local budget jobs runs=${OPT[--runs]:-} t0 n first started=0 item
	local -A pending=()
	[ ${#OPT_ARGS[@]} = 1 ] || usage_error "wants one DIR (the corpus and findings), got ${#OPT_ARGS[@]} words"
	EXPLORE_DIR=${OPT_ARGS[0]}
	EXPLORE_DRIVER=${OPT[--driver]:-}
	EXPLORE_MODEL=${OPT[--personality]:-piix4}
	EXPLORE_SEED=${OPT[--seed]:-1}
	jobs=${OPT[--jobs]:-$(atalab_jobs)}
	budget=$(explore_seconds "${OPT[--budget]:-30m}") ||
		usage_error "--budget wants a time like 90s, 30m or 2h, got '${OPT[--budget]}'"
	[[ " ${EXPLORE_MODELS[*]} " == *" $EXPLORE_MODEL "* ]] ||
		usage_error "--personality wants one of ${EXPLORE_MODELS[*]}, got '$EXPLORE_MODEL'"
	[ -z "$EXPLORE_DRIVER" ] || [[ "$EXPLORE_DRIVER" =~ ^[A-Za-z0-9_-]+$ ]] ||
		usage_error "--driver wants a module name, got '$EXPLORE_DRIVER'"
	[[ "$EXPLORE_SEED" =~ ^[0-9]{1,9}$ ]] || usage_error "--seed wants a number, got '$EXPLORE_SEED'"
	[[ "$jobs" =~ ^[1-9][0-9]?$ ]] || usage_error "--jobs wants 1 to 99, got '$jobs'"
	[ -z "$runs" ] || [[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage_error "--runs wants a positive number, got '$runs'"
	mkdir -p "$EXPLORE_DIR/corpus" "$EXPLORE_DIR/findings" || die "cannot create $EXPLORE_DIR"
	EXPLORE_DIR=$(cd "$EXPLORE_DIR" && pwd)
	rm -rf "$EXPLORE_DIR/work"
	touch "$EXPLORE_DIR/runs.log"
	coverage_enter
	export ATALAB_COVERAGE=1 ATALAB_PATTERN
	ATALAB_PATTERN=$(ata_pattern_binary)
	scenario_export_inputs
	[ ! -f "$EXPLORE_DIR/coverage.set" ] ||
		read -r _ EXPLORE_HIT _ EXPLORE_FOUND < <("$(explore_binary)" count "$EXPLORE_DIR/coverage.set")
	# A resumed DIR goes on after its last run.
	first=$(($(awk 'END { print $1 + 0 }' "$EXPLORE_DIR/runs.log") + 1))
	n=$first
	t0=$SECONDS
	# Interrupted: the runs under way stop too; DIR keeps what was folded.
	trap 'for item in $(jobs -p); do explore_kill_tree "$item"; done; exit 130' INT TERM
	msg "explore: $EXPLORE_DIR from run $first, ${EXPLORE_DRIVER:-ata_piix} on $EXPLORE_MODEL, $jobs at a time, seed $EXPLORE_SEED, budget ${budget}s${runs:+, $runs runs}"
	while :; do
		# Fold what has finished, in run order.
		for item in $(printf '%s\n' "${!pending[@]}" | sort -n); do
			[ -f "$EXPLORE_DIR/work/$item/verdict" ] || ! kill -0 "${pending[$item]%% *}" 2>/dev/null ||
				continue
			wait "${pending[$item]%% *}" 2>/dev/null || true
			explore_fold "$item" "${pending[$item]#* }"
			unset "pending[$item]"
			explore_progress $((n - first - ${#pending[@]})) $((SECONDS - t0))
		done
		if [ $((SECONDS - t0)) -ge "$budget" ] || { [ -n "$runs" ] && [ "$started" -ge "$runs" ]; }; then
			[ ${#pending[@]} -gt 0 ] || break
			wait -n 2>/dev/null || true
			continue
		fi
		if [ ${#pending[@]} -ge "$jobs" ]; then
			wait -n 2>/dev/null || true
			continue
		fi
		item=$(explore_draw "$n") || die "explore: drawing run $n failed"
		explore_run "$n" &
		pending[$n]="$! $item"
		n=$((n + 1))
		started=$((started + 1))
	done
	trap - INT TERM
	explore_summary
}

explore_summary() {
	local f rc=0
	echo
	"$(explore_binary)" summary "$EXPLORE_DIR/coverage.set"
	echo "explore: $(wc -l <"$EXPLORE_DIR/runs.log") runs in all, corpus $(find "$EXPLORE_DIR/corpus" -name '*.scenario' | wc -l) scenarios"
	for f in "$EXPLORE_DIR"/findings/*/; do
		[ -f "$f/verdict" ] || continue
		echo "finding: $(cat "$f/verdict") ($(wc -l <"$f/runs") runs; reproduce: tools/atalab scenario --coverage $(ls "$f"*.scenario | head -n 1))"
		rc=1
	done
	[ $rc = 1 ] || echo "explore: no finding"
	return $rc
}
