#!/usr/bin/env bash
# --debug-qemu: QEMU itself under gdb, a breakpoint in the emulator core;
# after the script the guest runs to its end with its status.
. "$(dirname "$0")/lib.sh"
session 3 --debug-qemu --disk "$WORK/d.img" --disk-size 16M --break atalab_ctrl_config_write \
	--gdb-batch "$DEBUG_DIR/debug-qemu.gdb" -- sh -c 'echo guest-done; exit 3'
grep -qx guest-done "$WORK/stdout" || fail "the guest did not run to its end"
grep -q 'Breakpoint 1, atalab_ctrl_config_write' "$WORK/stdout" || fail "the breakpoint was not hit"
