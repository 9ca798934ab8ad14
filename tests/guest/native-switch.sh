#!/usr/bin/env bash
# ICH5 switched to native PCI mode at run time by tools/guest/ide-mode, with
# no driver bound: the legacy ports answer until PI's native bits are set
# and read all ones after; once Linux finds the function again (PCI remove
# and rescan) it gives the BARs I/O ranges of its own choosing, where the
# command and control blocks answer; ata_piix then drives both channels
# there, on the PCI interrupt line, and a pattern verifies on each disk.
# Switched back to legacy, the BARs go dead, and the legacy ports answer
# again (found by Linux after another rescan).
. "$(dirname "$0")/lib.sh"
addr=0000:00:01.0
expect_status 0 --model ich5 --driver none --trace "$WORK/trace" --disk "$WORK/p0.img" --disk none \
	--disk "$WORK/p2.img" --disk-size 16M -- sh -c '
set -e
export IDE_MODE_DEV='$addr'
ide-mode show
echo "legacy: cmd $(ide-mode read 0 7) ctl $(ide-mode read 1 0) cmd1 $(ide-mode read 2 7)"
ide-mode bars 0xd000 0xd010 0xd020 0xd030
ide-mode show | grep "^bar"
echo "relocated: cmd $(ide-mode read 0 7)"
ide-mode set native
echo "switched: cmd $(ide-mode read 0 7) ctl $(ide-mode read 1 0) cmd1 $(ide-mode read 2 7)"
echo 1 >/sys/bus/pci/devices/'$addr'/remove
echo 1 >/sys/bus/pci/rescan
ide-mode show
echo "native: cmd $(ide-mode read 0 7) ctl $(ide-mode read 1 2) cmd1 $(ide-mode read 2 7) ctl1 $(ide-mode read 3 2)"
modprobe ata_piix
check-ata-devices "1.0:XFER_UDMA_5:ATALAB HARDDISK" "2.0:XFER_UDMA_5:ATALAB HARDDISK"
pattern-rw /dev/$(blk-of 0) 4M 31
pattern-rw /dev/$(blk-of 2) 4M 32
echo "interrupts: $(grep ata_piix /proc/interrupts)"
rmmod ata_piix
ide-mode set legacy
echo "back: cmd $(ide-mode read 0 7) cmd1 $(ide-mode read 2 7)"
echo 1 >/sys/bus/pci/devices/'$addr'/remove
echo 1 >/sys/bus/pci/rescan
echo "legacy again: $(ide-mode show | grep "^range0 ") cmd $(ide-mode read 0 7) ctl $(ide-mode read 1 0)"'
out=$WORK/stdout
cat "$out"
has() { grep -qx -- "$1" "$out" || fail "guest did not print '$1'"; }
has "pi 0x8a"
has "range0 0x1f0-0x1f7"
has "legacy: cmd 0x50 ctl 0x50 cmd1 0x50"
has "bar0 0x0000d001"
has "bar3 0x0000d031"
has "relocated: cmd 0x50"
has "pi 0x8f"
has "switched: cmd 0xff ctl 0xff cmd1 0xff"
has "native: cmd 0x50 ctl 0x50 cmd1 0x50 ctl1 0x50"
has "pi 0x8a"
has "back: cmd 0xff cmd1 0xff"
has "legacy again: range0 0x1f0-0x1f7 cmd 0x50 ctl 0x50"
# After the rescan: the ranges Linux gave the BARs, and the driver there.
range() { grep "^range$1 " "$out" | tail -n1 | sed 's/^range[0-9] \(0x[0-9a-f]*\)-.*/\1/'; }
cmd=$(range 0) ctl=$(range 1)
[ "$cmd" != 0x1f0 ] || fail "the primary command block is still at 0x1f0 after the rescan"
grep -q "ata1: PATA max UDMA/100 cmd $cmd ctl $ctl bmdma 0x[0-9a-f]* irq [0-9]" "$WORK/console.log" ||
	fail "ata_piix did not drive the primary channel at $cmd/$ctl: $(grep 'ata1: PATA' "$WORK/console.log")"
irq=$(sed -n 's/.*ata1: PATA max .* irq \([0-9]*\).*/\1/p' "$WORK/console.log")
case "$irq" in 14 | 15 | "") fail "the native channel interrupts on IRQ '$irq'" ;; esac
grep -Eq "^interrupts: *$irq: *[1-9][0-9]* .*ata_piix$" "$out" || fail "no interrupt counted on IRQ $irq"
echo "ok: ata_piix at cmd $cmd ctl $ctl on IRQ $irq"
grep -q ' cfg w 0x9 1 0x8f reg=PI$' "$WORK/trace" || fail "the trace has no PI write of 0x8f"
expect_clean_ata_log
