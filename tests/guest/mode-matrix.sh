#!/usr/bin/env bash
# mode-matrix.sh PERSONALITY [IDE-MODE]: tools/atalab matrix for atalab_piix
# (its channels booted in IDE-MODE, default legacy) must be
# clean: every mode the personality allows on every position configured,
# patterns verified, transfers checked, no timing violation, and the reload
# walk leaves the registers fresh boots leave with no violation.  Then the
# same matrix with upstream ata_piix as the reference: its cells and walk
# are reported, not judged (only a guest without a result fails).
. "$(dirname "$0")/lib.sh"
personality=${1:?usage: mode-matrix.sh PERSONALITY [IDE-MODE]}
mode=${2:-legacy}
# meson runs the personalities in parallel: one guest at a time each.
jobs=${ATALAB_MATRIX_JOBS:-1}
rc=0
"$ATALAB" matrix --personality "$personality" --ide-mode "$mode" --jobs "$jobs" --out "$WORK/atalab_piix" || rc=$?
[ $rc = 0 ] || fail "atalab_piix: the $personality matrix is not clean (exit $rc)"
# Every boot of the matrix was in that mode (the trace header says so).
n=$(find "$WORK/atalab_piix" -name trace | wc -l)
if [ "$mode" != legacy ]; then
	m=$(find "$WORK/atalab_piix" -name trace -exec grep -lx "# ide-mode $mode" {} + | wc -l)
	[ "$n" -gt 0 ] && [ "$m" = "$n" ] || fail "$m of $n traces have '# ide-mode $mode'"
	echo "ok: all $n boots in $mode mode"
fi
rc=0
"$ATALAB" matrix --personality "$personality" --ide-mode "$mode" --jobs "$jobs" --driver ata_piix --report-only \
	--out "$WORK/ata_piix" || rc=$?
[ $rc = 0 ] || fail "ata_piix: the reference matrix of $personality gave no result (exit $rc)"
grep -qE 'V[0-9]+:|FAIL:|differ|other registers|violations [1-9]' "$WORK/ata_piix/results.txt" &&
	echo "ata_piix reference: not clean, see the table above" || echo "ata_piix reference: clean"
