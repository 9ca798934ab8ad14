# shellcheck shell=bash
# Golden traces (traces/golden/README.md): for each personality, cable
# where it matters, driver and transfer kind, the normalized trace of a
# deterministic run probing a disk and writing and reading 32 KiB.  The
# guest test golden-traces reruns each and diffs it against its golden;
# tools/atalab trace bless regenerates them.

ATALAB_GOLDEN_DIR=traces/golden
# The machines: --model, and --cable where the personality has a choice.
ATALAB_GOLDEN_MACHINES=(piix3 piix4 ich5-40 ich5-80 ich5-sata)
ATALAB_GOLDEN_DRIVERS=(ata_piix atalab_piix)
ATALAB_GOLDEN_XFERS=(dma pio)
ATALAB_GOLDEN_JOB='ata-pattern write /dev/sda --size 32K --seed 7 --direct >/dev/null &&
ata-pattern verify /dev/sda --size 32K --seed 7 --direct >/dev/null'

# Every golden's name: MACHINE-DRIVER-XFER.
golden_names() {
	local m d x
	for m in "${ATALAB_GOLDEN_MACHINES[@]}"; do
		for d in "${ATALAB_GOLDEN_DRIVERS[@]}"; do
			for x in "${ATALAB_GOLDEN_XFERS[@]}"; do
				echo "$m-$d-$x"
			done
		done
	done
}

golden_known() { golden_names | grep -qxF -- "$1"; }

# golden_run NAME TRACE WORK: the golden's run, its raw trace to TRACE
# (disk and console log in WORK).  Fails with the console's last lines.
golden_run() {
	local name=$1 trace=$2 work=$3 machine driver xfer
	local -a opts=(--deterministic --quiet --disk-size 16M)
	xfer=${name##*-}
	name=${name%-*}
	driver=${name##*-}
	machine=${name%-*}
	case "$machine" in
	ich5-40 | ich5-80) opts+=(--model ich5 --cable "${machine#ich5-}") ;;
	*) opts+=(--model "$machine") ;;
	esac
	[ "$xfer" = dma ] || opts+=(--append libata.dma=0)
	rm -f "$work/$1.img"
	"$ATALAB_ROOT/tools/atalab" run "${opts[@]}" --driver "$driver" --disk "$work/$1.img" \
		--log "$work/$1.log" --trace "$trace" -- sh -c "$ATALAB_GOLDEN_JOB" >"$work/$1.out" 2>&1 || {
		echo "golden run $1 failed:" >&2
		cat "$work/$1.out" >&2
		tail -n 20 "$work/$1.log" >&2
		return 1
	}
}

# golden_each FUNCTION NAME...: FUNCTION NAME for each, two at a time
# (guests are single-threaded under TCG); fails when one did.
golden_each() {
	local fn=$1 name rc=0
	local -a pids=()
	shift
	for name in "$@"; do
		"$fn" "$name" & pids+=($!)
		if [ ${#pids[@]} -ge 2 ]; then
			wait "${pids[0]}" || rc=1
			pids=("${pids[@]:1}")
		fi
	done
	for name in "${pids[@]}"; do
		wait "$name" || rc=1
	done
	return $rc
}

# golden_bless_one NAME: its run, normalized into traces/golden (work
# files in $GOLDEN_WORK).
golden_bless_one() {
	local work=$GOLDEN_WORK
	golden_run "$1" "$work/$1.trace" "$work" &&
		"$(trace_tool_binary)" normalize "$work/$1.trace" >"$work/$1.golden" &&
		mv "$work/$1.golden" "$ATALAB_ROOT/$ATALAB_GOLDEN_DIR/$1.trace"
}

# tools/atalab trace bless [NAME...]
cmd_trace_bless() {
	local name work total=0
	local -a names=()
	for name in "$@"; do
		case "$name" in
		-h | --help)
			cat <<USAGE
usage: atalab trace bless [NAME...]
Reruns the golden traces' runs (every golden, or the NAMEs) and writes
their normalized traces to $ATALAB_GOLDEN_DIR/NAME.trace: after an intended
change, so the commit shows the change as a diff of goldens.  A golden is
MACHINE-DRIVER-XFER: machine ${ATALAB_GOLDEN_MACHINES[*]}; driver
${ATALAB_GOLDEN_DRIVERS[*]}; xfer ${ATALAB_GOLDEN_XFERS[*]} (pio: libata.dma=0).
Each run is deterministic (run --deterministic): it probes one 16 MiB disk,
writes 32 KiB and reads it back.  The guest test golden-traces diffs fresh
runs against them.

examples:
  tools/atalab trace bless
  tools/atalab trace bless piix4-ata_piix-dma piix4-atalab_piix-dma
USAGE
			return 0
			;;
		-*) usage_error "unknown option '$name'" ;;
		esac
		golden_known "$name" || usage_error "no golden trace '$name'; trace bless --help lists them"
		names+=("$name")
	done
	[ ${#names[@]} -gt 0 ] || mapfile -t names < <(golden_names)
	build_all
	work=$(mktemp -d "${TMPDIR:-/tmp}/atalab-bless.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$work'" EXIT
	mkdir -p "$ATALAB_ROOT/$ATALAB_GOLDEN_DIR"
	GOLDEN_WORK=$work golden_each golden_bless_one "${names[@]}" || die "blessing failed (see above)"
	for name in "${names[@]}"; do
		printf '%s/%s.trace: %d records\n' "$ATALAB_GOLDEN_DIR" "$name" \
			"$(grep -vc '^#' "$ATALAB_ROOT/$ATALAB_GOLDEN_DIR/$name.trace")"
	done
	total=$(cat "$ATALAB_ROOT/$ATALAB_GOLDEN_DIR"/*.trace | wc -c)
	echo "goldens: $(find "$ATALAB_ROOT/$ATALAB_GOLDEN_DIR" -name '*.trace' | wc -l) files, $total bytes"
}
