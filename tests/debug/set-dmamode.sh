#!/usr/bin/env bash
# A breakpoint in a module not loaded yet (ata_piix's piix_set_dmamode)
# becomes real when the guest loads the module; there the mode argument is
# UDMA/33 and the backtrace goes through ata_do_set_mode; the device then
# stops the guest at the SET FEATURES command, with ata_dev_set_mode in the
# backtrace.  With the breakpoint in the wrong function the session fails.
# Then the same through atalab_piix (whose set_piomode and set_dmamode are
# one function): the DMA-mode call has UDMA/33; forced to UDMA/25 the
# script fails.
. "$(dirname "$0")/lib.sh"
session 0 --disk "$WORK/d.img" --disk-size 16M --break piix_set_dmamode --stop-on cmd=0xef \
	--gdb-batch "$DEBUG_DIR/set-dmamode.gdb" -- echo guest-done
grep -qx guest-done "$WORK/stdout" || fail "the guest command did not run to its end"
grep -q 'Breakpoint 1 (piix_set_dmamode) pending' "$WORK/stderr" "$WORK/stdout" || fail "the breakpoint was not pending"
grep -q 'atalab: the device stopped the guest: cmd 0xef ata0 d0' "$WORK/stdout" || fail "no device stop reported"
# The breakpoint in the wrong function (set_piomode): the same script fails.
session 126 --disk "$WORK/d.img" --break piix_set_piomode --stop-on cmd=0xef \
	--gdb-batch "$DEBUG_DIR/set-dmamode.gdb" -- true
grep -q 'atalab-expect-pc-in: the PC .* is in piix_set_piomode, not in piix_set_dmamode' "$WORK/stdout" ||
	fail "the wrong breakpoint failed for another reason: $(tail -n5 "$WORK/stdout")"
echo "ok: a breakpoint in the wrong function fails the session"
session 0 --driver atalab_piix --disk "$WORK/d.img" --break atalab_piix_set_mode --stop-on cmd=0xef \
	--gdb-batch "$DEBUG_DIR/set-dmamode-atalab.gdb" -- echo guest-done
grep -qx guest-done "$WORK/stdout" || fail "atalab_piix: the guest command did not run to its end"
grep -q 'atalab-assert: true: adev->dma_mode == 0x42' "$WORK/stdout" || fail "atalab_piix: no UDMA/33 check"
grep -q 'atalab: the device stopped the guest: cmd 0xef ata0 d0' "$WORK/stdout" || fail "atalab_piix: no device stop"
session 126 --driver atalab_piix --append libata.force=udma1 --disk "$WORK/d.img" --break atalab_piix_set_mode \
	--stop-on cmd=0xef --gdb-batch "$DEBUG_DIR/set-dmamode-atalab.gdb" -- true
grep -q 'atalab-assert: false: adev->dma_mode == 0x42' "$WORK/stdout" ||
	fail "atalab_piix at UDMA/25 failed for another reason: $(tail -n5 "$WORK/stdout")"
echo "ok: atalab_piix's set_dmamode at UDMA/33; at UDMA/25 the script fails"
