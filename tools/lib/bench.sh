# shellcheck shell=bash
# tools/atalab bench: disk throughput through atalab-ide against QEMU's stock
# piix4-ide, and through atalab-ide holding fault rules that never match
# against none: same QEMU build, same guest, same run.

ATALAB_BENCH_RULES=10000
# Reads of the written SIZE per run: a 256 MiB read takes about 0.13 s of
# the guest's time, which a single sample per run measures too roughly.
ATALAB_BENCH_READS=3

bench_options() {
	opt --size SIZE "what each run writes and reads (default 256M)"
	opt --runs N "runs of each machine (default 3)"
	opt --trace - "add atalab-ide writing its register trace, and the PIO trace sizes"
	opt --diff - "measure tools/atalab trace diff instead"
	opt --report - "measure tools/atalab trace report instead"
}

bench_usage() {
	cat <<USAGE
usage: atalab bench [--size SIZE] [--runs N] [--trace]
       atalab bench --diff
       atalab bench --report [--runs N]
Sequential O_DIRECT write then $ATALAB_BENCH_READS reads of SIZE (default 256M) in the guest, 1 MiB
requests, N runs (default 3), alternating between three machines:
atalab-ide, QEMU's stock piix4-ide, and atalab-ide with $ATALAB_BENCH_RULES fault rules
that never match (on the same drive and command classes, on sectors past
the ones the workload touches: what the rule index must make cheap).
Prints each figure, the medians (of the writes of all runs, of the reads
of all runs), atalab-ide against piix4-ide and the
rules' cost against atalab-ide without rules; fails when a run's output
has no readable figure.
--trace adds a fourth machine, atalab-ide writing its register trace
(traces/FORMAT.md), with its throughput against atalab-ide without one,
and then reads 16 MiB by PIO (libata.dma=0) with the trace folded and raw,
printing the records and bytes of each.
--diff instead measures tools/atalab trace diff: ata_piix and atalab_piix
each read 4 MiB by PIO with a raw trace (about a million records each);
the report and the unified diff of the two traces are timed, printing the
records, the seconds and the peak memory of each.
--report instead measures tools/atalab trace report: 100,000 records of a
raw-traced PIO read become a page, timed, which headless Chromium opens N
times (default 3): the milliseconds from the navigation's start to the
page's first drawing, each and their median.

options:
$(options_help bench_options)

examples:
  tools/atalab bench --size 64M --runs 1
  tools/atalab bench --runs 5 --trace
  tools/atalab bench --diff
  tools/atalab bench --report
USAGE
}

cmd_bench() {
	local size=${OPT[--size]:-256M} runs=${OPT[--runs]:-3} trace=${OPT[--trace]:-0}
	local diff=${OPT[--diff]:-0} report=${OPT[--report]:-0}
	[[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage_error "--runs wants a positive number, got '$runs'"
	[[ "$size" =~ ^[1-9][0-9]*[KMG]?$ ]] || usage_error "--size wants a size like 256M, got '$size'"
	[ $((diff + report)) -le 1 ] || usage_error "--diff and --report exclude each other"
	if [ $((diff + report)) = 1 ]; then
		! opt_given --trace || usage_error "--trace has no effect with --diff or --report"
		! opt_given --size || usage_error "--size has no effect with --diff or --report"
		[ $diff = 0 ] || ! opt_given --runs || usage_error "--runs has no effect with --diff"
	fi
	build_all
	local work i ctl out fig
	work=$(mktemp -d "${TMPDIR:-/tmp}/atalab-bench.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$work'" EXIT
	if [ $diff = 1 ]; then
		bench_diff "$work"
		return
	fi
	if [ $report = 1 ]; then
		bench_report "$work" "$runs"
		return
	fi
	bench_rules "$size" >"$work/never.rules"
	declare -A write read
	local -a machine machines=(atalab piix4-ide atalab+rules)
	[ $trace = 0 ] || machines+=(atalab+trace)
	for i in $(seq "$runs"); do
		for ctl in "${machines[@]}"; do
			rm -f "$work/disk.img"
			truncate -s "$size" "$work/disk.img"
			truncate -s +16M "$work/disk.img"
			case "$ctl" in
			atalab+rules) machine=(--controller atalab --faults "$work/never.rules") ;;
			atalab+trace) machine=(--controller atalab --trace "$work/trace.txt") ;;
			*) machine=(--controller "$ctl") ;;
			esac
			out=$("$ATALAB_ROOT/tools/atalab" run --quiet "${machine[@]}" \
				--log "$work/console.log" --disk "$work/disk.img" --timeout 900 -- sh -c \
				"ata-pattern write /dev/sda --size $size --direct && for i in \$(seq $ATALAB_BENCH_READS); do ata-pattern read /dev/sda --size $size --direct || exit 1; done") ||
				die "bench run on $ctl failed (console: $work/console.log)"
			fig=$(bench_figure write "$out" "$ctl") || exit 1
			write[$ctl]+="$fig "
			fig=$(bench_figure read "$out" "$ctl") || exit 1
			read[$ctl]+="$fig "
			printf '%-10s run %d: %s\n' "$ctl" "$i" "$(echo "$out" | tr '\n' ' ')"
		done
	done
	local median_a median_p median_r what
	for what in write read; do
		local -n figures=$what
		median_a=$(bench_median ${figures[atalab]})
		median_p=$(bench_median ${figures[piix4-ide]})
		median_r=$(bench_median ${figures[atalab+rules]})
		printf '%s %s MB/s median: atalab-ide %s, piix4-ide %s, ratio %s%%\n' \
			"$what" "$size" "$median_a" "$median_p" "$(bench_ratio "$median_a" "$median_p")"
		printf '%s %s MB/s median with %d fault rules that never match: %s, %s%% of atalab-ide without rules\n' \
			"$what" "$size" "$ATALAB_BENCH_RULES" "$median_r" "$(bench_ratio "$median_r" "$median_a")"
		[ $trace = 0 ] || printf '%s %s MB/s median with the register trace: %s, %s%% of atalab-ide without it\n' \
			"$what" "$size" "$(bench_median ${figures[atalab+trace]})" \
			"$(bench_ratio "$(bench_median ${figures[atalab+trace]})" "$median_a")"
	done
	[ $trace = 0 ] || bench_trace_pio "$work"
}

# The trace of a 16 MiB PIO read, folded and raw: records and bytes.
bench_trace_pio() {
	local work=$1 mode records bytes
	for mode in block raw; do
		rm -f "$work/disk.img" "$work/pio.trace"
		truncate -s 32M "$work/disk.img"
		"$ATALAB_ROOT/tools/atalab" run --quiet --append libata.dma=0 --log "$work/console.log" \
			--disk "$work/disk.img" --trace "$work/pio.trace" --trace-data $mode --timeout 900 -- \
			dd if=/dev/sda of=/dev/null bs=1M count=16 iflag=direct 2>/dev/null ||
			die "bench: the PIO read with --trace-data $mode failed (console: $work/console.log)"
		records=$(grep -vc '^#' "$work/pio.trace")
		bytes=$(stat -c %s "$work/pio.trace")
		[ "$records" -gt 0 ] || die "bench: the PIO trace ($mode) has no record"
		printf 'trace of a 16 MiB PIO read, --trace-data %s: %d records, %d bytes (%.2f MB)\n' \
			$mode "$records" "$bytes" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')"
	done
}

# The trace diff on two traces of about a million records: ata_piix and
# atalab_piix reading 4 MiB by PIO, every access a record.
bench_diff() {
	local work=$1 drv format stats records=()
	for drv in ata_piix atalab_piix; do
		truncate -s 32M "$work/$drv.img"
		"$ATALAB_ROOT/tools/atalab" run --quiet --driver $drv --append libata.dma=0 \
			--log "$work/$drv.log" --disk "$work/$drv.img" --trace "$work/$drv.trace" \
			--trace-data raw --timeout 900 -- \
			dd if=/dev/sda of=/dev/null bs=1M count=4 iflag=direct 2>/dev/null ||
			die "bench: the PIO read on $drv failed (console: $work/$drv.log)"
		records+=("$(grep -vc '^#' "$work/$drv.trace")")
	done
	printf 'traces: ata_piix %d records (%d bytes), atalab_piix %d records (%d bytes)\n' \
		"${records[0]}" "$(stat -c %s "$work/ata_piix.trace")" \
		"${records[1]}" "$(stat -c %s "$work/atalab_piix.trace")"
	for format in report unified; do
		# exit 1: the traces differ, as they do
		stats=$("$(trace_tool_binary)" diff --stats --format $format \
			"$work/ata_piix.trace" "$work/atalab_piix.trace" 2>&1 >/dev/null) || [ $? = 1 ] ||
			die "bench: trace diff --format $format failed: $stats"
		[[ "$stats" == "diff: "* ]] || die "bench: trace diff --format $format printed no figures: $stats"
		printf 'trace diff --format %s: %s\n' $format "${stats#diff: }"
	done
}

# The trace report of 100,000 records (a raw-traced PIO read of 384 KiB in
# 512-byte commands, cut to its first 100,000 records): the seconds to
# write the page, and the time headless Chromium takes to open it.
bench_report() {
	local work=$1 runs=$2 i t0 t1 out ms all=()
	truncate -s 32M "$work/disk.img"
	"$ATALAB_ROOT/tools/atalab" run --quiet --append libata.dma=0 --log "$work/console.log" \
		--disk "$work/disk.img" --trace "$work/raw.trace" --trace-data raw --timeout 900 -- \
		ata-pattern read /dev/sda --size 384K --block 512 --direct >/dev/null ||
		die "bench: the raw PIO read failed (console: $work/console.log)"
	awk '/^#/ && !n { print; next } { if (n++ == 100000) exit; print }' "$work/raw.trace" >"$work/100k.trace"
	[ "$(grep -vc '^#' "$work/100k.trace")" = 100000 ] ||
		die "bench: the raw PIO read wrote fewer than 100,000 records"
	t0=$(date +%s%N)
	"$(trace_tool_binary)" report "$work/100k.trace" -o "$work/100k.html" ||
		die "bench: trace report failed"
	t1=$(date +%s%N)
	printf 'trace report of 100000 records (%d bytes): a %d-byte page in %.2f s\n' \
		"$(stat -c %s "$work/100k.trace")" "$(stat -c %s "$work/100k.html")" \
		"$(awk -v n=$((t1 - t0)) 'BEGIN { print n / 1e9 }')"
	for i in $(seq "$runs"); do
		out=$(python3 "$ATALAB_ROOT/tests/tools/report-browser.py" --no-click "$work/100k.html") ||
			die "bench: Chromium could not open the page: $out"
		ms=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.0f" % d["ready_ms"] if d.get("ready") and not d["errors"] else "")')
		[ -n "$ms" ] || die "bench: the page did not draw cleanly in Chromium: $out"
		printf 'headless Chromium run %d: the page drawn %s ms after navigating to it\n' "$i" "$ms"
		all+=("$ms")
	done
	printf 'opening 100000 records in headless Chromium, median of %d: %s ms\n' "$runs" "$(bench_median "${all[@]}")"
}

bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", 100 * a / b }'; }

# bench_rules SIZE: rules that never match the workload but sit where
# matching has to look: drive 0, read and write classes and commands, LBA
# ranges of the 16 MiB past SIZE (and one opcode nobody sends).
bench_rules() {
	local first
	first=$(($(size_mib "$1") * 2048 + 64))
	awk -v n="$ATALAB_BENCH_RULES" -v first="$first" 'BEGIN {
		for (i = 0; i < n; i++) {
			lba = first + (i * 3) % 30000
			if (i % 4 == 0) printf "unc drive=0 class=read lba=%d+1\n", lba
			else if (i % 4 == 1) printf "write-fault drive=0 class=write lba=%d\n", lba
			else if (i % 4 == 2) printf "latency delay=1ms drive=0 lba=%d-%d\n", lba, lba + 1
			else printf "abrt drive=0 cmd=0x%02x\n", 0x8f
		}
	}'
}

# bench_figure write|read OUTPUT WHERE: the MB/s figures of ata-pattern's
# lines, space-separated, refusing output it cannot read a number from.
bench_figure() {
	local v
	v=$(printf '%s\n' "$2" | sed -n "s/^$1 .*(\([0-9][0-9.]*\) MB\/s).*/\1/p" | tr '\n' ' ')
	v=${v% }
	[[ "$v" =~ ^[0-9]+(\.[0-9]+)?( [0-9]+(\.[0-9]+)?)*$ ]] ||
		die "bench: no $1 figure in the guest's output on $3: $(printf '%s' "$2" | tr '\n' ' ')"
	echo "$v"
}

bench_median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
