# shellcheck shell=bash
# tools/atalab bench: disk throughput through atalab-ide against QEMU's stock
# piix4-ide, same QEMU build, same guest, same run.

cmd_bench() {
	local size=256M runs=3
	while [ $# -gt 0 ]; do
		case "$1" in
		--size) [ $# -ge 2 ] || die "--size needs a value"; size=$2; shift 2 ;;
		--runs) [ $# -ge 2 ] || die "--runs needs a value"; runs=$2; shift 2 ;;
		-h | --help)
			cat <<USAGE
usage: atalab bench [--size SIZE] [--runs N]
Sequential O_DIRECT write then read of SIZE (default 256M) in the guest, 1 MiB
requests, through atalab-ide and through QEMU's stock piix4-ide, N times each
(default 3), alternating.  Prints each figure, the medians and the ratio.
USAGE
			return 0 ;;
		*) die "bench: unknown option '$1'" ;;
		esac
	done
	[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs wants a positive number, got '$runs'"
	[[ "$size" =~ ^[1-9][0-9]*[KMG]?$ ]] || die "--size wants a size like 256M, got '$size'"
	build_all
	local work i ctl out
	work=$(mktemp -d "${TMPDIR:-/tmp}/atalab-bench.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$work'" EXIT
	declare -A write read
	for i in $(seq "$runs"); do
		for ctl in atalab piix4-ide; do
			rm -f "$work/disk.img"
			truncate -s "$size" "$work/disk.img"
			truncate -s +16M "$work/disk.img"
			out=$("$ATALAB_ROOT/tools/atalab" run --quiet --controller "$ctl" \
				--log "$work/console.log" --disk "$work/disk.img" --timeout 900 -- sh -c \
				"ata-pattern write /dev/sda --size $size --direct && ata-pattern read /dev/sda --size $size --direct") ||
				die "bench run on $ctl failed (console: $work/console.log)"
			write[$ctl]+="$(echo "$out" | sed -n 's/^write .*(\([0-9.]*\) MB\/s).*/\1/p') "
			read[$ctl]+="$(echo "$out" | sed -n 's/^read .*(\([0-9.]*\) MB\/s).*/\1/p') "
			printf '%-10s run %d: %s\n' "$ctl" "$i" "$(echo "$out" | tr '\n' ' ')"
		done
	done
	local median_a median_p what
	for what in write read; do
		local -n figures=$what
		median_a=$(bench_median ${figures[atalab]})
		median_p=$(bench_median ${figures[piix4-ide]})
		printf '%s %s MB/s median: atalab-ide %s, piix4-ide %s, ratio %s%%\n' \
			"$what" "$size" "$median_a" "$median_p" \
			"$(awk -v a="$median_a" -v p="$median_p" 'BEGIN { printf "%.0f", 100 * a / p }')"
	done
}

bench_median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
