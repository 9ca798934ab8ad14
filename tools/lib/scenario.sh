# shellcheck shell=bash
# tools/atalab scenario: fault-injection runs with a verdict
# (docs/scenarios.md), through tools/scenario/atalab-scenario; --coverage
# runs them on a gcov kernel (tools/lib/coverage.sh).

scenario_options() {
	opt_words
	opt --jobs N "guests at a time (1 to 64, default 1)"
	opt --junit FILE "write JUnit XML"
	opt --work DIR "keep every run's console log, trace, output and disks in DIR/NAME (default: a new temporary folder, printed)"
	opt --driver NAME "run every scenario with module NAME instead of the driver it names, against the same expectations"
	opt --trace DIR "keep each scenario's register trace as DIR/NAME.trace"
	opt --compare-driver NAME "run every scenario a second time with module NAME and compare the two traces of each"
	opt --coverage - "boot a gcov kernel and write an lcov report"
	kernel_patch_options
	opt --check - "only check the files"
	opt --emit-jobs DIR "write one self-contained job per scenario under DIR"
	opt --merge DIR "fold the jobs' results in DIR into one table"
	opt --run-one - "run one job: SCENARIO DIR"
}

scenario_usage() {
	cat <<USAGE
usage: atalab scenario [--jobs N] [--junit FILE] [--work DIR] [--coverage] [--driver M]
                       [--trace DIR] [--compare-driver M] SCENARIO...
       atalab scenario --check SCENARIO...
       atalab scenario --emit-jobs DIR [--coverage] [--driver M] SCENARIO...
       atalab scenario --merge DIR [--junit FILE]
       atalab scenario --run-one SCENARIO DIR [--coverage] [--driver M]

Runs scenario files (docs/scenarios.md; the library is tests/scenarios/; a
directory stands for its *.scenario files), N guests at a time (default 1),
prints a table of every expectation (scenario, expectation, pass, seen) and
exits 1 when one is missed; --junit writes JUnit XML; --work keeps every
run's console log, trace, output and disks in DIR/NAME (default: a new
temporary folder, printed).  --check only checks the files (exit 2 and
FILE:LINE:COLUMN: message for a bad one).  --driver M runs every scenario
with module M (e.g. atalab_piix) instead of the driver it names, against
the same expectations.  --trace DIR keeps each scenario's register trace
as DIR/NAME.trace.  --compare-driver M runs every scenario a second time
with module M and compares the two traces of each with tools/atalab trace
diff (docs/trace-diff.md): a line per scenario (identical, or the number
of differences by class), each report in WORK/compare/NAME.diff; the exit
status is that of the scenarios' expectations, in both runs.

Campaigns: --emit-jobs writes one self-contained job per scenario under DIR
(DIR/NAME/job.sh, listed in DIR/jobs.txt, for GNU parallel over ssh hosts or
a CI matrix); each job checks the scenario's hash and the kit's build keys
before it runs and leaves DIR/NAME/result.tsv.  --merge folds the results
into one table and JUnit file (and the coverage report, when the jobs
collected coverage); a job that left no result is a failure.

--coverage boots a kernel whose libata (core, EH, SFF, SCSI) and PIIX
drivers are built with gcov (built once, in \$ATALAB_CACHE/coverage),
collects each guest's counts after its workload, and writes an lcov report
(WORK/coverage/index.html) with a one-line summary per file.

options:
$(options_help scenario_options)

examples:
  tools/atalab scenario tests/scenarios/unc-persistent.scenario
  tools/atalab scenario --jobs 2 --junit results.xml tests/scenarios
  tools/atalab scenario --jobs 2 --coverage --work /tmp/campaign tests/scenarios
  tools/atalab scenario --jobs 2 --driver atalab_piix tests/scenarios
  tools/atalab scenario --jobs 2 --compare-driver atalab_piix --trace traces/ tests/scenarios/unc-transient.scenario
USAGE
}

cmd_scenario() {
	local mode=run coverage=${OPT[--coverage]:-0} work=${OPT[--work]:-} dir="" a
	local trace_dir=${OPT[--trace]:-} compare=${OPT[--compare-driver]:-} m
	local -a pass=() files=("${OPT_ARGS[@]}") driver=()
	if [ ${#OPT[@]} = 0 ] && [ ${#files[@]} = 0 ]; then
		scenario_usage >&2
		exit $ATALAB_EXIT_USAGE
	fi
	for m in --check --merge --emit-jobs --run-one; do
		opt_given $m || continue
		[ "$mode" = run ] || usage_error "$m and --$mode exclude each other"
		mode=${m#--}
	done
	case "$mode" in merge | emit-jobs) dir=${OPT[--$mode]} ;; esac
	if opt_given --driver; then
		[[ "${OPT[--driver]}" =~ ^[A-Za-z0-9_-]+$ ]] || usage_error "--driver wants a module name, got '${OPT[--driver]}'"
		driver=(--driver "${OPT[--driver]}")
	fi
	[ -z "$compare" ] || [[ "$compare" =~ ^[A-Za-z0-9_-]+$ ]] ||
		usage_error "--compare-driver wants a module name, got '$compare'"
	for a in --jobs --junit --work; do
		opt_given $a || continue
		[ $a != --jobs ] || { [[ "${OPT[$a]}" =~ ^[1-9][0-9]*$ ]] && [ "${OPT[$a]}" -le 64 ]; } ||
			usage_error "--jobs wants a number from 1 to 64, got '${OPT[$a]}'"
		pass+=("$a" "${OPT[$a]}")
	done
	case "$mode" in check | merge)
		[ ${#driver[@]} = 0 ] || usage_error "--$mode runs no guest: no --driver" ;;
	esac
	case "$mode" in
	check | emit-jobs) [ ${#pass[@]} = 0 ] || usage_error "--$mode takes no --jobs, --junit or --work" ;;
	merge) [ ${#files[@]} = 0 ] || usage_error "--merge takes only DIR, got '${files[0]}'"
		[ -d "$dir" ] || usage_error "--merge $dir: no such folder"
		[ "$coverage" = 0 ] || usage_error "--merge finds the coverage the jobs collected; no --coverage" ;;
	run-one) [ ${#files[@]} = 2 ] || usage_error "--run-one wants SCENARIO and DIR" ;;
	esac
	[ "$mode" = check ] && [ "$coverage" = 1 ] && usage_error "--check runs nothing: no --coverage"
	if [ -n "$trace_dir$compare" ] && [ "$mode" != run ]; then
		usage_error "--trace and --compare-driver go with a run of scenarios, not --$mode"
	fi
	[ -z "$compare" ] || [ "$coverage" = 0 ] || usage_error "--compare-driver runs twice: no --coverage"
	[ "$mode" != emit-jobs ] || ! kernel_has_patches ||
		usage_error "--emit-jobs writes jobs for the kit's own kernel: no --kernel-patch"
	if [ -n "$trace_dir" ]; then
		mkdir -p "$trace_dir" || usage_error "--trace $trace_dir: cannot create the folder"
	fi
	if [ "$mode" != merge ] && [ "$mode" != run-one ]; then
		# A directory stands for its *.scenario files.
		local -a expanded=()
		for a in "${files[@]}"; do
			if [ -d "$a" ]; then
				mapfile -t -O "${#expanded[@]}" expanded < <(find "$a" -maxdepth 1 -name '*.scenario' | LC_ALL=C sort)
			else
				expanded+=("$a")
			fi
		done
		files=("${expanded[@]}")
		[ ${#files[@]} -gt 0 ] || usage_error "needs a scenario file (or a folder of them)"
	fi
	build_all
	if [ "$mode" = check ]; then
		"$(scenario_binary)" check "${files[@]}"
		return
	fi
	if [ "$mode" = run ] && [ -z "$work" ]; then
		work=$(mktemp -d "${TMPDIR:-/tmp}/atalab-scenarios.XXXXXX")
		pass+=(--work "$work")
	fi
	local runner
	runner=$(scenario_binary)
	export ATALAB_PATTERN
	ATALAB_PATTERN=$(ata_pattern_binary)
	if [ "$mode" = merge ]; then
		local rc=0
		"$runner" merge "${pass[@]}" "$dir" || rc=$?
		if [ "$rc" -le 1 ] && compgen -G "$dir/*/gcov" >/dev/null; then
			coverage_enter
			coverage_report "$dir" "$dir/coverage" || rc=1
		fi
		return $rc
	fi
	if [ "$coverage" = 1 ]; then
		coverage_enter
		export ATALAB_COVERAGE=1
	fi
	scenario_export_inputs
	local rc=0
	case "$mode" in
	emit-jobs) "$runner" emit-jobs "${driver[@]}" "$dir" "${files[@]}" ;;
	run-one)
		"$runner" run-one "${driver[@]}" "${files[@]}" || rc=$?
		[ "$coverage" = 0 ] || coverage_collect "${files[1]}" || rc=1
		return $rc
		;;
	run)
		if [ -n "$compare" ]; then
			scenario_compare "$runner" "$work" "$compare" "$trace_dir" "${#pass[@]}" "${pass[@]}" \
				"${#driver[@]}" "${driver[@]}" "${files[@]}"
			return
		fi
		! kernel_has_patches || echo "kernel: $(kernel_under_test)"
		"$runner" run "${pass[@]}" "${driver[@]}" "${files[@]}" || rc=$?
		[ -z "$trace_dir" ] || scenario_keep_traces "$work" "$trace_dir" "" || rc=1
		if [ "$coverage" = 1 ]; then
			local job
			for job in "$work"/*/; do
				coverage_collect "$job" || rc=1
			done
			coverage_report "$work" "$work/coverage" || rc=1
		fi
		return $rc
		;;
	esac
}

# What the runs are made with, for the runner (jobs record it and check it).
scenario_export_inputs() {
	ATALAB_INPUTS="qemu=$(cat "$(qemu_build_dir)/.atalab-stamp") kernel=$(cat "$(kernel_build_dir)/.atalab-stamp")"
	ATALAB_INPUTS+=" driver=$(cat "$(driver_build_dir)/.atalab-stamp") initramfs=$(cat "$(initramfs_path).stamp")"
	export ATALAB_INPUTS
}

# scenario_keep_traces WORK DIR SUFFIX: each run's trace (WORK/NAME/trace)
# as DIR/NAME[SUFFIX].trace.
scenario_keep_traces() {
	local work=$1 dir=$2 suffix=$3 job name n=0
	for job in "$work"/*/; do
		[ -f "$job/trace" ] || continue
		name=$(basename "$job")
		cp "$job/trace" "$dir/$name$suffix.trace" || return 1
		n=$((n + 1))
	done
	msg "kept $n trace(s) in $dir"
}

# scenario_compare RUNNER WORK MODULE TRACE-DIR NPASS PASS... NDRIVER
# DRIVER... SCENARIO...: the scenarios as given (WORK/a), then with MODULE
# (WORK/b), then trace diff of each pair (WORK/compare/NAME.diff).
scenario_compare() {
	local runner=$1 work=$2 module=$3 trace_dir=$4 rc=0 job name drc line
	shift 4
	local -a pass=("${@:2:$1}")
	shift $(($1 + 1))
	local -a driver=("${@:2:$1}")
	shift $(($1 + 1))
	local -a pass_a=() pass_b=()
	local i
	# The two runs work in WORK/a and WORK/b (a --work or --junit of the
	# command line is taken apart: JUnit files get .a/.b).
	for ((i = 0; i < ${#pass[@]}; i += 2)); do
		case "${pass[i]}" in
		--work) ;;
		--junit) pass_a+=(--junit "${pass[i + 1]%.xml}.a.xml"); pass_b+=(--junit "${pass[i + 1]%.xml}.b.xml") ;;
		*) pass_a+=("${pass[i]}" "${pass[i + 1]}"); pass_b+=("${pass[i]}" "${pass[i + 1]}") ;;
		esac
	done
	mkdir -p "$work/a" "$work/b" "$work/compare"
	msg "scenarios as written${driver[*]:+ (${driver[*]})}: $work/a"
	"$runner" run "${pass_a[@]}" --work "$work/a" "${driver[@]}" "$@" || rc=$?
	msg "scenarios with --driver $module: $work/b"
	"$runner" run "${pass_b[@]}" --work "$work/b" --driver "$module" "$@" || rc=$?
	if [ -n "$trace_dir" ]; then
		scenario_keep_traces "$work/a" "$trace_dir" "" || rc=1
		scenario_keep_traces "$work/b" "$trace_dir" ".$module" || rc=1
	fi
	printf '%-24s %s\n' scenario "trace diff: as written vs $module"
	for job in "$work"/a/*/; do
		job=${job%/}
		name=$(basename "$job")
		[ -f "$job/trace" ] || continue
		if [ ! -f "$work/b/$name/trace" ]; then
			printf '%-24s %s\n' "$name" "no trace with $module"
			rc=1
			continue
		fi
		drc=0
		"$(trace_tool_binary)" diff "$job/trace" "$work/b/$name/trace" >"$work/compare/$name.diff" 2>&1 || drc=$?
		case $drc in
		0) line=identical ;;
		1) line=$(tail -n 1 "$work/compare/$name.diff") ;;
		*) line="not compared: $(head -n 1 "$work/compare/$name.diff")"; rc=1 ;;
		esac
		printf '%-24s %s\n' "$name" "$line"
	done
	return $rc
}
