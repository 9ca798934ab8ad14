# shellcheck shell=bash
# tools/atalab zoo: the bug zoo benchmark (docs/zoo.md).  An entry
# (tests/zoo/NAME/, or any folder like it) is a patch that brings a real
# libata bug back into the guest kernel, bug.patch, and what it is,
# entry.toml.  For each entry the kit's generic detectors run on the
# patched kernel, in order, until one catches it or the budget is spent:
#   library       the scenario library (tests/scenarios/), its
#                 expectations and explore's oracles on its runs, where
#                 the unpatched kernel passes them;
#   differential  every library scenario run --deterministic on the
#                 patched and on the unpatched kernel: the traces compared
#                 with trace diff, the guest logs (console, output)
#                 compared after normalizing times and addresses;
#   explore       explore on the patched gcov kernel for the rest of the
#                 budget; a finding counts when the unpatched kernel does
#                 not give it too.
# Nothing here knows an entry: the detectors are those a user runs on any
# kernel.

ZOO_DIR=$ATALAB_ROOT/tests/zoo
ZOO_DETECTORS=(library differential explore)
# The keys of entry.toml: NAME, then a tab, its check (an extended
# regex), a tab, what it wants.
ZOO_KEYS=(
	$'commit\t^[0-9a-f]{12,40}$\tthe upstream commit id, 12 to 40 hex digits'
	$'title\t.\tthe upstream commit title'
	$'year\t^(19|20)[0-9]{2}$\tthe year the commit landed'
	$'link\t^https://[^ ]+$\ta public https link'
	$'files\t^[^ ,]+(, *[^ ,]+)*$\tthe files bug.patch touches, comma-separated'
	$'class\t^[a-z][a-z -]*$\tone short class: pass-through, error handling, sysfs, ...'
	$'kind\t^(revert|regression)$\trevert (undoes a fix) or regression (carries one over)'
)
# Oracles in the order a catch reports them (the most telling first); all
# but the differential's trace and log are absolute.
ZOO_ORACLES=(oops hang broken core-bug contract data lost-write mode expectation trace log)

zoo_options() {
	opt_words
	opt --budget TIME "per entry: stop after TIME of detection (90s, 30m, 2h; default 30m)"
	opt --jobs N "guests at a time (default: number of CPUs)"
	opt --out DIR "keep every run, and results.json and table.md, in DIR (default: a new temporary folder, printed)"
	opt --detectors LIST "run these detectors only, in this order (comma-separated: ${ZOO_DETECTORS[*]}; default all)"
	opt --record - "also write docs/zoo-results.json and docs/zoo.md (a run of every entry of tests/zoo only)"
	opt --check - "only check the entries (entry.toml, and that bug.patch applies)"
}

zoo_usage() {
	cat <<USAGE
usage: atalab zoo [--budget TIME] [--jobs N] [--out DIR] [--detectors LIST]
                  [--record] [ENTRY...]
       atalab zoo --check [ENTRY...]

The bug zoo benchmark (docs/zoo.md).  An ENTRY is a name in tests/zoo/ or a
folder holding bug.patch (a patch to linux-source-$ATALAB_KERNEL_SERIES that brings a real bug
back) and entry.toml (what the bug is: upstream commit, title, year, link,
files, class, kind); default: every entry of tests/zoo/.  For each entry
the kit's generic detectors run on the patched kernel, in order, until one
catches it or the budget is spent:
  library       the scenario library (tests/scenarios/): its expectations,
                and explore's oracles (oops, hang, broken, core-bug,
                contract, data, lost-write, mode) on its runs, where the unpatched kernel
                passes them
  differential  every library scenario run --deterministic, with requests
                of at most 64 KiB, on the patched kernel, the unpatched
                one and a reference (the unpatched one with code nothing
                calls); a catch is a patched run whose trace ('trace
                diff') or console log and output (times, addresses and
                kernel-size lines normalized) differs from both
  explore       'explore --until-finding' on the patched gcov kernel for
                the rest of the budget; a finding counts when its minimal
                scenario does not give it on the unpatched kernel
The unpatched kernel's runs are made once per --out folder.  Building a
variant is not counted in the budget; its time is reported.

Prints progress, then a table (entry, caught or missed, by which detector
and oracle, after how many seconds and guest runs, the reproducer), and
writes DIR/results.json (one object per entry, "caught" true or false)
and DIR/table.md.  Exit status: 0 when it ran (caught or not), 2 for a bad
command line or entry (FILE:LINE:COLUMN), 1 for other errors.

options:
$(options_help zoo_options)

examples:
  tools/atalab zoo --check
  tools/atalab zoo --budget 10m --out /tmp/zoo transport-mode-sysfs
  tools/atalab zoo --record
USAGE
}

# zoo_entry_dir ENTRY: its folder (a tests/zoo name or a path).
zoo_entry_dir() {
	if [[ "$1" != */* ]] && [ -d "$ZOO_DIR/$1" ]; then
		echo "$ZOO_DIR/$1"
	elif [ -d "$1" ]; then
		(cd "$1" && pwd)
	else
		usage_error "no zoo entry '$1' (neither tests/zoo/$1 nor a folder)"
	fi
}

# zoo_entry_read DIR: check DIR's entry.toml (FILE:LINE:COLUMN: message,
# exit 2) and fill ZOO_ENTRY[KEY].
declare -gA ZOO_ENTRY=()
zoo_entry_read() {
	local dir=$1 f=$1/entry.toml out rc=0 row key re want line col val group
	local -A check=() wants=()
	ZOO_ENTRY=()
	[ -f "$f" ] || usage_error "$dir: not a zoo entry (no entry.toml)"
	[ -f "$dir/bug.patch" ] || usage_error "$dir: not a zoo entry (no bug.patch)"
	for row in "${ZOO_KEYS[@]}"; do
		IFS=$'\t' read -r key re want <<<"$row"
		check[$key]=$re
		wants[$key]=$want
	done
	# The lines as LINE, COLUMN of the value, KEY, VALUE; or an error.
	out=$(awk -v file="$f" '
		function fail(col, text) { printf "%s:%d:%d: %s\n", file, NR, col, text; bad = 1; exit 2 }
		{ sub(/\r$/, "") }
		/^[ \t]*(#|$)/ { next }
		/^\[/ {
			if ($0 != "[entry]") fail(1, "unknown group " $0 " (an entry has one group, [entry])")
			if (group) fail(1, "[entry] twice")
			group = NR; printf "%d\t0\t[entry]\t\n", NR; next
		}
		{
			if (!group) fail(1, "a key before [entry]")
			eq = index($0, "=")
			if (!eq) fail(1, "not KEY = VALUE")
			key = substr($0, 1, eq - 1); sub(/^[ \t]+/, "", key); sub(/[ \t]+$/, "", key)
			val = substr($0, eq + 1); vcol = eq + 1
			while (substr(val, 1, 1) ~ /[ \t]/) { val = substr(val, 2); vcol++ }
			sub(/[ \t]+$/, "", val)
			if (key in seen) fail(1, "\"" key "\" given twice")
			seen[key] = 1
			printf "%d\t%d\t%s\t%s\n", NR, vcol, key, val
		}
		END { if (!bad && !group) { printf "%s:1:1: no [entry] group\n", file; exit 2 } }' "$f") || rc=$?
	[ $rc = 0 ] || zoo_entry_error "$(tail -n1 <<<"$out")"
	group=1
	while IFS=$'\t' read -r line col key val; do
		[ "$key" != "[entry]" ] || { group=$line; continue; }
		[ -n "${check[$key]:-}" ] ||
			zoo_entry_error "$f:$line:1: unknown key \"$key\" (an entry has: ${!check[*]})"
		[[ "$val" =~ ${check[$key]} ]] ||
			zoo_entry_error "$f:$line:$col: $key wants ${wants[$key]}, got \"$val\""
		ZOO_ENTRY[$key]=$val
	done <<<"$out"
	for row in "${ZOO_KEYS[@]}"; do
		key=${row%%$'\t'*}
		[ -n "${ZOO_ENTRY[$key]:-}" ] || zoo_entry_error "$f:$group:1: [entry] lacks \"$key\" (${wants[$key]})"
	done
	ZOO_ENTRY[name]=$(basename "$dir")
	ZOO_ENTRY[dir]=$dir
	zoo_entry_check_files "$f"
}

zoo_entry_error() {
	printf 'atalab: %s: %s\n' "${ATALAB_COMMAND:-zoo}" "$1" >&2
	exit $ATALAB_EXIT_USAGE
}

# The files entry.toml names are those bug.patch touches.
zoo_entry_check_files() {
	local f=$1 named touched line
	named=$(tr ',' '\n' <<<"${ZOO_ENTRY[files]}" | sed 's/^ *//; s/ *$//' | LC_ALL=C sort -u)
	touched=$(kernel_patch_targets "${ZOO_ENTRY[dir]}/bug.patch" | cut -d' ' -f2- | LC_ALL=C sort -u)
	[ "$named" = "$touched" ] && return 0
	line=$(grep -nE '^[[:space:]]*files[[:space:]]*=' "$f" | head -n1 | cut -d: -f1 || true)
	zoo_entry_error "$f:$line:1: files names $(paste -sd, <<<"$named"); bug.patch touches $(paste -sd, <<<"$touched")"
}

# zoo_check_patch DIR: bug.patch applies to the pristine tree.
zoo_check_patch() {
	(
		ATALAB_KERNEL_PATCHES=$1/bug.patch
		kernel_patches_check
	)
}

# A string as a JSON string (any byte: control characters escaped, what
# is not UTF-8 replaced).
json_string() {
	printf '%s' "$1" | python3 -c 'import json, sys
sys.stdout.write(json.dumps(sys.stdin.buffer.read().decode("utf-8", "replace")))'
}

# ZOO_* of a run: ZOO_OUT, ZOO_JOBS, ZOO_BUDGET (s), ZOO_RUN_DETECTORS.

# zoo_atalab ARGS...: this kit's atalab on the user's cache, the unpatched
# kernel unless ARGS give --kernel-patch (whatever kernel this process
# was started for).
zoo_atalab() {
	env -u ATALAB_KERNEL_PATCHES -u ATALAB_KERNEL_VARIANT -u ATALAB_CACHE_CHOSEN -u ATALAB_KERNEL_GCOV \
		-u ATALAB_BUILD_VERIFIED ATALAB_CACHE="$ATALAB_CACHE_ROOT" "$ATALAB_ROOT/tools/atalab" "$@"
}

# A scenario's guest timeout when it names none (tools/scenario/
# scenario-load.c's default): how long explore_judge's hang oracle looks.
ZOO_SCENARIO_TIMEOUT=120
zoo_scenario_timeout() {
	local t
	t=$(sed -n 's/^timeout *= *\([0-9]*\).*/\1/p' "$1" 2>/dev/null | head -n1)
	echo "${t:-$ZOO_SCENARIO_TIMEOUT}"
}

# zoo_library WORK [PATCH]: the scenario library on the kernel (unpatched
# without PATCH) in WORK; prints "SCENARIO<TAB>ORACLE<TAB>KEY<TAB>WHAT"
# for every missed expectation (KEY: the expectation) and every oracle's
# verdict other than ok (KEY: its signature, explore_signature), and
# leaves the number of guest runs in WORK/runs.count.
zoo_library() {
	local work=$1 patch=${2:-} job name status verdict scen
	local -a kp=()
	[ -z "$patch" ] || kp=(--kernel-patch "$patch")
	rm -rf "$work"
	mkdir -p "$work"
	zoo_atalab scenario "${kp[@]}" --jobs "$ZOO_JOBS" --work "$work/runs" "$ATALAB_ROOT/tests/scenarios" \
		>"$work/table" 2>"$work/stderr" || true
	zoo_count_runs "$work"
	for job in "$work"/runs/*/; do
		[ -d "$job" ] || continue
		name=$(basename "$job")
		scen=$ATALAB_ROOT/tests/scenarios/$name.scenario
		status=$(sed -n "s/^atalab-scenario: $name: guest run ended (exit \([0-9]*\)).*/\1/p" "$work/stderr" | tail -n1)
		if [ -f "$job/result.tsv" ]; then
			awk -F'\t' -v n="$name" '$4 == "FAIL" { printf "%s\texpectation\t%s\t%s (seen: %s)\n", n, $2, $2, $3 }' \
				"$job/result.tsv"
		else
			printf '%s\texpectation\tresult\tthe run left no result\n' "$name"
		fi
		verdict=$(explore_judge "$job" "${status:-none}" "$(zoo_scenario_timeout "$scen")")
		case "$verdict" in ok | slow:*) ;;
		*) printf '%s\t%s\t%s\t%s\n' "$name" "${verdict%%:*}" "$(explore_signature "$verdict")" "${verdict#*: }" ;;
		esac
	done | LC_ALL=C sort
}

# zoo_count_runs WORK: the guest runs of WORK/runs, into WORK/runs.count.
zoo_count_runs() {
	local n=0 d
	for d in "$1"/runs/*/; do
		[ ! -d "$d" ] || n=$((n + 1))
	done
	echo "$n" >"$1/runs.count"
}

# What the differential's runs do first: requests of at most 64 KiB (16
# pages, far below libata's 128 PRD entries), so that how the block layer
# splits a transfer does not depend on where the guest's allocator put the
# workload's buffer, which any change to the kernel moves.
ZOO_FIXED_SHAPE='for q in /sys/block/sd*/queue/max_sectors_kb; do echo 64 >$q; done'

# zoo_deterministic_library DIR: the library's scenarios made deterministic
# (deterministic = true) and with fixed request sizes, in DIR.
zoo_deterministic_library() {
	local s
	mkdir -p "$1"
	for s in "$ATALAB_ROOT"/tests/scenarios/*.scenario; do
		# Its own setup, if it has one, runs after.
		awk -v shape="$ZOO_FIXED_SHAPE" -v own="$(grep -c '^setup *=' "$s")" '
			/^deterministic *=/ { next }
			/^setup *=/ { sub(/^setup *= */, "setup = " shape "; "); print; next }
			{ print }
			/^\[scenario\]$/ { print "deterministic = true" }
			/^\[workload\]$/ && own == 0 { print "setup = " shape }' "$s" >"$1/$(basename "$s")"
	done
}

# zoo_differential_runs WORK [PATCH]: the deterministic library in WORK.
zoo_differential_runs() {
	local work=$1 patch=${2:-}
	local -a kp=()
	[ -z "$patch" ] || kp=(--kernel-patch "$patch")
	rm -rf "$work"
	zoo_deterministic_library "$work/scenarios"
	zoo_atalab scenario "${kp[@]}" --jobs "$ZOO_JOBS" --work "$work/runs" "$work/scenarios" \
		>"$work/table" 2>"$work/stderr" || true
	zoo_count_runs "$work"
}

# What two kernels legitimately print differently: times, durations and
# rates (the guest's clock counts instructions, and another kernel runs
# other instructions), kernel addresses, the physical segments of a request
# (where the allocator put its pages), the lines that depend on the kernel
# image's size and build, and the clock's calibration (the clock counts
# instructions: another image, other figures).
zoo_normalize_log() {
	sed -E 's/^\[ *[0-9]+\.[0-9]+\] //
		/^(Linux version |Memory: |Freeing unused |Write protecting the kernel|x86\/mm: Checked W\+X|Freeing initrd memory|  with arguments:|  with environment:|sched_clock: |clocksource: |tsc: |Calibrating delay |.*BogoMIPS|RAMDISK: )/d
		s/\b(0x)?ffff[0-9a-f]{12}\b/ADDR/g
		s/\bphys_seg [0-9]+/phys_seg N/g
		s/\b[0-9]+(\.[0-9]+)? ?(s|ms|us|ns|sec|secs|msecs|usecs|[kKMG]i?B\/s)\b/T \2/g' "$@" 2>/dev/null |
		zoo_log_streams
}

# The lines of each port and SCSI host in their order, one stream after
# the other: two ports probe and recover at once, and which of them prints
# first depends on how fast the kernel runs.
zoo_log_streams() {
	awk '{
		k = "~other"
		if (match($0, /^ata[0-9]+[.:]/)) k = substr($0, 1, RLENGTH - 1)
		else if (match($0, /^(sd|sr|scsi|sg) [0-9]+:/)) k = "host " substr($0, index($0, " ") + 1, RLENGTH - index($0, " ") - 1)
		sub(/\.[0-9]+$/, "", k)
		printf "%s\t%08d\t%s\n", k, NR, $0
	}' | LC_ALL=C sort -t$'\t' -k1,1 -k2,2n | cut -f3-
}

# zoo_runs_differ A B: do the runs in folders A and B differ (their traces
# for trace diff, else their normalized console logs, output, errors)?
# Prints "trace|log<TAB>WHAT" when they do.
zoo_runs_differ() {
	local a=$1 b=$2 out rc=0 first f
	[ -f "$a/trace" ] && [ -f "$b/trace" ] || return 1
	out=$("$(trace_tool_binary)" diff "$a/trace" "$b/trace" 2>&1) || rc=$?
	if [ $rc = 1 ]; then
		# The count by class (the report's last line), then its first
		# difference (the first line under a class heading).
		first=$(grep -m1 -E '^  [^ ]' <<<"$out" | sed 's/^ *//' || true)
		printf 'trace\t%s; first: %s\n' "$(tail -n1 <<<"$out")" "$first"
		return 0
	fi
	for f in console.log stdout stderr; do
		out=$(diff <(zoo_normalize_log "$a/$f") <(zoo_normalize_log "$b/$f") |
			grep -m2 '^[<>]' | tr '\n' ' ') || true
		[ -z "$out" ] || { printf 'log\t%s: %s\n' "$f" "${out% }"; return 0; }
	done
	return 1
}

# zoo_differential BASE REFERENCE VARIANT: "SCENARIO<TAB>trace|log<TAB>WHAT"
# for each scenario whose run on the variant differs from the unpatched
# kernel's (BASE) and from the reference kernel's (REFERENCE: the
# unpatched kernel with code nothing calls, zoo_reference_patch).  A run
# the reference kernel gives too is one that any change to the kernel's
# image can give: where a race between the workload and a timer falls
# depends on how many instructions the kernel runs before it.
zoo_differential() {
	local base=$1 ref=$2 var=$3 job name what
	for job in "$var"/runs/*/; do
		name=$(basename "$job")
		what=$(zoo_runs_differ "$base/runs/$name" "$job") || continue
		! zoo_runs_differ "$ref/runs/$name" "$job" >/dev/null ||
			printf '%s\t%s\t%s\t%s\n' "$name" "${what%%$'\t'*}" "${what%%$'\t'*}" "${what#*$'\t'}"
	done
}

# zoo_dead_code_patch FILE ANCHOR BYTES OUT: a patch to the pristine
# tree's FILE (drivers/ata/...) that adds, after the line ANCHOR (an awk
# regex), a function nothing calls and BYTES of data (0: none) only it
# reads: another kernel image, the same behaviour.  Fails when ANCHOR is
# not in FILE.
zoo_dead_code_patch() {
	local file=$1 anchor=$2 bytes=$3 out=$4 src d
	src=$(kernel_src_dir)
	d=$(mktemp -d "${TMPDIR:-/tmp}/atalab-zoo-dead.XXXXXX")
	mkdir -p "$d/a/$(dirname "$file")" "$d/b/$(dirname "$file")"
	cp "$src/$file" "$d/a/$file"
	awk -v anchor="$anchor" -v bytes="$bytes" '{ print } $0 ~ anchor && !done {
		print ""
		print "/* Code and data nothing uses (a kernel image of another size). */"
		if (bytes > 0) print "static const u8 ata_zoo_dead_table[" bytes "] = { 1 };"
		print "static noinline __used unsigned long ata_zoo_dead_code(unsigned long x)"
		print "{"
		if (bytes > 0) print "\tx += ata_zoo_dead_table[x % " bytes "];"
		print "\treturn x * 2654435761UL ^ (x >> 7);"
		print "}"
		done = 1 }' "$src/$file" >"$d/b/$file"
	{
		printf 'Subject: [PATCH] %s: a function nothing calls\n\n---\n' "$(basename "$file")"
		(cd "$d" && diff -u --label "a/$file" --label "b/$file" "a/$file" "b/$file") || true
	} >"$out"
	rm -rf "$d"
	grep -q '^+static noinline __used' "$out"
}

# zoo_reference_patch OUT: the reference kernel's patch: a function and
# 16 KiB of data nothing uses, added to libata-core.c.
zoo_reference_patch() {
	zoo_dead_code_patch drivers/ata/libata-core.c '^MODULE_LICENSE\\("GPL"\\);$' 16384 "$1" ||
		die "zoo: the reference patch was not made (libata-core.c has no MODULE_LICENSE line)"
}

# zoo_first FINDINGS: the finding to report (oracles in ZOO_ORACLES'
# order), one line.
zoo_first() {
	local o line
	for o in "${ZOO_ORACLES[@]}"; do
		line=$(awk -F'\t' -v o="$o" '$2 == o { print; exit }' <<<"$1")
		[ -z "$line" ] || { echo "$line"; return 0; }
	done
	head -n1 <<<"$1"
}

# What the unpatched kernel's runs were made with: the kit's builds, the
# library and the zoo's recipes.  A baseline of other inputs in --out is
# made again.
zoo_baseline_key() {
	hash_text "$(cat "$(qemu_build_dir)/.atalab-stamp" "$(kernel_build_dir)/.atalab-stamp" \
		"$(driver_build_dir)/.atalab-stamp" "$(initramfs_path).stamp" 2>/dev/null)" \
		"$(hash_inputs "$ATALAB_ROOT/tests/scenarios")" \
		"$(hash_recipe zoo_library zoo_differential_runs zoo_deterministic_library zoo_reference_patch \
			zoo_dead_code_patch)"
}

# zoo_baseline: the unpatched kernel's library and differential runs, once.
zoo_baseline() {
	local d key
	key=$(zoo_baseline_key)
	if [ "$(cat "$ZOO_OUT/baseline/key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$ZOO_OUT/baseline"
		mkdir -p "$ZOO_OUT/baseline"
		echo "$key" >"$ZOO_OUT/baseline/key"
	fi
	for d in "${ZOO_RUN_DETECTORS[@]}"; do
		case "$d" in
		library)
			[ -f "$ZOO_OUT/baseline/library.findings" ] && continue
			msg "zoo: the unpatched kernel: the scenario library"
			zoo_library "$ZOO_OUT/baseline/library" >"$ZOO_OUT/baseline/library.findings.tmp"
			mv "$ZOO_OUT/baseline/library.findings.tmp" "$ZOO_OUT/baseline/library.findings"
			[ ! -s "$ZOO_OUT/baseline/library.findings" ] ||
				warn "zoo: the unpatched kernel fails $(wc -l <"$ZOO_OUT/baseline/library.findings") library checks; they do not count for any entry ($ZOO_OUT/baseline/library.findings)"
			;;
		differential)
			if [ ! -f "$ZOO_OUT/baseline/differential/done" ]; then
				msg "zoo: the unpatched kernel: the deterministic library"
				zoo_differential_runs "$ZOO_OUT/baseline/differential"
				touch "$ZOO_OUT/baseline/differential/done"
			fi
			if [ ! -f "$ZOO_OUT/baseline/reference/done" ]; then
				msg "zoo: the reference kernel (code nothing calls): the deterministic library"
				zoo_reference_patch "$ZOO_OUT/baseline/reference.patch"
				zoo_differential_runs "$ZOO_OUT/baseline/reference" "$ZOO_OUT/baseline/reference.patch"
				touch "$ZOO_OUT/baseline/reference/done"
			fi
			;;
		esac
	done
}

# zoo_result KEY=VALUE...: this entry's result fields (ZOO_RESULT).
declare -gA ZOO_RESULT=()

# zoo_entry_run DIR: every detector on one entry, its result in
# ZOO_OUT/NAME/result.json.
zoo_entry_run() {
	local dir=$1 name out patch t0 t1 d f line runs=0 left found
	zoo_entry_read "$dir"
	name=${ZOO_ENTRY[name]}
	out=$ZOO_OUT/$name
	patch=$dir/bug.patch
	# Inside the checkout, reproducers name the patch from its top.
	local shown=${patch#"$ATALAB_ROOT"/}
	rm -rf "$out"
	mkdir -p "$out"
	ZOO_RESULT=([caught]=false [detector]="" [oracle]="" [seconds]=0 [runs]=0 [reproducer]="" [what]=""
		[build_plain]="" [build_gcov]="")
	msg "zoo: $name: building the patched kernel"
	t0=$SECONDS
	zoo_atalab build --kernel-patch "$patch" >"$out/build.log" 2>&1 ||
		{ warn "zoo: $name: the patched kernel did not build ($out/build.log)"; ZOO_RESULT[what]="did not build"; zoo_write_result "$out"; return 0; }
	ZOO_RESULT[build_plain]=$((SECONDS - t0))
	if [[ " ${ZOO_RUN_DETECTORS[*]} " == *" explore "* ]]; then
		msg "zoo: $name: building the patched gcov kernel"
		t0=$SECONDS
		zoo_atalab build --coverage --kernel-patch "$patch" >>"$out/build.log" 2>&1 ||
			{ warn "zoo: $name: the patched gcov kernel did not build ($out/build.log)"; ZOO_RESULT[what]="did not build"; zoo_write_result "$out"; return 0; }
		ZOO_RESULT[build_gcov]=$((SECONDS - t0))
	fi
	t0=$SECONDS
	for d in "${ZOO_RUN_DETECTORS[@]}"; do
		left=$((ZOO_BUDGET - (SECONDS - t0)))
		[ "$left" -gt 0 ] || break
		found=""
		case "$d" in
		library)
			msg "zoo: $name: the scenario library"
			zoo_library "$out/library" "$patch" >"$out/library.all"
			runs=$((runs + $(cat "$out/library/runs.count")))
			# What the unpatched kernel's runs do not give: the same
			# scenario, oracle and expectation (or finding signature).
			found=$(awk -F'\t' 'FILENAME == ARGV[1] { base[$1 FS $2 FS $3] = 1; next }
				!(($1 FS $2 FS $3) in base)' "$ZOO_OUT/baseline/library.findings" "$out/library.all")
			[ -z "$found" ] || ZOO_RESULT[reproducer]="tools/atalab scenario --kernel-patch $shown tests/scenarios/$(cut -f1 <<<"$(zoo_first "$found")").scenario"
			;;
		differential)
			msg "zoo: $name: the deterministic library against the unpatched kernel"
			zoo_differential_runs "$out/differential" "$patch"
			runs=$((runs + $(cat "$out/differential/runs.count")))
			found=$(zoo_differential "$ZOO_OUT/baseline/differential" "$ZOO_OUT/baseline/reference" \
				"$out/differential")
			if [ -n "$found" ]; then
				line=$(zoo_first "$found")
				f=$(cut -f1 <<<"$line")
				if [ "$(cut -f2 <<<"$line")" = trace ]; then
					ZOO_RESULT[reproducer]="tools/atalab trace diff $ZOO_OUT/baseline/differential/runs/$f/trace $out/differential/runs/$f/trace"
				else
					line=$(cut -f4 <<<"$line")
					line=${line%%:*}
					ZOO_RESULT[reproducer]="diff $ZOO_OUT/baseline/differential/runs/$f/$line $out/differential/runs/$f/$line"
				fi
			fi
			;;
		explore)
			msg "zoo: $name: explore for ${left}s"
			zoo_explore "$out/explore" "$patch" "$left"
			runs=$((runs + ZOO_EXPLORE_RUNS))
			found=$ZOO_EXPLORE_FOUND
			[ -z "$found" ] || ZOO_RESULT[reproducer]="tools/atalab scenario --coverage --kernel-patch $shown $ZOO_EXPLORE_REPRO"
			;;
		esac
		printf '%s\n' "$found" >"$out/$d.findings"
		if [ -n "$found" ]; then
			line=$(zoo_first "$found")
			ZOO_RESULT[caught]=true
			ZOO_RESULT[detector]=$d
			ZOO_RESULT[oracle]=$(cut -f2 <<<"$line")
			ZOO_RESULT[what]="$(cut -f1 <<<"$line"): $(cut -f4- <<<"$line")"
			break
		fi
	done
	t1=$SECONDS
	ZOO_RESULT[seconds]=$((t1 - t0))
	ZOO_RESULT[runs]=$runs
	zoo_write_result "$out"
	if [ "${ZOO_RESULT[caught]}" = true ]; then
		msg "zoo: $name: caught by $d ($(cut -f2 <<<"$line")) after ${ZOO_RESULT[seconds]}s, $runs runs: ${ZOO_RESULT[what]:0:200}"
	else
		msg "zoo: $name: missed after ${ZOO_RESULT[seconds]}s, $runs runs"
	fi
}

# zoo_explore DIR PATCH SECONDS: explore until a finding that the
# unpatched kernel does not give; ZOO_EXPLORE_FOUND (a finding line),
# ZOO_EXPLORE_REPRO, ZOO_EXPLORE_RUNS.
zoo_explore() {
	local dir=$1 patch=$2 budget=$3 t0=$SECONDS f verdict sig left n base rechecks=0
	ZOO_EXPLORE_FOUND="" ZOO_EXPLORE_REPRO="" ZOO_EXPLORE_RUNS=0
	mkdir -p "$dir"
	: >"$dir/judged"
	while :; do
		left=$((budget - (SECONDS - t0)))
		[ "$left" -ge 30 ] || break
		zoo_atalab explore --kernel-patch "$patch" --jobs "$ZOO_JOBS" --budget "${left}s" --until-finding \
			--minimize-runs 6 "$dir/search" >>"$dir/explore.log" 2>&1 || true
		n=0
		[ ! -f "$dir/search/runs.log" ] || n=$(wc -l <"$dir/search/runs.log")
		ZOO_EXPLORE_RUNS=$((n + rechecks))
		local newf=""
		for f in "$dir"/search/findings/*/; do
			[ -f "$f/verdict" ] || continue
			grep -qxF "$f" "$dir/judged" && continue
			echo "$f" >>"$dir/judged"
			newf=$f
			verdict=$(cat "$f/verdict")
			sig=$(basename "$f")
			# The same scenario on the unpatched gcov kernel.
			base=$dir/unpatched-$(basename "$f")
			rm -rf "$base"
			local scen="" s
			for s in "$f"minimal.scenario "$f"run*.scenario; do
				[ -f "$s" ] && { scen=$s; break; }
			done
			[ -n "$scen" ] || continue
			zoo_atalab scenario --coverage --work "$base" "$scen" >"$base.out" 2>&1 || true
			local status bv
			status=$(sed -n 's/.*guest run ended (exit \([0-9]*\)).*/\1/p' "$base.out" | tail -n1)
			bv=$(explore_judge "$base/$(basename "$scen" .scenario)" "${status:-none}" "$(zoo_scenario_timeout "$scen")")
			rechecks=$((rechecks + 1))
			if [ "$(explore_signature "$bv")" = "$sig" ]; then
				msg "zoo: explore's finding is the unpatched kernel's too: $verdict"
				continue
			fi
			ZOO_EXPLORE_FOUND=$(printf '%s\t%s\t%s\t%s' "$(basename "$scen")" "${verdict%%:*}" "$sig" "${verdict#*: }")
			ZOO_EXPLORE_REPRO=$scen
			ZOO_EXPLORE_RUNS=$((ZOO_EXPLORE_RUNS + 1))
			return 0
		done
		[ -n "$newf" ] || break
	done
}

zoo_write_result() {
	local out=$1 k
	{
		printf '{"entry": %s' "$(json_string "${ZOO_ENTRY[name]}")"
		for k in commit title year link files class kind; do
			printf ', "%s": %s' "$k" "$(json_string "${ZOO_ENTRY[$k]}")"
		done
		printf ', "caught": %s' "${ZOO_RESULT[caught]}"
		for k in detector oracle what reproducer; do
			printf ', "%s": %s' "$k" "$(json_string "${ZOO_RESULT[$k]}")"
		done
		printf ', "absolute": %s' "$([ "${ZOO_RESULT[caught]}" = true ] &&
			[ "${ZOO_RESULT[detector]}" != differential ] && echo true || echo false)"
		printf ', "seconds": %s, "runs": %s' "${ZOO_RESULT[seconds]}" "${ZOO_RESULT[runs]}"
		printf ', "build_seconds": {"plain": %s, "gcov": %s}' "${ZOO_RESULT[build_plain]:-null}" \
			"${ZOO_RESULT[build_gcov]:-null}"
		printf '}\n'
	} >"$out/result.json"
}

# zoo_report: results.json and zoo.md from the entries' results; the
# table on stdout.
zoo_report() {
	local names=("$@") n f caught=0 absolute=0
	{
		printf '{"atalab": %s, "date": %s, "budget_seconds": %s, "jobs": %s, "detectors": %s, "entries": [\n' \
			"$(json_string "$(git -C "$ATALAB_ROOT" describe --always --dirty 2>/dev/null || echo unknown)")" \
			"$(json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$ZOO_BUDGET" "$ZOO_JOBS" \
			"$(json_string "${ZOO_RUN_DETECTORS[*]}")"
		local sep=""
		for n in "${names[@]}"; do
			printf '%s  %s' "$sep" "$(cat "$ZOO_OUT/$n/result.json")"
			sep=$',\n'
		done
		printf '\n]}\n'
	} >"$ZOO_OUT/results.json"
	{
		echo "| entry | class | caught | detector | oracle | seconds | runs | what | reproducer |"
		echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
		for n in "${names[@]}"; do
			f=$ZOO_OUT/$n/result.json
			python3 - "$f" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cell = lambda s: str(s).replace("|", "\\|").replace("\n", " ")[:160]
print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    r["entry"], r["class"], "caught" if r["caught"] else "missed", r["detector"] or "-",
    r["oracle"] or "-", r["seconds"], r["runs"], cell(r["what"]) or "-",
    ("`%s`" % cell(r["reproducer"])) if r["reproducer"] else "-"))
PY
		done
	} >"$ZOO_OUT/table.md"
	for n in "${names[@]}"; do
		if grep -q '"caught": true' "$ZOO_OUT/$n/result.json"; then caught=$((caught + 1)); fi
		if grep -q '"absolute": true' "$ZOO_OUT/$n/result.json"; then absolute=$((absolute + 1)); fi
	done
	printf '%s caught of %s (%s by an absolute oracle, %s by the differential), budget %ss per entry, %s guests at a time\n' \
		"$caught" "${#names[@]}" "$absolute" "$((caught - absolute))" "$ZOO_BUDGET" "$ZOO_JOBS" >"$ZOO_OUT/summary"
	cat "$ZOO_OUT/table.md"
	echo
	cat "$ZOO_OUT/summary"
}

cmd_zoo() {
	local budget=${OPT[--budget]:-30m} e dir
	# The zoo chooses the kernel of each run itself, from the user's cache.
	unset ATALAB_KERNEL_PATCHES ATALAB_KERNEL_VARIANT ATALAB_KERNEL_GCOV ATALAB_CACHE_CHOSEN
	ATALAB_CACHE=$ATALAB_CACHE_ROOT
	local -a entries=("${OPT_ARGS[@]}") dirs=() names=()
	ZOO_BUDGET=$(explore_seconds "$budget") || usage_error "--budget wants a time like 90s, 30m or 2h, got '$budget'"
	ZOO_JOBS=${OPT[--jobs]:-$(atalab_jobs)}
	[[ "$ZOO_JOBS" =~ ^[1-9][0-9]?$ ]] || usage_error "--jobs wants 1 to 99, got '$ZOO_JOBS'"
	ZOO_RUN_DETECTORS=("${ZOO_DETECTORS[@]}")
	if opt_given --detectors; then
		IFS=, read -r -a ZOO_RUN_DETECTORS <<<"${OPT[--detectors]}"
		for e in "${ZOO_RUN_DETECTORS[@]}"; do
			[[ " ${ZOO_DETECTORS[*]} " == *" $e "* ]] ||
				usage_error "--detectors: unknown detector '$e' (known: ${ZOO_DETECTORS[*]})"
		done
	fi
	if [ ${#entries[@]} = 0 ]; then
		for dir in "$ZOO_DIR"/*/; do
			[ -f "$dir/entry.toml" ] && entries+=("$(basename "$dir")")
		done
		[ ${#entries[@]} -gt 0 ] || usage_error "no entries in $ZOO_DIR"
	elif opt_given --record; then
		usage_error "--record keeps a run of every entry: give no ENTRY"
	fi
	# Every entry is checked before anything is built or booted.
	for e in "${entries[@]}"; do
		dir=$(zoo_entry_dir "$e")
		zoo_entry_read "$dir"
		[[ " ${names[*]} " != *" ${ZOO_ENTRY[name]} "* ]] || usage_error "entry ${ZOO_ENTRY[name]} given twice"
		zoo_check_patch "$dir"
		dirs+=("$dir")
		names+=("${ZOO_ENTRY[name]}")
	done
	if opt_given --check; then
		msg "zoo: ${#dirs[@]} entries checked: ${names[*]}"
		return 0
	fi
	ZOO_OUT=${OPT[--out]:-}
	if [ -z "$ZOO_OUT" ]; then
		ZOO_OUT=$(mktemp -d "${TMPDIR:-/tmp}/atalab-zoo.XXXXXX")
		msg "zoo: everything is kept in $ZOO_OUT"
	fi
	mkdir -p "$ZOO_OUT" || die "cannot create --out $ZOO_OUT"
	ZOO_OUT=$(cd "$ZOO_OUT" && pwd)
	build_all
	zoo_baseline
	local i
	for i in "${!dirs[@]}"; do
		msg "zoo: entry $((i + 1)) of ${#dirs[@]}: ${names[$i]}"
		zoo_entry_run "${dirs[$i]}"
	done
	zoo_report "${names[@]}"
	if opt_given --record; then
		cp "$ZOO_OUT/results.json" "$ATALAB_ROOT/docs/zoo-results.json"
		zoo_record_doc >"$ATALAB_ROOT/docs/zoo.md.tmp" && mv "$ATALAB_ROOT/docs/zoo.md.tmp" "$ATALAB_ROOT/docs/zoo.md"
		msg "zoo: recorded in docs/zoo-results.json and docs/zoo.md"
	fi
}

# docs/zoo.md with the latest table: the text before its results marker
# kept, the table after it replaced.
zoo_record_doc() {
	local doc=$ATALAB_ROOT/docs/zoo.md marker='<!-- zoo results: written by tools/atalab zoo --record -->'
	if [ -f "$doc" ] && grep -qxF "$marker" "$doc"; then
		sed "/^$(sed 's/[][\/.*^$]/\\&/g' <<<"$marker")\$/q" "$doc"
	else
		echo "# The bug zoo"
		echo
		echo "$marker"
	fi
	echo
	echo "The latest full run: $(cat "$ZOO_OUT/summary")"
	echo "Kit $(git -C "$ATALAB_ROOT" describe --always --dirty 2>/dev/null), $(date -u +%Y-%m-%d); docs/zoo-results.json has the same run."
	echo
	cat "$ZOO_OUT/table.md"
}
