#!/usr/bin/env bash
# ICH5 IDE and SATA booted with both channels in native PCI mode
# (--ide-mode native: PI 8Fh from firmware): ata_piix, ata_generic and
# atalab_piix find the function native (the control block at BAR 1, not
# 0x3f6), drive a disk on each channel through the BARs, verified, and take
# their interrupts on the function's PCI line, shared by both channels,
# never on IRQ 14 or 15.  The trace header says the mode.  A scenario
# file's ide-mode reaches the run.
. "$(dirname "$0")/lib.sh"

# native_run MODEL DRIVER XFER [run options]
native_run() {
	local model=$1 driver=$2 xfer=$3 irq n
	shift 3
	expect_status 0 --model "$model" --ide-mode native --driver "$driver" --trace "$WORK/trace" \
		--disk-size 16M "$@" -- sh -c '
		check-ata-devices "1.0:'"$xfer"':ATALAB HARDDISK" "2.0:'"$xfer"':ATALAB HARDDISK" || exit 1
		pattern-rw /dev/$(blk-of 0) 4M 41 && pattern-rw /dev/$(blk-of 2) 4M 42 || exit 2
		cat /sys/bus/pci/devices/0000:00:01.0/class
		grep -E ":.* (ata_piix|ata_generic|atalab_piix)\$" /proc/interrupts'
	grep -qx 0x01018f "$WORK/stdout" || fail "$model: the guest does not read PI 8Fh: $(cat "$WORK/stdout")"
	# Native: the control block is BAR 1's range (SeaBIOS puts it at 0x3f4),
	# the register at its byte 2; legacy mode would say ctl 0x3f6.
	grep -q 'ata1: [PS]ATA max .* cmd 0x[0-9a-f]* ctl 0x3f4 ' "$WORK/console.log" ||
		fail "$model/$driver: ata1 not set up native: $(grep 'ata1: [PS]ATA max' "$WORK/console.log")"
	irq=$(sed -n 's/.*ata1: [PS]ATA max .* irq \([0-9]*\).*/\1/p' "$WORK/console.log")
	grep -q "ata2: [PS]ATA max .* irq $irq\b" "$WORK/console.log" ||
		fail "$model/$driver: the channels do not share IRQ $irq: $(grep 'ata[12]: [PS]ATA max' "$WORK/console.log")"
	case "$irq" in 14 | 15 | "") fail "$model/$driver: native channels on IRQ '$irq'" ;; esac
	n=$(awk -v irq="$irq:" -v d="$driver" '$1 == irq && $NF == d { print $2 }' "$WORK/stdout")
	[ -n "$n" ] && [ "$n" -gt 0 ] || fail "$model/$driver: no interrupt counted on IRQ $irq: $(cat "$WORK/stdout")"
	! grep -Eq '^ *1[45]:.*(ata_piix|ata_generic|atalab_piix)$' "$WORK/stdout" ||
		fail "$model/$driver: a driver holds IRQ 14 or 15"
	grep -qx '# ide-mode native' "$WORK/trace" || fail "$model/$driver: no ide-mode line in the trace header"
	expect_clean_ata_log
	echo "ok: $model $driver: both channels native, $n interrupts on IRQ $irq"
}

native_run ich5 ata_piix XFER_UDMA_5 --disk "$WORK/a0.img" --disk none --disk "$WORK/a2.img"
native_run ich5 atalab_piix XFER_UDMA_5 --disk "$WORK/a0.img" --disk none --disk "$WORK/a2.img"
native_run ich5 ata_generic XFER_UDMA_5 --append ata_generic.all_generic_ide=1 \
	--disk "$WORK/a0.img" --disk none --disk "$WORK/a2.img"
native_run ich5-sata ata_piix XFER_UDMA_6 --disk "$WORK/s0.img" --disk "$WORK/s1.img"
native_run ich5-sata atalab_piix XFER_UDMA_6 --disk "$WORK/s0.img" --disk "$WORK/s1.img"

# A scenario file's ide-mode (docs/scenarios.md) reaches the run.
cat >"$WORK/native.scenario" <<'SCEN'
[scenario]
description = both channels native
model = ich5
ide-mode = native
[workload]
run = true
SCEN
"$ATALAB" scenario --work "$WORK/scen" "$WORK/native.scenario" >"$WORK/scen.out" 2>&1 ||
	fail "the native scenario: $(tail -n 5 "$WORK/scen.out")"
log=$WORK/scen/native/console.log
grep -q 'ata1: PATA max .* ctl 0x3f4 ' "$log" && ! grep -q 'ata1: PATA max .* irq 14\b' "$log" ||
	fail "ide-mode = native: $(grep -h 'ata[12]: PATA max' "$log")"
echo "ok: a scenario's ide-mode = native: the disk's channel at its BARs, on the PCI line"
