# shellcheck shell=bash
# tools/atalab fuzz: the coverage-guided fuzzers of the emulator core
# (tests/fuzz/fuzz-core.c) and of the trace reader and replay
# (tests/fuzz/fuzz-trace.c) under libFuzzer, ASan and UBSan.

fuzz_dir() { echo "$ATALAB_CACHE/fuzz"; }
fuzz_binary() { echo "$(fuzz_dir)/fuzz-${1:-core}"; }
trace_to_fuzz_binary() { echo "$(fuzz_dir)/trace-to-fuzz"; }

# Build the libFuzzer target and the trace converter with clang, keyed by
# their sources.
build_fuzzer() {
	local dir key stamp core=$ATALAB_ROOT/qemu-device/core
	dir=$(fuzz_dir)
	stamp=$dir/.atalab-stamp
	key=$(hash_inputs "$core" "$ATALAB_ROOT/tests/fuzz" "$ATALAB_ROOT/tests/host" "$ATALAB_ROOT/tools/trace-to-fuzz" "$ATALAB_ROOT/tools/trace" \
		"$ATALAB_ROOT/tools/lib/fuzz.sh")
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && [ -x "$(fuzz_binary)" ] &&
		[ -x "$(fuzz_binary trace)" ]; then
		return 0
	fi
	command -v clang >/dev/null || die "clang missing (tools/atalab setup installs it)"
	mkdir -p "$dir"
	local -a glib
	read -r -a glib <<<"$(pkg-config --cflags --libs glib-2.0)"
	run_logged "$ATALAB_CACHE/logs/fuzz-build.log" "building the fuzzer (clang, libFuzzer)" clang -g -O1 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-DATALAB_ASSERT_BUGS -I"$core" -I"$ATALAB_ROOT/tests/fuzz" -I"$ATALAB_ROOT/tests/host" \
		-I"$ATALAB_ROOT/tools/trace" "$core"/*.c "$core"/*/*.c "$ATALAB_ROOT/tests/fuzz/fuzz-core.c" \
		"$ATALAB_ROOT/tests/host/fake-host.c" "$ATALAB_ROOT/tools/trace/trace-read.c" \
		"$ATALAB_ROOT/tests/fuzz/libfuzzer-main.c" "${glib[@]}" -o "$(fuzz_binary)"
	run_logged "$ATALAB_CACHE/logs/fuzz-build.log" "building the trace fuzzer (clang, libFuzzer)" clang -g -O1 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-DATALAB_ASSERT_BUGS -DFUZZ_TRACE -I"$core" -I"$ATALAB_ROOT/tests/fuzz" -I"$ATALAB_ROOT/tools/trace" \
		"$core"/*.c "$core"/*/*.c "$ATALAB_ROOT/tools/trace/trace-read.c" "$ATALAB_ROOT/tools/trace/trace-replay.c" \
		"$ATALAB_ROOT/tools/trace/trace-normalize.c" "$ATALAB_ROOT/tests/fuzz/fuzz-trace.c" \
		"$ATALAB_ROOT/tests/fuzz/libfuzzer-main.c" "${glib[@]}" -o "$(fuzz_binary trace)"
	run_logged "$ATALAB_CACHE/logs/trace-to-fuzz.log" "building trace-to-fuzz" gcc -O2 -Wall -Wextra -Werror \
		-I"$ATALAB_ROOT/tests/fuzz" -I"$core" -I"$ATALAB_ROOT/tools/trace" \
		"$ATALAB_ROOT/tools/trace-to-fuzz/trace-to-fuzz.c" "$ATALAB_ROOT/tools/trace/trace-read.c" \
		"$core/trace/trace-records.c" "${glib[@]}" -o "$(trace_to_fuzz_binary)"
	echo "$key" >"$stamp"
}

# Seed inputs from real runs: a trace of each scenario, converted.
# name:personality index:first record to keep:guest command
ATALAB_FUZZ_SEEDS=(
	"probe:0::true"
	"dma:0: cmd d0 0xc8 :pattern-rw /dev/sda 1M 3"
	"pio:0: cmd d0 0x20 :pattern-rw /dev/sda 256K 3"
	"smart:0: cmd d0 0xb0 :smartctl -a /dev/sda"
	"hpa:0: cmd d0 0x27 :hdparm -N 30000 --yes-i-know-what-i-am-doing /dev/sda"
	"power:0: 0xe3 :hdparm -S 1 /dev/sda; hdparm -y /dev/sda; hdparm -Y /dev/sda; hdparm -C /dev/sda"
	"ich5:2::true"
	"sata:3::true"
	"native:2: 0x9 :ide-mode set native; ide-mode set legacy; pattern-rw /dev/sda 64K 3"
)
ATALAB_FUZZ_MODELS=(piix4 piix3 ich5 ich5-sata)

fuzz_make_seeds() {
	local out=$ATALAB_ROOT/tests/fuzz/seeds spec name model from cmd tmp
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/atalab-seeds.XXXXXX")
	mkdir -p "$out"
	for spec in "${ATALAB_FUZZ_SEEDS[@]}"; do
		IFS=: read -r name model from cmd <<<"$spec"
		local -a extra=()
		[ "$name" = pio ] && extra=(--append libata.dma=0)
		"$ATALAB_ROOT/tools/atalab" run --quiet "${extra[@]}" \
			--model "${ATALAB_FUZZ_MODELS[$model]}" --trace "$tmp/$name.trace" \
			--disk "$tmp/disk.img" --disk-size 16M --log "$tmp/console.log" \
			-- sh -c "$cmd" >/dev/null || die "seed run '$name' failed (log: $tmp/console.log)"
		local -a conv=(--model "$model" --drives 1)
		[ -n "$from" ] && conv+=(--from "$from")
		"$(trace_to_fuzz_binary)" "$tmp/$name.trace" "$out/$name" "${conv[@]}" >&2
	done
	rm -rf "$tmp"
}

fuzz_options() {
	opt --target 'core|trace' "what to fuzz (default core)"
	opt --time SECONDS "how long (default 600)"
	opt --runs N "stop after N executions (the seeds and corpus included), or at --time"
	opt --jobs N "parallel jobs (default 1)"
	opt --make-seeds - "record real runs and convert them into tests/fuzz/seeds"
}

fuzz_usage() {
	cat <<USAGE
usage: atalab fuzz [--target core|trace] [--time SECONDS] [--runs N] [--jobs N]
                   [--make-seeds]
Runs a coverage-guided fuzzer (libFuzzer, ASan, UBSan) for SECONDS (default
600) in N parallel jobs (default 1); with --runs, one job stops once it has
run that many inputs (the seeds and the corpus it loads first count).
--target core (the default): the emulator core driven by a byte program
(tests/fuzz/fuzz-core.c), from the seed inputs in tests/fuzz/seeds;
--target trace: the trace reader and replay given a trace file's text
(tests/fuzz/fuzz-trace.c), from the golden traces.  The corpus is kept in
\$ATALAB_CACHE/fuzz/corpus (corpus-trace).
Prints the executions and the findings; an input that breaks an invariant
or crashes is saved under \$ATALAB_CACHE/fuzz/findings (findings-trace) and
the command exits 1.  A finding becomes a regression input in
tests/fuzz/regressions (trace-regressions) once fixed.
--make-seeds records real runs (tools/atalab run --trace) and converts them
into tests/fuzz/seeds with trace-to-fuzz.

options:
$(options_help fuzz_options)

examples:
  tools/atalab fuzz --time 3600 --jobs 2
  tools/atalab fuzz --target trace --time 600
  tools/atalab fuzz --make-seeds
USAGE
}

cmd_fuzz() {
	local time=${OPT[--time]:-600} jobs=${OPT[--jobs]:-1} make_seeds=${OPT[--make-seeds]:-0}
	local target=${OPT[--target]:-core} runs=${OPT[--runs]:--1}
	[[ "$time" =~ ^[1-9][0-9]*$ ]] || usage_error "--time wants a positive number, got '$time'"
	! opt_given --runs || [[ "$runs" =~ ^[1-9][0-9]*$ ]] ||
		usage_error "--runs wants a positive number, got '$runs'"
	! opt_given --runs || [ "${OPT[--jobs]:-1}" = 1 ] ||
		usage_error "--runs counts one job's executions: not with --jobs"
	[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || usage_error "--jobs wants a positive number, got '$jobs'"
	[[ "$target" =~ ^(core|trace)$ ]] || usage_error "--target wants core or trace, got '$target'"
	if [ "$make_seeds" = 1 ]; then
		! opt_given --time && ! opt_given --jobs && ! opt_given --target && ! opt_given --runs ||
			usage_error "--make-seeds runs no fuzzer: no --time, --runs, --jobs or --target"
	fi
	build_fuzzer
	if [ $make_seeds = 1 ]; then
		build_all
		fuzz_make_seeds
		return 0
	fi
	local dir corpus findings logs seeds=$ATALAB_ROOT/tests/fuzz/seeds max_len=4096 suffix=""
	if [ "$target" = trace ]; then
		seeds=$ATALAB_ROOT/traces/golden max_len=65536 suffix=-trace
	fi
	dir=$(fuzz_dir)
	corpus=$dir/corpus$suffix
	findings=$dir/findings$suffix
	logs=$(mktemp -d "${TMPDIR:-/tmp}/atalab-fuzz.XXXXXX")
	mkdir -p "$corpus" "$findings"
	touch "$logs/start"
	msg "fuzzing the $target target for ${time}s$(! opt_given --runs || echo " or $runs runs") with $jobs job(s)"
	local rc=0
	(cd "$logs" && "$(fuzz_binary "$target")" -max_total_time="$time" -runs="$runs" -max_len=$max_len \
		-rss_limit_mb=2048 -print_final_stats=1 -jobs="$jobs" -workers="$jobs" \
		-artifact_prefix="$findings/" "$corpus" "$seeds" \
		>"$logs/main.log" 2>&1) || rc=$?
	# The jobs' logs (fuzz-N.log) count; the main log repeats each job's
	# at its end, so it counts only when there are none.
	local execs=0 n f logs_of_jobs=("$logs"/fuzz-*.log)
	[ -f "${logs_of_jobs[0]}" ] || logs_of_jobs=("$logs"/main.log)
	for f in "${logs_of_jobs[@]}"; do
		[ -f "$f" ] || continue
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$f" | tail -n 1)
		execs=$((execs + ${n:-0}))
	done
	local found
	found=$(find "$findings" -type f -newer "$logs/start" | sort)
	echo "executions: $execs"
	if [ -n "$found" ] || [ $rc != 0 ]; then
		echo "findings:"
		printf '  %s\n' $found
		grep -hE 'invariant broken|ERROR: AddressSanitizer|runtime error|ERROR: libFuzzer' \
			"$logs"/*.log | sort -u | sed 's/^/  /' | head -n 20
		msg "fuzzer logs kept in $logs"
		return 1
	fi
	echo "findings: none"
	rm -rf "$logs"
}
