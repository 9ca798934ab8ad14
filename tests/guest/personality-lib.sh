# shellcheck shell=bash
# Shared by the personality-*.sh and timing-violation.sh guest tests (not a
# test itself): boot a personality, check what ata_piix found, move a
# verified 16 MiB pattern, and read the timing validation results from the
# register trace (traces/FORMAT.md: "violation" and "timing-summary"
# records; docs/timing.md).
. "$(dirname "$0")/lib.sh"

TRACE=$WORK/trace

# The timing (and protocol) violation records of the trace, read with the
# trace reader (tools/atalab trace grep).
trace_violations() {
	trace_grep --kind violation "$TRACE"
}

# summary_field CHANNEL DEV KEY: KEY of the drive's timing-summary record.
summary_field() {
	"$ATALAB" trace grep --kind timing-summary --source "$1" --dev "${2#d}" --field "$3" "$TRACE"
}

# expect_no_violations DRIVE...: no violation record at all, each listed
# drive ("ata0 d0") had its transfers checked, and every timing-summary
# record reports zero violations.
expect_no_violations() {
	local v d
	[ -s "$TRACE" ] || fail "no trace written"
	# Every record is one of the record table's, with no unknown key.
	"$ATALAB" trace check "$TRACE" >/dev/null || fail "the trace does not read strictly"
	v=$(trace_violations)
	[ -z "$v" ] || fail "violations in the trace:
$v"
	for d in "$@"; do
		[ "$(summary_field $d checks)" -gt 0 ] && [ "$(summary_field $d violations)" = 0 ] ||
			fail "no clean timing-summary with checked transfers for $d: $(grep timing-summary "$TRACE")"
	done
	[ "$("$ATALAB" trace grep --kind timing-summary --sum violations "$TRACE")" = 0 ] ||
		fail "timing-summary reports violations: $(grep timing-summary "$TRACE")"
}

# personality_test MODEL XFER_MODE [run options]: one disk on the primary
# master is found in XFER_MODE; 16 MiB written and read back with O_DIRECT
# (DMA), verified in the guest and in the image; no timing violation.
personality_test() {
	local model=$1 mode=$2 img=$WORK/disk.img
	shift 2
	expect_status 0 --model "$model" --trace "$TRACE" --disk "$img" \
		--disk-size 32M "$@" -- sh -c \
		"check-ata-devices '1.0:$mode:ATALAB HARDDISK' && pattern-rw /dev/sda 16M 7"
	cat "$WORK/stdout"
	"$ATALAB_CACHE_BIN"/ata-pattern verify "$img" --size 16M --seed 7 ||
		fail "image does not hold the pattern"
	expect_clean_ata_log
	expect_no_violations "ata0 d0"
}
