# shellcheck shell=bash
# tools/atalab scenario: fault-injection runs with a verdict
# (docs/scenarios.md), through tools/scenario/atalab-scenario.

cmd_scenario() {
	local -a pass=()
	local mode=run
	case "${1:-}" in
	-h | --help | "")
		cat <<USAGE
usage: atalab scenario [--jobs N] [--junit FILE] [--work DIR] FILE...
       atalab scenario --check FILE...
       atalab scenario --emit-jobs DIR FILE...
       atalab scenario --merge DIR [--junit FILE]
       atalab scenario --run-one FILE DIR
Runs scenario files (docs/scenarios.md; the library is tests/scenarios/),
N guests at a time (default 1), prints a table of every expectation
(scenario, expectation, pass, seen) and exits 1 when one is missed; --junit
writes JUnit XML.  --check only checks the files.  --emit-jobs writes one
self-contained job per scenario under DIR (DIR/jobs.txt lists them, for GNU
parallel over ssh hosts or a CI matrix); --merge folds the results the jobs
left into one table and JUnit file.

examples:
  tools/atalab scenario tests/scenarios/unc-persistent.scenario
  tools/atalab scenario --jobs 2 --junit results.xml tests/scenarios
USAGE
		[ -n "${1:-}" ] && return 0
		return 2
		;;
	--check) mode=check; shift ;;
	--emit-jobs) mode=emit-jobs; shift ;;
	--merge) mode=merge; shift ;;
	--run-one) mode=run-one; shift ;;
	esac
	while [ $# -gt 0 ]; do
		case "$1" in
		--jobs | --junit | --work)
			[ $# -ge 2 ] || usage_error "option $1 needs a value"
			pass+=("$1" "$2")
			shift 2
			;;
		--*) usage_error "unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || usage_error "needs a scenario file (or a directory)"
	build_all
	ATALAB_PATTERN=$(ata_pattern_binary) "$(scenario_binary)" "$mode" "${pass[@]}" "$@"
}
