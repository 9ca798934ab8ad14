#!/usr/bin/env bash
# The emulator core's layering (docs/core.md): its files form no include
# cycle, no ATA file (ata-*) includes the bus-master engine or the
# controller's state, the engine includes no ATA header, and no core file
# includes a QEMU header.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
cd "$ATALAB_ROOT/qemu-device/core"
bad=0
edges=$(grep -H '^#include "' -- *.c *.h | sed 's/:#include "\(.*\)"$/ \1/')
while read -r from to; do
	case "$from:$to" in
	ata-*:bmdma.h | ata-*:ctrl-state.h)
		echo "$from includes $to: the ATA side reaches the engine only through dma-port.h"
		bad=1 ;;
	bmdma.*:ata-*)
		echo "$from includes $to: the engine never looks at drive state"
		bad=1 ;;
	esac
done <<<"$edges"
if grep -n '#include "\(qemu/\|hw/\|sysemu/\|exec/\|qapi/\)' -- *.c *.h; then
	echo "a QEMU header in the core"
	bad=1
fi
# A cycle: tsort reports it.
if ! cycles=$(awk '{print $2, $1}' <<<"$edges" | tsort 2>&1 >/dev/null) || [ -n "$cycles" ]; then
	echo "include cycle among the core's files:"
	echo "$cycles"
	bad=1
fi
echo "checked $(wc -l <<<"$edges") includes of $(ls -- *.c *.h | wc -l) files"
exit $bad
