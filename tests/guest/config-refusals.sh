#!/usr/bin/env bash
# atalab-ide refuses configurations it cannot serve, with a message naming
# the conflict, before the guest runs: another IDE controller on the
# legacy ports (before or after it on the command line), a second
# atalab-ide, a read-only disk.
. "$(dirname "$0")/lib.sh"
refused() {
	local want=$1 rc=0
	shift
	timeout 20 "${QEMU[@]}" -S "$@" >"$WORK/out" 2>&1 || rc=$?
	[ $rc != 0 ] && [ $rc != 124 ] || fail "QEMU accepted: $* (exit $rc)"
	grep -q -- "$want" "$WORK/out" || fail "message for '$*' lacks '$want': $(cat "$WORK/out")"
}
ports='legacy I/O ports 0x1f0-0x1f7 (IRQ 14) are already used by'
# Realize refuses it (the error names the -device option) ...
refused "-device atalab-ide: $ports I/O region 'ide'" -device piix4-ide -device atalab-ide
# ... or, when the other controller comes later, the complete machine does.
refused "atalab-ide: $ports I/O region 'ide'" -device atalab-ide -device piix4-ide
refused 'only one atalab-ide per machine' -device atalab-ide -device atalab-ide
truncate -s 1M "$WORK/ro.img"
refused 'drive0: read-only backend' -drive "if=none,id=d0,format=raw,file=$WORK/ro.img,readonly=on" \
	-device atalab-ide,drive0=d0
# The accepted configuration really starts.
rc=0
timeout 3 "${QEMU[@]}" -S -device atalab-ide >"$WORK/out" 2>&1 || rc=$?
[ $rc = 124 ] || fail "a lone atalab-ide did not start: $(cat "$WORK/out")"
