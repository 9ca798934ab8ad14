#!/usr/bin/env bash
# Module symbols resolve by name after the guest inserts a module: for
# ata_piix (from the kernel build) and ata_atalab (from driver/), at the
# addresses the module was loaded at.
. "$(dirname "$0")/lib.sh"
session 0 --driver none --disk "$WORK/d.img" --disk-size 16M --break do_init_module \
	--gdb-batch "$DEBUG_DIR/module-symbols.gdb" -- sh -c 'modprobe ata_piix && modprobe ata_atalab && echo loaded'
grep -qx loaded "$WORK/stdout" || fail "the modules were not loaded"
grep -q "ata_atalab symbols: ${ATALAB_CACHE:-$HOME/.cache/atalab}/driver/build/ata_atalab.ko" "$WORK/stdout" ||
	fail "ata_atalab's symbols are not from the driver/ build"
