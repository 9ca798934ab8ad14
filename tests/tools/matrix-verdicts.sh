#!/usr/bin/env bash
# The mode matrix judges each cell from the guest's mode-check lines and the
# model's trace (tools/lib/matrix.sh, matrix_cells), and the walk's
# registers from the fresh boots' (matrix_expected_regs): hand-made results
# with violations, unchecked transfers, a wrong mode and a missing device
# get the verdicts the usage text promises.
. "$(dirname "$0")/lib.sh"
load_atalab
set +u
model=piix3 cable="" positions="1.0 1.1 2.0 2.1" modes="pio0 pio1 pio2 pio3 pio4"
dir=$WORK/boot
mkdir -p "$dir"
# A trace header the reader accepts, then the records of the cells.
grep '^#' "$ATALAB_ROOT/traces/golden/piix4-ata_piix-dma.trace" >"$dir/trace"
cat >>"$dir/trace" <<'TRACE'
5 ata0 violation d0 pio-overclock reg=IDETIM expected=t<=2 actual=3 xfer=pio seq=3
6 ata0 violation d0 iordy-off reg=IDETIM expected=IE=1 actual=IE=0 xfer=pio seq=3
7 ata0 violation d0 pio-overclock reg=IDETIM expected=t<=2 actual=3 xfer=pio seq=3
8 ata1 violation d1 pio-overclock reg=SIDETIM expected=t<=1 actual=2 xfer=pio seq=3
9 ata0 timing-summary d0 checks=0 violations=0
10 ata0 timing-summary d0 checks=5 violations=3
10 ata0 timing-summary d1 checks=0 violations=0
10 ata1 timing-summary d0 checks=4 violations=0
10 ata1 timing-summary d1 checks=3 violations=1
TRACE
cat >"$dir/out" <<'OUT'
dev 1.0 XFER_PIO_4 ok
dev 1.1 XFER_PIO_3 ok
dev 2.0 XFER_PIO_2 ok
dev 2.1 XFER_PIO_0 ok
OUT
cells=$(SEED=1 matrix_cells "$dir" "$dir/out" 0 "$dir/trace" <<'ASSIGN'
1.0 pio4
1.1 pio3
2.0 pio2
2.1 pio1
9.0 pio0
ASSIGN
)
for want in "cell pio4 1.0 V3:iordy-off+pio-overclock" "cell pio3 1.1 FAIL:unchecked" \
	"cell pio2 2.0 ok" "cell pio1 2.1 FAIL:configured-XFER_PIO_0" "cell pio0 9.0 FAIL:no-result"; do
	grep -qxF "$want" <<<"$cells" && ok "$want" || bad "no '$want' in: $(tr '\n' '|' <<<"$cells")"
done
sed -i 's/^dev 2.0 XFER_PIO_2 ok$/dev 2.0 XFER_PIO_2 io-error/' "$dir/out"
cells=$(SEED=1 matrix_cells "$dir" "$dir/out" 0 "$dir/trace" <<<"2.0 pio2")
[ "$cells" = "cell pio2 2.0 FAIL:io-error" ] && ok "$cells" || bad "a failed check gave: $cells"

# The walk: step L wants each position's bits from the fresh boot in which
# it had the same mode, the rest from boot 0.  Boot k's registers here
# carry k in every byte, so each byte names the boot it must come from.
for ((k = 0; k < 5; k++)); do
	mkdir -p "$WORK/m/boot$k"
	printf 'regs%s\n' "$(printf ' %02x' $(for ((b = 0; b < 24; b++)); do echo $((k * 16 + k)); done))" \
		>"$WORK/m/boot$k/result"
done
L=1     # positions on pio3 pio4 pio4 pio4: fresh boots 3, 3, 2 and 1
regs=$(matrix_expected_regs "$WORK/m")
# IDETIM0 (bytes 0-1) and drives 0-1's bits of SIDETIM, UDMACTL, UDMATIM
# and IDE_CONFIG from boot 3; IDETIM1's low nibble and 0x33 from boot 2
# (drive 2), its high nibble from boot 1 (drive 3); the rest from boot 0.
want="regs 33 33 12 22 13 00 00 00 03 00 33 12 00 00 00 00 00 00 00 00 03 30 00 00"
[ "$regs" = "$want" ] && ok "walk step 1 wants each drive's bits from its own fresh boot" ||
	bad "walk step 1 wants '$regs', not '$want'"
finish
