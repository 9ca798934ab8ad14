# shellcheck shell=bash
# tools/atalab matrix: every transfer mode of a personality on every drive
# position, set by libata.force, with verified patterns and the model's
# timing validation; and a walk that reloads the driver with the registers
# the previous load left, every drive stepping down through its modes.

MATRIX_PERSONALITIES=(piix3 piix4 ich5-80 ich5-40 ich5-sata)
MATRIX_DMA_SIZE=1M      # bytes written and verified per disk and load
MATRIX_PIO_SIZE=64K     # in PIO modes (each data word is a traced access)
MATRIX_DISK=8M
MATRIX_TIMEOUT=180

matrix_options() {
	opt --driver NAME "driver under test (default atalab_piix)"
	opt --walk-from NAME "driver loaded before the walk (default ata_piix, or atalab_piix when --driver is ata_piix)"
	opt --personality NAME+ "of: ${MATRIX_PERSONALITIES[*]} (default all)"
	opt --ide-mode 'legacy|native' "the channels' PCI mode at boot (default legacy); native: ich5-80, ich5-40 and ich5-sata only (docs/timing.md, \"Native PCI mode\")"
	opt --jobs N "guests booted at once (default: number of CPUs)"
	kernel_patch_options
	opt --out DIR "keep traces, logs and results.txt in DIR"
	opt --report-only - "report cells and walks that are not clean but exit 0 (for a reference driver); a guest that gives no result still fails"
}

matrix_usage() {
	cat <<USAGE
usage: atalab matrix [options]

For each personality, boots one guest per mode step with four disks (two
on ich5-sata), libata.force giving each position its own mode: step k puts
mode (k + i) mod N on position i, so that N boots cover every mode on
every position.  The guest checks the mode libata configured and writes
and verifies a pattern on every disk ($MATRIX_DMA_SIZE, $MATRIX_PIO_SIZE in PIO modes); the host
verifies the images and reads the model's timing validation from the
trace (timing-summary and violation records).

Then one walk per personality: a single boot that loads another driver
(--walk-from) with its default modes, then the driver once per walk step,
each load finding the registers the one before left.  Position i stays on
the fastest mode for i steps, then steps down one mode per step to the
slowest.  Every load's cells must be clean and its registers those that
fresh boots give for the same modes; the walk must cause no violation.

options:
$(options_help matrix_options)

cells: ok (mode configured, pattern verified, transfers checked, no
violation); V<n>:<rules> (n violations); FAIL:<what>.
exit status: 0 every cell and walk clean (or --report-only); 1 some are
not; 3 a guest gave no result.

examples:
  tools/atalab matrix --personality ich5-80 --jobs 2
  tools/atalab matrix --personality ich5-sata --ide-mode native
  tools/atalab matrix --driver ata_piix --report-only --out /tmp/reference
USAGE
}

# matrix_spec NAME: sets model, cable, positions (PORT.DEV) and modes in
# the caller.
matrix_spec() {
	model=$1 cable="" positions="1.0 1.1 2.0 2.1"
	modes="pio0 pio1 pio2 pio3 pio4 mwdma0 mwdma1 mwdma2"
	case "$1" in
	piix3) ;;
	piix4) modes="$modes udma0 udma1 udma2" ;;
	ich5-80) model=ich5 cable=80 modes="$modes udma0 udma1 udma2 udma3 udma4 udma5" ;;
	ich5-40) model=ich5 cable=40 modes="$modes udma0 udma1 udma2" ;;
	ich5-sata) positions="1.0 2.0" modes="$modes udma0 udma1 udma2 udma3 udma4 udma5 udma6" ;;
	*) usage_error "unknown personality '$1' (known: ${MATRIX_PERSONALITIES[*]})" ;;
	esac
}

# mode_sysfs pio3|mwdma1|udma5: libata's sysfs name of the mode.
mode_sysfs() {
	case "$1" in
	pio*) echo "XFER_PIO_${1#pio}" ;;
	mwdma*) echo "XFER_MW_DMA_${1#mwdma}" ;;
	udma*) echo "XFER_UDMA_${1#udma}" ;;
	esac
}

# matrix_assign: "PORT.DEV MODE" for each position at step K (the caller's).
matrix_assign() {
	local -a m
	read -ra m <<<"$modes"
	local i=0 p
	for p in $positions; do
		echo "$p ${m[$(((K + i) % ${#m[@]}))]}"
		i=$((i + 1))
	done
}

# The number of walk steps: until the last position reaches the slowest mode.
matrix_walk_steps() {
	echo $(($(wc -w <<<"$modes") + $(wc -w <<<"$positions") - 1))
}

# matrix_walk_assign: "PORT.DEV MODE" for each position at walk step L (the
# caller's): position i stays on the fastest mode for i steps, then steps
# down one mode per step.
matrix_walk_assign() {
	local -a m
	read -ra m <<<"$modes"
	local n=${#m[@]} i=0 p d
	for p in $positions; do
		d=$((L - i))
		[ $d -ge 0 ] || d=0
		[ $d -lt "$n" ] || d=$((n - 1))
		echo "$p ${m[$((n - 1 - d))]}"
		i=$((i + 1))
	done
}

# matrix_force OFFSET: libata.force entries for the assignment on stdin,
# the ports numbered from OFFSET + 1.
matrix_force() {
	local offset=$1 p mode out=""
	while read -r p mode; do
		out="$out,$((${p%.*} + offset)).0${p#*.}:$mode"
	done
	echo "${out#,}"
}

# matrix_cells DIR MODECHECK IMAGES VIOLATIONS: a "cell MODE PORT.DEV
# VERDICT" line per position of the assignment on stdin, from mode-check's
# output MODECHECK (with the first load's port numbers), the violation
# records in the file VIOLATIONS and the transfers checked in the trace
# DIR/trace; with IMAGES 1 the images DIR/diskI.img must hold the patterns
# of seed SEED + I (SEED: the caller's).  The trace reader (tools/atalab
# trace grep) picks the records, each file read once.
matrix_cells() {
	local dir=$1 out=$2 images=$3 vfile=$4 p mode want have st pos size i=0
	local -A checks=() viol=() rules=()
	# "ataC dU checks=N ...": the last summary of each position counts.
	while read -r _ src _ dev field _; do
		checks[$src.$dev]=${field#checks=}
	done < <("$(trace_tool_binary)" grep --kind timing-summary "$dir/trace")
	while read -r src dev rule; do
		viol[$src.$dev]=$((${viol[$src.$dev]:-0} + 1))
		case "+${rules[$src.$dev]:-}+" in
		*"+$rule+"*) ;;
		*) rules[$src.$dev]=${rules[$src.$dev]:+${rules[$src.$dev]}+}$rule ;;
		esac
	done < <("$(trace_tool_binary)" grep --kind violation "$vfile" | awk '{ print $2, $4, $5 }' | LC_ALL=C sort)
	while read -r p mode; do
		want=$(mode_sysfs "$mode")
		read -r _ _ have st < <(grep "^dev $p " "$out" || echo "dev $p none no-result")
		pos=ata$((${p%.*} - 1)).d${p#*.}
		size=$MATRIX_DMA_SIZE
		case "$want" in XFER_PIO_*) size=$MATRIX_PIO_SIZE ;; esac
		if [ "$st" != ok ]; then
			st="FAIL:$st"
		elif [ "$have" != "$want" ]; then
			st="FAIL:configured-$have"
		elif [ "$images" = 1 ] && ! "$(ata_pattern_binary)" verify "$dir/disk$i.img" \
			--size "$size" --seed $((SEED + i)) >/dev/null 2>&1; then
			st="FAIL:image"
		elif [ "${checks[$pos]:-0}" = 0 ]; then
			st="FAIL:unchecked"
		elif [ "${viol[$pos]:-0}" != 0 ]; then
			st="V${viol[$pos]}:${rules[$pos]}"
		fi
		echo "cell $mode $p $st"
		i=$((i + 1))
	done
}

# matrix_guest DIR DRIVER APPEND -- COMMAND...: one boot with fresh disk
# images for the personality's positions in DIR, the trace in DIR/trace.
matrix_guest() {
	local dir=$1 driver=$2 append=$3 i=0 p
	shift 4
	local -a args=(--quiet --model "$model" --driver "$driver" --trace "$dir/trace"
		--log "$dir/console.log" --timeout "$MATRIX_TIMEOUT" --disk-size "$MATRIX_DISK"
		--append "$append")
	[ -n "$cable" ] && args+=(--cable "$cable")
	[ "$MATRIX_IDE_MODE" = legacy ] || args+=(--ide-mode "$MATRIX_IDE_MODE")
	for p in $positions; do
		rm -f "$dir/disk$i.img"
		args+=(--disk "$dir/disk$i.img")
		i=$((i + 1))
	done
	"$ATALAB_ROOT/tools/atalab" run "${args[@]}" -- "$@" >"$dir/stdout" 2>"$dir/stderr"
}

# matrix_boot DIR NAME DRIVER K: the fresh boot of step K.
matrix_boot() {
	local dir=$1 driver=$3 rc=0 SEED=$((100 + 10 * $4))
	local model cable positions modes K=$4
	matrix_spec "$2"
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	matrix_guest "$dir" "$driver" "libata.force=$(matrix_force 0 < <(matrix_assign))" -- \
		mode-check "$MATRIX_DMA_SIZE" "$MATRIX_PIO_SIZE" "$SEED" $positions || rc=$?
	{
		grep -q '^regs ' "$dir/stdout" || echo "noresult exit=$rc"
		matrix_cells "$dir" "$dir/stdout" 1 "$dir/trace" < <(matrix_assign)
		grep '^regs ' "$dir/stdout"
	} >"$dir/result"
}

# matrix_walk DIR NAME DRIVER FROM: FROM with its default modes, then
# DRIVER once per walk step (ports 2L+3 and 2L+4 at step L).
matrix_walk() {
	local dir=$1 driver=$3 from=$4 rc=0 force="" load steps SEED L
	local model cable positions modes
	local -a drivers=("$from")
	matrix_spec "$2"
	steps=$(matrix_walk_steps)
	mkdir -p "$dir"
	for ((L = 0; L < steps; L++)); do
		force="$force,$(matrix_force $((2 * (L + 1))) < <(matrix_walk_assign))"
		drivers+=("$driver")
	done
	matrix_guest "$dir" none "libata.force=${force#,}" -- \
		mode-walk "$MATRIX_DMA_SIZE" "$MATRIX_PIO_SIZE" 500 2 "$positions" "${drivers[@]}" || rc=$?
	# The violation records of each load (0xff read: a load starts), each
	# file a trace of its own: the header, then the load's violations.
	awk -v dir="$dir" '/^#/ { header = header $0 "\n"; next }
		$2 == "cfg" && $3 == "r" && $4 == "0xff" { n++; printf "%s", header > (dir "/violations." n) }
		$3 == "violation" { print > (dir "/violations." n) }' "$dir/trace"
	{
		[ "$(grep -c '^regs ' "$dir/stdout")" = $((steps + 1)) ] || echo "noresult exit=$rc"
		for ((load = 1; load <= steps; load++)); do
			L=$((load - 1))
			SEED=$((500 + 16 * load))
			awk -v l="$load" '$1 == "load" { on = ($2 == l); next } on' "$dir/stdout" |
				awk -v o=$((2 * load)) '$1 == "dev" { split($2, a, "."); $2 = (a[1] - o) "." a[2] } { print }' \
				>"$dir/load$load"
			echo "step $L"
			# The images hold the last load's patterns.
			[ -s "$dir/violations.$((load + 1))" ] ||
				grep '^#' "$dir/trace" >"$dir/violations.$((load + 1))"
			matrix_cells "$dir" "$dir/load$load" $((load == steps)) \
				"$dir/violations.$((load + 1))" < <(matrix_walk_assign)
			grep '^regs ' "$dir/load$load"
		done
		echo "walk-violations $("$(trace_tool_binary)" grep --kind violation --count "$dir/trace" || true)" \
			"$("$(trace_tool_binary)" grep --kind violation --field @0 "$dir/trace" | sort -u | paste -sd+ -)"
	} >"$dir/result"
}

# matrix_drive_mask DRIVE: sets mask (24 numbers) in the caller: the bits
# of config bytes 0x40-0x57 that belong to drive 0-3 (IDETIM, SIDETIM,
# UDMACTL, UDMATIM, IDE_CONFIG).
matrix_drive_mask() {
	local d=$1 ch=$(($1 / 2)) unit=$(($1 % 2))
	mask=(0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0)
	if [ $unit = 0 ]; then
		mask[$((2 * ch))]=$((0x0f)) mask[$((2 * ch + 1))]=$((0x33))
	else
		mask[$((2 * ch))]=$((0xf0)) mask[4]=$((0x0f << (4 * ch)))
	fi
	mask[8]=$((1 << d)) mask[$((10 + ch))]=$((0x03 << (4 * unit)))
	mask[20]=$((1 << d)) mask[21]=$((0x10 << d))
}

# matrix_expected_regs DIR: the registers walk step L (the caller's) should
# leave: each position's bits from the fresh boot in which it had the same
# mode; the other bits (decode enable, SITRE, cable reports, reserved) are
# those of every fresh boot.
matrix_expected_regs() {
	local dir=$1 p mode i=0 k n b d line
	local -a want have mask m
	read -ra m <<<"$modes"
	n=${#m[@]}
	line=$(grep -m1 '^regs ' "$dir/boot0/result") || return 1
	read -ra want <<<"${line#regs }"
	[ ${#want[@]} = 24 ] || return 1
	while read -r p mode; do
		for ((k = 0; k < n; k++)); do [ "${m[k]}" != "$mode" ] || break; done
		k=$(((k - i + n) % n))
		line=$(grep -m1 '^regs ' "$dir/boot$k/result") || return 1
		read -ra have <<<"${line#regs }"
		[ ${#have[@]} = 24 ] || return 1
		d=$((2 * (${p%.*} - 1) + ${p#*.}))
		matrix_drive_mask $d
		for ((b = 0; b < 24; b++)); do
			printf -v "want[b]" '%02x' $(((0x${want[b]} & ~mask[b]) | (0x${have[b]} & mask[b])))
		done
		i=$((i + 1))
	done < <(matrix_walk_assign)
	echo "regs ${want[*]}"
}

matrix_position_name() {
	if [ "$model" = ich5-sata ]; then
		echo "port $((${1%.*} - 1))"
	else
		case "$1" in 1.0) echo "pri master" ;; 1.1) echo "pri slave" ;;
		2.0) echo "sec master" ;; 2.1) echo "sec slave" ;; esac
	fi
}

# matrix_walk_report DIR: the walk's verdict, 1 when it is not clean.
matrix_walk_report() {
	local dir=$1 res=$1/walk/result bad=0 L steps want have cells viol rules
	steps=$(matrix_walk_steps)
	[ -f "$res" ] || { echo "walk: no result"; return 1; }
	cells=$(awk '$1 == "step" { s = $2 }
		$1 == "cell" && $4 != "ok" { print "  step " s ": " $2 " on " $3 ": " $4 }' "$res")
	if [ -n "$cells" ]; then
		echo "walk: cells not clean:"
		echo "$cells"
		bad=1
	fi
	for ((L = 0; L < steps; L++)); do
		want=$(matrix_expected_regs "$dir") || want="(no fresh boot registers)"
		have=$(awk -v l="$L" '$1 == "step" { on = ($2 == l); next } on && $1 == "regs"' "$res")
		if [ "$want" != "$have" ]; then
			echo "walk: step $L ($(matrix_walk_assign | tr '\n' ' ')) leaves other registers than fresh boots:"
			echo "  fresh: ${want#regs }"
			echo "  walk:  ${have#regs }"
			bad=1
		fi
	done
	read -r _ viol rules < <(grep '^walk-violations ' "$res")
	if [ "${viol:-x}" != 0 ]; then
		echo "walk: ${viol:-no count of} violations ${rules:-}"
		bad=1
	fi
	[ $bad = 1 ] ||
		echo "walk: $steps loads, every cell ok, registers as fresh boots leave them, 0 violations"
	return $bad
}

# matrix_table DIR NAME DRIVER: the table of one personality and driver
# from the results in DIR; returns 1 when a cell or the walk is not clean,
# 3 when a guest gave no result.
matrix_table() {
	local dir=$1 name=$2 driver=$3 rc=0 p m cell
	local model cable positions modes
	matrix_spec "$name"
	grep -qh '^noresult' "$dir"/boot*/result "$dir/walk/result" 2>/dev/null && rc=3
	if [ "$MATRIX_IDE_MODE" = legacy ]; then
		echo "### $name, $driver"
	else
		echo "### $name ($MATRIX_IDE_MODE mode), $driver"
	fi
	echo
	printf '| mode |'
	for p in $positions; do printf ' %s |' "$(matrix_position_name "$p")"; done
	printf '\n|------|'
	for p in $positions; do printf -- '----|'; done
	echo
	local -A cells=()
	while read -r _ m p cell; do
		[ -n "${cells[$m $p]:-}" ] || cells[$m $p]=$cell
	done < <(cat "$dir"/boot*/result 2>/dev/null | grep '^cell ')
	for m in $modes; do
		printf '| %s |' "$m"
		for p in $positions; do
			cell=${cells[$m $p]:-}
			printf ' %s |' "${cell:-FAIL:no-result}"
			[ "${cell:-x}" = ok ] || [ $rc = 3 ] || rc=1
		done
		echo
	done
	echo
	matrix_walk_report "$dir" || [ $rc = 3 ] || rc=1
	echo
	return $rc
}

cmd_matrix() {
	local driver=${OPT[--driver]:-atalab_piix} from=${OPT[--walk-from]:-} jobs out=${OPT[--out]:-}
	local report=${OPT[--report-only]:-0} name k rc=0 r
	local -a names=()
	jobs=${OPT[--jobs]:-$(atalab_jobs)}
	MATRIX_IDE_MODE=${OPT[--ide-mode]:-legacy}
	opt_values --personality names
	[ -n "$from" ] || { from=ata_piix; [ "$driver" != ata_piix ] || from=atalab_piix; }
	[[ "$driver" =~ ^[A-Za-z0-9_-]+$ ]] || usage_error "--driver wants a module name, got '$driver'"
	[[ "$from" =~ ^[A-Za-z0-9_-]+$ ]] || usage_error "--walk-from wants a module name, got '$from'"
	[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || usage_error "--jobs wants a positive number, got '$jobs'"
	[ ${#names[@]} -gt 0 ] || names=("${MATRIX_PERSONALITIES[@]}")
	case "$MATRIX_IDE_MODE" in legacy | native) ;;
	*) usage_error "--ide-mode wants legacy or native, got '$MATRIX_IDE_MODE'" ;; esac
	local model cable positions modes
	for name in "${names[@]}"; do
		matrix_spec "$name"
		[ "$MATRIX_IDE_MODE" = legacy ] || [ "$model" != "${model#ich5}" ] ||
			usage_error "--ide-mode $MATRIX_IDE_MODE: $name has no native PCI mode (the ich5 personalities have)"
	done
	if [ -n "$out" ]; then
		mkdir -p "$out" || die "cannot create --out $out"
		out=$(cd "$out" && pwd)
	else
		out=$(mktemp -d "${TMPDIR:-/tmp}/atalab-matrix.XXXXXX")
		# shellcheck disable=SC2064
		trap "rm -rf '$out'" EXIT
	fi
	build_all

	# Every guest of every personality, $jobs at a time; the walks first,
	# they take longest.
	local -a queue=()
	for name in "${names[@]}"; do
		rm -rf "${out:?}/$name"
		queue+=("matrix_walk $out/$name/walk $name $driver $from")
	done
	for name in "${names[@]}"; do
		matrix_spec "$name"
		for ((k = 0; k < $(wc -w <<<"$modes"); k++)); do
			queue+=("matrix_boot $out/$name/boot$k $name $driver $k")
		done
	done
	local t0=$SECONDS item
	for item in "${queue[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		# shellcheck disable=SC2086
		$item &
	done
	wait
	msg "matrix: ${#queue[@]} guests in $((SECONDS - t0)) s"

	echo "kernel: $(kernel_under_test)" >"$out/results.txt"
	for name in "${names[@]}"; do
		r=0
		matrix_table "$out/$name" "$name" "$driver" >>"$out/results.txt" || r=$?
		[ $r -le $rc ] || rc=$r
	done
	cat "$out/results.txt"
	[ "$report" = 0 ] || [ "$rc" = 3 ] || rc=0
	return "$rc"
}
