#!/usr/bin/env bash
# tools/atalab trace vcd on a real trace (ata_piix probing and reading on
# piix4, tests/tools/traces/): GTKWave's own reader (vcd2fst, Debian's
# gtkwave package) converts the dump, and converted back it has the same
# signals and time steps; traces without times are refused (exit 2).
. "$(dirname "$0")/lib.sh"
REAL=$ATALAB_ROOT/tests/tools/traces/piix4-ata_piix-dd.trace
check "tools/atalab trace vcd writes a dump" "$ATALAB" trace vcd "$REAL" -o "$WORK/run.vcd"
vars=$(grep -c '^\$var ' "$WORK/run.vcd")
steps=$(grep -c '^#' "$WORK/run.vcd")
# one disk: 2 signals per channel, 6 for the drive
[ "$vars" = 10 ] && ok "10 signals" || bad "$vars signals, not 10"
[ "$steps" -gt 100 ] && ok "$steps time steps" || bad "only $steps time steps"
if vcd2fst "$WORK/run.vcd" "$WORK/run.fst" >"$WORK/vcd2fst.out" 2>&1; then
	fst2vcd "$WORK/run.fst" >"$WORK/back.vcd" 2>/dev/null
	[ "$(grep -c '^\$var ' "$WORK/back.vcd")" = "$vars" ] && ok "GTKWave reads the $vars signals" ||
		bad "GTKWave read $(grep -c '^\$var ' "$WORK/back.vcd") signals"
	[ "$(grep -c '^#' "$WORK/back.vcd")" = "$steps" ] && ok "GTKWave reads the $steps time steps" ||
		bad "GTKWave read $(grep -c '^#' "$WORK/back.vcd") time steps"
	grep -q 'intrq' "$WORK/back.vcd" && ok "intrq is there" || bad "no intrq in GTKWave's copy"
else
	bad "vcd2fst refused the dump: $(cat "$WORK/vcd2fst.out")"
fi
expect 2 "a VCD needs the trace's own times: this trace's are normalized to 0" -- \
	trace vcd "$ATALAB_ROOT/traces/golden/piix4-ata_piix-dma.trace" -o "$WORK/golden.vcd"
[ ! -e "$WORK/golden.vcd" ] && ok "no file left behind" || bad "a refused dump left a file"
expect 2 "No such file" -- trace vcd "$WORK/none.trace"
finish
