#!/usr/bin/env bash
# libata's speed-down after interface CRC errors, through atalab_piix: on
# ICH5 (80-wire, strict=on) the guest clears the disk's Ultra DMA enable
# (UDMACTL bit 0) before each 64 KiB O_DIRECT read while the disk is in an
# Ultra DMA mode; the read fails with ICRC, libata resets the channel and
# has the driver program the mode again (the retry then verifies), and
# after 4, 8 and 15 errors speeds down to UDMA/66, UDMA/33 and PIO4.
# Every violation is one the guest caused: exactly one udma-off-in-udma
# per ICRC error, none after the driver reprogrammed; a final 1 MiB in
# PIO4 adds none.  The drive's Ultra DMA bits are all clear in PIO4
# (ata_piix, the asserted reference, leaves UDMA 2's CT there).
. "$(dirname "$0")/personality-lib.sh"

# shellcheck disable=SC2016 # expanded by the guest shell
steps='i=0
while [ $i -lt 24 ]; do
	mode=$(cat /sys/class/ata_device/dev1.0/xfer_mode)
	case $mode in XFER_UDMA_*) ;; *) break ;; esac
	v=$(pci-config read 0x48) && pci-config write 0x48 $((v & ~1)) >/dev/null || exit 1
	ata-pattern verify /dev/sda --size 64K --seed 3 --direct >/dev/null || exit 1
	i=$((i + 1))
	echo "error $i: $mode -> $(cat /sys/class/ata_device/dev1.0/xfer_mode)"
done
pattern-rw /dev/sda 1M 4 >/dev/null && echo "final $(cat /sys/class/ata_device/dev1.0/xfer_mode) pattern ok"'

# Last decoded timing of the primary master.
last_timing() {
	trace_grep --kind timing --source ata0 --dev 0 "$TRACE" | tail -n1 | cut -d' ' -f5-
}

for driver in atalab_piix ata_piix; do
	expect_status 0 --model ich5 --cable 80 --driver $driver --device-opt strict=on \
		--trace "$TRACE" --disk "$WORK/disk.img" --disk-size 16M -- sh -c \
		"ata-pattern write /dev/sda --size 1M --seed 3 --direct >/dev/null && $steps"
	cat "$WORK/stdout"
	echo "$driver: $(last_timing)"
	[ $driver = atalab_piix ] || break
	for n in 4:XFER_UDMA_5:XFER_UDMA_4 8:XFER_UDMA_4:XFER_UDMA_2 15:XFER_UDMA_2:XFER_PIO_4; do
		grep -qx "error ${n%%:*}: $(echo "$n" | cut -d: -f2) -> ${n##*:}" "$WORK/stdout" ||
			fail "no speed-down at error ${n%%:*} to ${n##*:}"
	done
	grep -qx 'final XFER_PIO_4 pattern ok' "$WORK/stdout" || fail "the final PIO4 pattern did not verify"
	grep -q 'limiting speed to UDMA/66:PIO4' "$WORK/console.log" || fail "no speed-down message"
	errors=$(trace_grep --kind error --source ata0 --dev 0 --word ICRC --count "$TRACE")
	[ "$errors" = 15 ] || fail "$errors ICRC errors, expected 15"
	v=$(trace_violations)
	bad=$(echo "$v" | grep -v ' ata0 violation d0 udma-off-in-udma reg=UDMACTL expected=on actual=off xfer=dma seq=[0-9]*$' || true)
	[ -z "$bad" ] || fail "violations the guest did not cause:
$bad"
	[ "$(echo "$v" | wc -l)" = "$errors" ] || fail "$(echo "$v" | wc -l) violations for $errors ICRC errors"
	[ "$(summary_field ata0 d0 violations)" = "$errors" ] ||
		fail "timing-summary: $(grep timing-summary "$TRACE")"
	last_timing | grep -q ' pio=120ns/pio4 .* udma=off:udma0 ct=0 clk=33$' ||
		fail "atalab_piix left Ultra DMA bits in PIO4: $(last_timing)"
done
last_timing | grep -q ' udma=off:udma2 ct=2 clk=33$' ||
	fail "ata_piix no longer leaves UDMA 2's CT behind (reference changed): $(last_timing)"
