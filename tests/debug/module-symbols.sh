#!/usr/bin/env bash
# Module symbols resolve by name after the guest inserts a module: for
# ata_piix (from the kernel build) and atalab_piix (from driver/), at the
# addresses the module was loaded at.
. "$(dirname "$0")/lib.sh"
session 0 --driver none --disk "$WORK/d.img" --disk-size 16M --break do_init_module \
	--gdb-batch "$DEBUG_DIR/module-symbols.gdb" -- sh -c 'modprobe ata_piix && modprobe atalab_piix && echo loaded'
grep -qx loaded "$WORK/stdout" || fail "the modules were not loaded"
grep -q "atalab_piix symbols: ${ATALAB_CACHE:-$HOME/.cache/atalab}/driver/build/atalab_piix.ko" "$WORK/stdout" ||
	fail "atalab_piix's symbols are not from the driver/ build"
