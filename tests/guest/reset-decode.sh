#!/usr/bin/env bash
# The legacy ports follow the PCI command register across a reset: off at
# power-on (I/O decoding disabled), on once the firmware enables I/O, and
# off again after a system_reset, until the firmware enables them again.
. "$(dirname "$0")/lib.sh"
MONITOR=$WORK/monitor.sock
"${QEMU[@]}" -S -device atalab-ide,id=ata -monitor "unix:$MONITOR,server=on,wait=off" \
	>"$WORK/qemu.out" 2>&1 &
GUEST_PID=$!
trap 'kill $GUEST_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
ports_decoded() { [[ $(hmp "info mtree -f") == *atalab-ide-cmd0* ]]; }
ports_decoded && fail "legacy ports decoded before the firmware enabled I/O"
hmp cont >/dev/null
for _ in $(seq 100); do ports_decoded && break; sleep 0.1; done
ports_decoded || fail "legacy ports not decoded after the firmware ran"
hmp stop system_reset >/dev/null
ports_decoded && fail "legacy ports still decoded after system_reset (PCI I/O disabled)"
hmp cont >/dev/null
for _ in $(seq 100); do ports_decoded && break; sleep 0.1; done
ports_decoded || fail "legacy ports not decoded after the firmware ran again"
hmp quit >/dev/null || true
