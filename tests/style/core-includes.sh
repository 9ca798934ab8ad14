#!/usr/bin/env bash
# The emulator core's layering (docs/core.md): its files form no include
# cycle; no ATA file (ata-*) includes, directly or through another header,
# the bus-master engine, the controller's state or the controller's public
# header; the engine includes no ATA header; timing and personality are
# pure (they include only each other and the register offsets); and no
# core file includes a QEMU header.
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
# includes_of FILE: every core header FILE reaches, through any chain.
includes_of() {
	local seen=" " todo=$1 f next
	while [ -n "$todo" ]; do
		next=""
		for f in $todo; do
			for h in $(awk -v f="$f" '$1 == f { print $2 }' <<<"$edges"); do
				case "$seen" in *" $h "*) continue ;; esac
				seen="$seen$h "
				next="$next $h"
			done
		done
		todo=$next
	done
	echo "$seen"
}
for f in ata-*.c ata-*.h; do
	for h in $(includes_of "$f"); do
		case "$h" in
		bmdma.h | ctrl-state.h | atalab-ctrl.h)
			echo "$f reaches $h: the ATA side sees the controller only through AtalabAtaHooks, drive-config.h and dma-port.h"
			bad=1 ;;
		esac
	done
done
for f in timing.c personality.c atalab-timing.h atalab-personality.h pci-ide-regs.h; do
	for h in $(includes_of "$f"); do
		case "$h" in
		atalab-timing.h | atalab-personality.h | pci-ide-regs.h) ;;
		*)
			echo "$f reaches $h: timing and personality are pure (tables and functions of their arguments)"
			bad=1 ;;
		esac
	done
done
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
