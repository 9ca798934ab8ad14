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
	opt --personality NAME "controller: ${EXPLORE_MODELS[*]} (default: drawn per run, with ICH5's native PCI mode)"
	opt --budget TIME "stop starting runs after TIME (90s, 30m, 2h; default 30m)"
	opt --runs N "stop after N runs (with --budget: whichever comes first)"
	opt --jobs N "guests at a time (default: number of CPUs)"
	opt --seed N "seed of the draws (default 1); a resumed DIR goes on from its last run"
	opt --kinds LIST "draw rules of these fault kinds only (comma-separated, docs/faults.md; default all 19 but sense)"
	opt --workloads LIST "draw these workloads only (comma-separated: probe read-dma read-pio write-dma write-flush pattern pattern-pio smart mixed passthrough ioctl; default all)"
	opt --timeout SECONDS "each guest's timeout, after which the run is a hang (default 90)"
	opt --append TEXT "extra kernel command line for every run (e.g. a module parameter)"
	kernel_patch_options
	opt --until-finding - "stop at the first new finding (runs under way are stopped, not counted)"
	opt --minimize-runs N "runs spent minimizing each new finding at the end (default 12; 0: none)"
	opt --against INFO "an lcov tracefile (the scenario library's) that the summary and the curve compare with"
	opt --emit-jobs N "write N searches as jobs (DIR/jobs.txt) for GNU parallel, each with its own seed"
	opt --merge - "fold the searches in DIR/jobs/ (or the folders after DIR) into DIR"
}

explore_usage() {
	cat <<USAGE
usage: atalab explore [--driver M] [--personality P] [--budget TIME] [--runs N]
                      [--jobs N] [--seed S] [--kinds K,...] [--workloads W,...]
                      [--timeout S] [--append TEXT] [--until-finding]
                      [--minimize-runs N] [--against INFO] DIR
       atalab explore --emit-jobs N [options] DIR
       atalab explore --merge [--against INFO] DIR [FROM...]

Searches fault space for error paths nobody wrote a scenario for.  Each run
boots the gcov kernel (built once, as for scenario --coverage) with a
scenario drawn at random: a workload (probe, DMA and PIO reads, writes,
flushes, patterns written and verified, SMART and hdparm) and one to four fault rules of
any kind, with random classes, ranges and triggers; or a corpus scenario
mutated (a rule or trigger redrawn, a rule added or dropped, another
workload).  A run that executes lines of libata-core, -eh, -sff, -scsi,
ata_piix or atalab_piix that no earlier run executed joins the corpus.

Oracles, each a finding kept with its scenario, console log and trace:
  oops     the kernel logged an oops, BUG, WARNING, panic, lockdep or KASAN
           report, a hung task, or gave up on an interrupt line (nobody cared)
  hang     the guest was killed at its timeout (--timeout) with nothing on
           its console or registers for the last 40 s (a run still working
           at its timeout is "slow", not a finding)
  broken   QEMU or the guest's init failed (exit 125): a host-side crash
  core-bug the model's trace has a bug record (a core invariant broke)
  mode     a transfer broke a timing rule (a timing violation in the
           trace): the driver left the controller timed for another mode
           than the drive's
  contract the workload's guest-fuzz saw SG_IO or an ioctl break its
           contract (wrote past a buffer, left an answer unwritten)
  data     the workload read back other data than it wrote (ata-pattern:
           sectors differ) when no rule that may change data (corrupt,
           power-cut, protocol, remove, identify-data) fired
  lost-write
           the guest's pattern writes were acknowledged but the disk image
           (checked on the host after the guest powered off) does not hold
           them, when no such rule fired
Each new finding is then minimized: variants of its scenario with a rule
dropped, the probe workload, guest-fuzz's first half of its calls, a rule
firing once or at its first match, a
rule's LBA range halved are run, and each that gives the same finding is kept (--minimize-runs runs at
most).  The minimal scenario reproduces it: tools/atalab scenario FILE.

DIR keeps everything, and a second explore of DIR goes on where it
stopped: corpus/ (the scenarios that found coverage), findings/NAME/,
coverage.set (every line executed, and every line instrumented), runs.log
(one line per run: number, seed, parent, new lines, lines executed in
all, time it ended, verdict), coverage.svg (lines executed over runs, and
the --against tracefile's as a dashed line).

Campaigns across hosts: --emit-jobs N writes N searches, each its own DIR
(DIR/jobs/shardK, seed S+K-1, the other options as given) run by
DIR/jobs/shardK/job.sh, which refuses to run on a kit whose builds differ
from this one's; DIR/jobs.txt lists them for GNU parallel (--sshlogin).
--merge then folds them into DIR: the union of their coverage sets, their
corpora and runs renumbered one after another, findings of one signature
made one.  A folder already merged into DIR is not merged again.

options:
$(options_help explore_options)

exit status: 0 no finding; 1 findings (listed at the end); 2 bad usage.

examples:
  tools/atalab explore --budget 30m --jobs 2 /tmp/explore
  tools/atalab explore --driver atalab_piix --personality ich5 --runs 50 /tmp/explore-ich5
  tools/atalab explore --kinds bm-error,timeout --timeout 30 --budget 5m /tmp/explore-dma
  tools/atalab explore --emit-jobs 4 --budget 30m /tmp/campaign
  parallel --sshloginfile hosts --jobs 2 < /tmp/campaign/jobs.txt
  tools/atalab explore --merge /tmp/campaign
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

# What the kernel prints when it oopses, warns or finds a locking bug, or
# gives up on an interrupt line nobody handles (kernel/irq/spurious.c:
# "irq N: nobody cared", then "Disabling IRQ #N").
EXPLORE_OOPS='BUG:|WARNING:|Oops|general protection fault|Kernel panic|INFO: task .* blocked|KASAN:|UBSAN:|possible (recursive|circular) locking|inconsistent lock state|irq [0-9]+: nobody cared|Disabling IRQ #'

# Seconds without a console line or a register access before the guest's
# timeout that make a timed-out run a hang rather than a slow run: longer
# than libata's and SCSI's longest command timeouts (30 s), which a slow
# but live guest may sit out silently.
EXPLORE_SILENCE=40

# explore_last_sign JOBDIR: the guest time (s) of its last console line or
# register access (an access folded into a record counts at its last=).
explore_last_sign() {
	{
		sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p' "$1/console.log" 2>/dev/null
		awk '!/^#/ { t = $1; for (i = 2; i <= NF; i++) if ($i ~ /^last=/ && substr($i, 6) + 0 > t) t = substr($i, 6)
			print t / 1e9 }' "$1/trace" 2>/dev/null
	} | sort -g | awk 'END { if (NR) printf "%.3f\n", $1 }'
}

# explore_data_may_change JOBDIR: did a rule that may change data on the
# disk or on the wire (corrupt, power-cut, protocol, remove), or the
# drive's geometry (identify-data: its capacity or sector size) fire?
explore_data_may_change() {
	# grep -c, not -q: under pipefail a reader that stops at the first
	# match leaves the writer to die of SIGPIPE, and the pipeline fails
	# (it said "no rule fired" of runs with many firings).
	"$(trace_tool_binary)" grep --kind fault "$1/trace" 2>/dev/null |
		grep -cE 'kind=(corrupt|power-cut|protocol|remove|identify-data)\b' >/dev/null
}

# explore_judge JOBDIR STATUS [TIMEOUT]: the oracles' verdict on a finished
# run, one line: "ok", "slow: what" (killed at its timeout TIMEOUT while
# still working: not a finding) or "KIND: what" (KIND oops, hang, broken,
# core-bug, mode, contract, data, lost-write).
explore_judge() {
	local job=$1 status=$2 timeout=${3:-90} line n allowed last
	line=$(grep -m1 -E "$EXPLORE_OOPS" "$job/console.log" 2>/dev/null) || line=""
	if [ -n "$line" ]; then
		echo "oops: $(sed -E 's/^\[ *[0-9.]+\] //' <<<"$line")"
	elif [ "$status" = 124 ]; then
		last=$(explore_last_sign "$job")
		if awk -v l="${last:-0}" -v t="$timeout" -v s="$EXPLORE_SILENCE" 'BEGIN { exit !(t - l >= s) }'; then
			echo "hang: the guest stopped: nothing on its console or its registers after ${last:-0} s, killed at ${timeout} s"
		else
			echo "slow: killed at its ${timeout} s timeout while still working (last sign at ${last} s)"
		fi
	elif [ "$status" = 125 ] || [ "$status" = none ]; then
		echo "broken: QEMU or the guest's init failed (exit $status): $(tail -n 1 "$job/stderr" 2>/dev/null)"
	elif [ -f "$job/trace" ] &&
		n=$("$(trace_tool_binary)" grep --kind bug --count "$job/trace" 2>/dev/null) && [ "$n" -gt 0 ]; then
		echo "core-bug: $("$(trace_tool_binary)" grep --kind bug "$job/trace" | head -n 1)"
	elif line=$("$(trace_tool_binary)" grep --kind violation "$job/trace" 2>/dev/null | grep -m1 ' reg='); then
		echo "mode: a transfer broke a timing rule, the mode the driver programmed and the drive's disagree: $line"
	elif line=$(grep -m1 '^guest-fuzz: contract: ' "$job/stdout" 2>/dev/null); then
		echo "contract: ${line#guest-fuzz: contract: }"
	elif line=$(grep -m1 'sectors differ' "$job/stderr" 2>/dev/null) && ! explore_data_may_change "$job"; then
		echo "data: $line, and no rule that may change data fired"
	elif grep -qx "explore: pattern written" "$job/stdout" 2>/dev/null &&
		line=$(awk -F'\t' '$2 ~ /^data on disk / && $4 == "FAIL" { print $3; exit }' "$job/result.tsv" 2>/dev/null) &&
		[ -n "$line" ] && ! explore_data_may_change "$job"; then
		echo "lost-write: the guest's writes were acknowledged but the disk image does not hold them ($line), and no rule that may change data fired"
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
# DIR/work/N/scenario; prints its draw seed and parent ("-" for a fresh
# draw), as runs.log records them.
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
	"$(explore_binary)" gen "$seed" "${EXPLORE_GEN_ARGS[@]}" "${from[@]}" >"$w/scenario" || return 1
	echo "$seed ${parent##*/}"
}

# explore_run N: run N in the background's shell: the guest, its counts,
# the verdict in DIR/work/N/verdict.
explore_run() {
	explore_run_in "$EXPLORE_DIR/work/$1" 1
}

# explore_run_in W COUNTS: the scenario W/scenario run in W/job, its
# verdict in W/verdict; with COUNTS 1 its coverage in W/run.info.
explore_run_in() {
	local w=$1 counts=$2 status=none pid
	local -a driver=()
	[ -z "$EXPLORE_DRIVER" ] || driver=(--driver "$EXPLORE_DRIVER")
	"$(scenario_binary)" run-one "${driver[@]}" "$w/scenario" "$w/job" >"$w/out" 2>"$w/err" &
	pid=$!
	# A kernel that oopsed is not waited for (it often hangs after): two
	# seconds for the rest of its report, then the run is stopped.
	while kill -0 "$pid" 2>/dev/null; do
		if grep -qE "$EXPLORE_OOPS" "$w/job/console.log" 2>/dev/null; then
			sleep 2
			explore_kill_tree "$pid"
			break
		fi
		sleep 0.5
	done
	wait "$pid" || true
	status=$(sed -n 's/.*guest run ended (exit \([0-9]*\)).*/\1/p' "$w/err" | tail -n 1)
	[ -n "$status" ] || status=none
	if [ "$counts" = 1 ] && coverage_collect "$w/job" 2>>"$w/err"; then
		coverage_capture "$w/job/gcov" "$w/run.info" "$w/err" || rm -f "$w/run.info"
	fi
	explore_judge "$w/job" "$status" "$(sed -n 's/^timeout = //p' "$w/scenario")" >"$w/verdict"
}

# explore_fold N INFO: fold run N's results into the corpus, the
# coverage set, the findings and runs.log (the parent shell only).
explore_fold() {
	local n=$1 info=$2 w=$EXPLORE_DIR/work/$1 verdict new="-" sig f x
	verdict=$(cat "$w/verdict" 2>/dev/null || echo "broken: the run left no verdict")
	if [ -s "$w/run.info" ]; then
		read -r _ new _ EXPLORE_HIT _ EXPLORE_FOUND < <("$(explore_binary)" cover \
			"$EXPLORE_DIR/coverage.set" "$w/run.info") || new="-"
		if [ "$new" != - ] && [ "$new" -gt 0 ]; then
			cp "$w/scenario" "$EXPLORE_DIR/corpus/run$n.scenario"
		fi
	fi
	if [ "$verdict" != ok ] && [[ "$verdict" != slow:* ]]; then
		sig=$(explore_signature "$verdict")
		f=$EXPLORE_DIR/findings/$sig
		if [ ! -d "$f" ]; then
			mkdir -p "$f"
			cp "$w/scenario" "$f/run$n.scenario"
			for x in console.log trace stdout; do
				[ ! -f "$w/job/$x" ] || cp "$w/job/$x" "$f/"
			done
			echo "$verdict" >"$f/verdict"
			EXPLORE_NEW_FINDINGS=$((EXPLORE_NEW_FINDINGS + 1))
			EXPLORE_NEW+=("$f")
			msg "explore: run $n: finding: $verdict"
		fi
		echo "run$n" >>"$f/runs"
	fi
	printf '%s %s %s %s %s %s\n' "$n" "$info" "$new" "${EXPLORE_HIT:-0}" "$EPOCHSECONDS" "$verdict" \
		>>"$EXPLORE_DIR/runs.log"
	rm -rf "$w"
}

# explore_minimize FINDING: try smaller variants of the finding's scenario
# (atalab-explore shrink) and keep each one that still gives the same
# finding, at most EXPLORE_MINIMIZE_RUNS runs; the result is
# FINDING/minimal.scenario, the steps kept in FINDING/minimized.
explore_minimize() {
	local f=${1%/} sig k=0 tries=0 w=$EXPLORE_DIR/work/minimize cur verdict kept=0
	sig=$(basename "$f")
	cur=$f/minimal.scenario
	cp "$(ls "$f"/run*.scenario | head -n 1)" "$cur"
	: >"$f/minimized"
	while [ "$tries" -lt "$EXPLORE_MINIMIZE_RUNS" ]; do
		rm -rf "$w"
		mkdir -p "$w"
		"$(explore_binary)" shrink "$cur" "$k" >"$w/scenario" || break
		tries=$((tries + 1))
		explore_run_in "$w" 0
		verdict=$(cat "$w/verdict" 2>/dev/null || echo none)
		if [ "$(explore_signature "$verdict")" = "$sig" ]; then
			cp "$w/scenario" "$cur"
			sed -n '1s/^# Shrunk by tools\/atalab explore: \(.*\)\.$/\1/p' "$w/scenario" >>"$f/minimized"
			kept=$((kept + 1))
			k=0
		else
			k=$((k + 1))
		fi
	done
	rm -rf "$w"
	msg "explore: minimized $(basename "$f"): $kept of $tries variants kept ($(paste -sd, "$f/minimized"))"
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
	local budget jobs runs=${OPT[--runs]:-} t0 n first started=0 item err
	local -A pending=()
	if opt_given --against; then
		[ -f "${OPT[--against]}" ] || usage_error "--against ${OPT[--against]}: no such file (an lcov tracefile)"
		EXPLORE_AGAINST=$(realpath "${OPT[--against]}")
	fi
	if opt_given --merge; then
		explore_merge_command
		return
	fi
	[ ${#OPT_ARGS[@]} = 1 ] || usage_error "wants one DIR (the corpus and findings), got ${#OPT_ARGS[@]} words"
	EXPLORE_DIR=${OPT_ARGS[0]}
	EXPLORE_DRIVER=${OPT[--driver]:-}
	EXPLORE_MODEL=${OPT[--personality]:-}
	EXPLORE_SEED=${OPT[--seed]:-1}
	jobs=${OPT[--jobs]:-$(atalab_jobs)}
	budget=$(explore_seconds "${OPT[--budget]:-30m}") ||
		usage_error "--budget wants a time like 90s, 30m or 2h, got '${OPT[--budget]}'"
	[ -z "$EXPLORE_MODEL" ] || [[ " ${EXPLORE_MODELS[*]} " == *" $EXPLORE_MODEL "* ]] ||
		usage_error "--personality wants one of ${EXPLORE_MODELS[*]}, got '$EXPLORE_MODEL'"
	[ -z "$EXPLORE_DRIVER" ] || [[ "$EXPLORE_DRIVER" =~ ^[A-Za-z0-9_-]+$ ]] ||
		usage_error "--driver wants a module name, got '$EXPLORE_DRIVER'"
	[[ "$EXPLORE_SEED" =~ ^[0-9]{1,9}$ ]] || usage_error "--seed wants a number, got '$EXPLORE_SEED'"
	[[ "$jobs" =~ ^[1-9][0-9]?$ ]] || usage_error "--jobs wants 1 to 99, got '$jobs'"
	[ -z "$runs" ] || [[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage_error "--runs wants a positive number, got '$runs'"
	EXPLORE_GEN_ARGS=()
	EXPLORE_NEW_FINDINGS=0
	EXPLORE_NEW=()
	EXPLORE_MINIMIZE_RUNS=${OPT[--minimize-runs]:-12}
	[[ "$EXPLORE_MINIMIZE_RUNS" =~ ^[0-9]{1,3}$ ]] ||
		usage_error "--minimize-runs wants a number (0: no minimizing), got '$EXPLORE_MINIMIZE_RUNS'"
	[ -z "$EXPLORE_MODEL" ] || EXPLORE_GEN_ARGS+=(--model "$EXPLORE_MODEL")
	! opt_given --kinds || EXPLORE_GEN_ARGS+=(--kinds "${OPT[--kinds]}")
	! opt_given --workloads || EXPLORE_GEN_ARGS+=(--workloads "${OPT[--workloads]}")
	! opt_given --timeout || EXPLORE_GEN_ARGS+=(--timeout "${OPT[--timeout]}")
	! opt_given --append || EXPLORE_GEN_ARGS+=(--append "${OPT[--append]}")
	if opt_given --emit-jobs; then
		[[ "${OPT[--emit-jobs]}" =~ ^[1-9][0-9]?$ ]] || usage_error "--emit-jobs wants 1 to 99 jobs, got '${OPT[--emit-jobs]}'"
		! opt_given --until-finding || usage_error "--emit-jobs: each job is a search of its own; no --until-finding"
	fi
	coverage_enter
	# The draw's options are checked (by a first draw) before any guest boots.
	err=$("$(explore_binary)" gen 0 "${EXPLORE_GEN_ARGS[@]}" 2>&1 >/dev/null) ||
		usage_error "${err#atalab-explore: }"
	scenario_export_inputs
	if opt_given --emit-jobs; then
		explore_emit_jobs "${OPT[--emit-jobs]}"
		return
	fi
	if [ -n "${ATALAB_JOB_INPUTS:-}" ] && [ "$ATALAB_JOB_INPUTS" != "$ATALAB_INPUTS" ]; then
		echo "atalab: explore: this kit's builds are not the ones the job was made for" >&2
		echo "  job: $ATALAB_JOB_INPUTS" >&2
		echo "  kit: $ATALAB_INPUTS" >&2
		exit 2
	fi
	mkdir -p "$EXPLORE_DIR/corpus" "$EXPLORE_DIR/findings" || die "cannot create $EXPLORE_DIR"
	EXPLORE_DIR=$(cd "$EXPLORE_DIR" && pwd)
	rm -rf "$EXPLORE_DIR/work"
	touch "$EXPLORE_DIR/runs.log"
	export ATALAB_COVERAGE=1 ATALAB_PATTERN
	ATALAB_PATTERN=$(ata_pattern_binary)
	[ ! -f "$EXPLORE_DIR/coverage.set" ] ||
		read -r _ EXPLORE_HIT _ EXPLORE_FOUND < <("$(explore_binary)" count "$EXPLORE_DIR/coverage.set")
	# A resumed DIR goes on after its last run (runs.log is in the order
	# runs ended).
	first=$(($(awk '$1 > last { last = $1 } END { print last + 0 }' "$EXPLORE_DIR/runs.log") + 1))
	n=$first
	t0=$SECONDS
	# Interrupted: the runs under way stop too; DIR keeps what was folded.
	trap 'for item in $(jobs -p); do explore_kill_tree "$item"; done; exit 130' INT TERM
	msg "explore: $EXPLORE_DIR from run $first, ${EXPLORE_DRIVER:-ata_piix} on ${EXPLORE_MODEL:-a personality drawn per run}, $jobs at a time, seed $EXPLORE_SEED, budget ${budget}s${runs:+, $runs runs}"
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
		if [ "${OPT[--until-finding]:-0}" = 1 ] && [ "$EXPLORE_NEW_FINDINGS" -gt 0 ]; then
			# Found: the runs under way are stopped and not counted.
			for item in "${!pending[@]}"; do
				explore_kill_tree "${pending[$item]%% *}"
				wait "${pending[$item]%% *}" 2>/dev/null || true
				rm -rf "$EXPLORE_DIR/work/$item"
			done
			[ ${#pending[@]} = 0 ] || msg "explore: a finding: ${#pending[@]} runs under way stopped"
			pending=()
			break
		fi
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
	if [ "$EXPLORE_MINIMIZE_RUNS" -gt 0 ]; then
		for item in "${EXPLORE_NEW[@]}"; do explore_minimize "$item"; done
	fi
	trap - INT TERM
	explore_summary
}

explore_summary() {
	local f rc=0
	local -a against=()
	echo
	echo "explore: kernel: $(kernel_under_test)"
	"$(explore_binary)" summary "$EXPLORE_DIR/coverage.set" ${EXPLORE_AGAINST:+"$EXPLORE_AGAINST"}
	[ -z "${EXPLORE_AGAINST:-}" ] || against=(--against "$EXPLORE_AGAINST")
	"$(explore_binary)" plot "$EXPLORE_DIR/coverage.svg" "${against[@]}" "${EXPLORE_CURVES[@]:-$EXPLORE_DIR/runs.log}" &&
		echo "explore: the coverage curve: $EXPLORE_DIR/coverage.svg"
	echo "explore: $(wc -l <"$EXPLORE_DIR/runs.log") runs in all, corpus $(find "$EXPLORE_DIR/corpus" -name '*.scenario' | wc -l) scenarios"
	for f in "$EXPLORE_DIR"/findings/*/; do
		[ -f "$f/verdict" ] || continue
		echo "finding: $(cat "$f/verdict") ($(wc -l <"$f/runs") runs; reproduce: tools/atalab scenario --coverage $(ls "$f"minimal.scenario "$f"run*.scenario 2>/dev/null | head -n 1))"
		rc=1
	done
	[ $rc = 1 ] || echo "explore: no finding"
	return $rc
}

# explore_emit_jobs N: N searches as jobs under DIR/jobs/shardK (seed S+K-1,
# the options given), listed in DIR/jobs.txt; each checks the kit's builds
# (ATALAB_INPUTS) before it runs.
explore_emit_jobs() {
	local n=$1 k dir name job
	local -a pass=() words=()
	for name in --driver --personality --budget --runs --jobs --kinds --workloads --timeout --append \
		--minimize-runs; do
		! opt_given "$name" || pass+=("$name" "${OPT[$name]}")
	done
	opt_given --jobs || pass+=(--jobs 1)
	local p
	while IFS= read -r p; do
		[ -z "$p" ] || pass+=(--kernel-patch "$p")
	done < <(kernel_patches)
	mkdir -p "$EXPLORE_DIR/jobs" || die "cannot create $EXPLORE_DIR/jobs"
	dir=$(cd "$EXPLORE_DIR" && pwd)
	: >"$dir/jobs.txt"
	for ((k = 1; k <= n; k++)); do
		job=$dir/jobs/shard$k
		mkdir -p "$job"
		words=("$ATALAB_ROOT/tools/atalab" explore --seed $((EXPLORE_SEED + k - 1)) "${pass[@]}" "$job")
		{
			echo "#!/bin/sh"
			echo "# atalab explore job: shard $k of $n, seed $((EXPLORE_SEED + k - 1))"
			echo "# kit: $ATALAB_INPUTS"
			echo "# The job refuses to run when the kit's builds (their cache keys)"
			echo "# differ from these."
			echo "ATALAB_JOB_INPUTS=${ATALAB_INPUTS@Q} \\"
			echo "	exec ${words[*]@Q}"
		} >"$job/job.sh"
		chmod +x "$job/job.sh"
		echo "$job/job.sh" >>"$dir/jobs.txt"
	done
	echo "$n jobs in $dir/jobs (run each line of $dir/jobs.txt, e.g. with GNU parallel; then tools/atalab explore --merge $EXPLORE_DIR)"
}

# explore_merge_command: --merge DIR [FROM...].
explore_merge_command() {
	local name from
	local -a froms=()
	for name in "${!OPT[@]}"; do
		case "$name" in --merge | --against) ;; *) usage_error "--merge takes only --against, not $name" ;; esac
	done
	[ ${#OPT_ARGS[@]} -ge 1 ] || usage_error "--merge wants DIR (and the folders to merge, default DIR/jobs/*)"
	EXPLORE_DIR=${OPT_ARGS[0]}
	froms=("${OPT_ARGS[@]:1}")
	if [ ${#froms[@]} = 0 ]; then
		for from in "$EXPLORE_DIR"/jobs/*/; do
			[ ! -f "$from/runs.log" ] || froms+=("${from%/}")
		done
		[ ${#froms[@]} -gt 0 ] || usage_error "--merge $EXPLORE_DIR: no search under $EXPLORE_DIR/jobs/ has run yet"
	fi
	for from in "${froms[@]}"; do
		[ -f "$from/runs.log" ] || usage_error "--merge: $from is not a search's folder (no runs.log)"
	done
	build_all
	mkdir -p "$EXPLORE_DIR/corpus" "$EXPLORE_DIR/findings" || die "cannot create $EXPLORE_DIR"
	EXPLORE_DIR=$(cd "$EXPLORE_DIR" && pwd)
	touch "$EXPLORE_DIR/runs.log" "$EXPLORE_DIR/merged"
	EXPLORE_CURVES=()
	for from in "${froms[@]}"; do
		from=$(cd "$from" && pwd)
		EXPLORE_CURVES+=("$from/runs.log")
		if grep -qxF "$from" "$EXPLORE_DIR/merged"; then
			msg "explore: $from is merged into $EXPLORE_DIR already"
			continue
		fi
		explore_merge_one "$from" || die "explore: merging $from failed"
		echo "$from" >>"$EXPLORE_DIR/merged"
	done
	explore_summary
}

# explore_merge_one FROM: FROM's runs, corpus, findings and coverage folded
# into DIR; its run numbers follow DIR's highest, its runs' lines executed
# (the search's own) read "-".
explore_merge_one() {
	local from=$1 off f t sig x n
	off=$(awk '$1 > last { last = $1 } END { print last + 0 }' "$EXPLORE_DIR/runs.log")
	# Fields 1-6 (number, seed, parent, new, hit, time) are rewritten; the
	# verdict after them is kept as it is.
	awk -v off="$off" '{
		rest = $0
		for (i = 1; i <= 6; i++) { match(rest, /^[^ ]+ /); f[i] = substr(rest, 1, RLENGTH - 1); rest = substr(rest, RLENGTH + 1) }
		if (f[3] ~ /^run[0-9]+\.scenario$/) f[3] = "run" (substr(f[3], 4) + off) ".scenario"
		print f[1] + off, f[2], f[3], f[4], "-", f[6], rest
	}' "$from/runs.log" >>"$EXPLORE_DIR/runs.log" || return 1
	for f in "$from"/corpus/run*.scenario; do
		[ -f "$f" ] || continue
		n=${f##*/run}
		cp "$f" "$EXPLORE_DIR/corpus/run$((${n%.scenario} + off)).scenario" || return 1
	done
	for f in "$from"/findings/*/; do
		[ -f "$f/verdict" ] || continue
		sig=$(basename "$f")
		t=$EXPLORE_DIR/findings/$sig
		if [ ! -d "$t" ]; then
			mkdir -p "$t"
			for x in verdict console.log trace stdout minimal.scenario minimized; do
				[ ! -f "$f/$x" ] || cp "$f/$x" "$t/" || return 1
			done
			for x in "$f"/run*.scenario; do
				n=${x##*/run}
				cp "$x" "$t/run$((${n%.scenario} + off)).scenario" || return 1
			done
		fi
		awk -v off="$off" '{ sub(/^run/, ""); print "run" ($1 + off) }' "$f/runs" >>"$t/runs"
	done
	[ ! -f "$from/coverage.set" ] ||
		"$(explore_binary)" merge "$EXPLORE_DIR/coverage.set" "$from/coverage.set" >/dev/null
}
