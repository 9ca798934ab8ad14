#!/usr/bin/env bash
# The emulator core's layering (docs/core.md, "Parts"): one folder per part;
# a file includes another part only through that part's public headers and
# only where the part table below allows; no ATA file reaches, through any
# chain of headers, the bus-master engine or the controller; timing and
# personality are pure (they include only each other and the register
# offsets); the files form no include cycle; no core file includes a QEMU
# header, and every include names a file that exists.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
cd "$ATALAB_ROOT/qemu-device/core"

# Each part's public headers (its face), by path from the core's root; the
# top level is the host contract.
declare -A face=(
	[top]="atalab-host.h host-timer.h stop-on.h"
	[ata]="ata/ata-device.h ata/drive-config.h"
	[dma]="dma/dma-port.h dma/bmdma.h"
	[controller]="controller/atalab-ctrl.h controller/atalab-personality.h controller/atalab-timing.h controller/pci-ide-regs.h"
	[faults]="faults/atalab-fault.h"
	[trace]="trace/trace.h trace/trace-writer.h trace/trace-records.h"
)
# What a part may include of the others' faces (directly).
declare -A may=(
	[top]="atalab-host.h ata/ata-device.h controller/atalab-timing.h controller/atalab-personality.h"
	[ata]="atalab-host.h host-timer.h dma/dma-port.h faults/atalab-fault.h trace/trace.h"
	[dma]="atalab-host.h controller/pci-ide-regs.h trace/trace.h trace/trace-writer.h"
	[controller]="atalab-host.h ata/ata-device.h ata/drive-config.h dma/bmdma.h faults/atalab-fault.h trace/trace.h trace/trace-writer.h"
	[faults]=""
	[trace]="atalab-host.h"
)

part_of() {
	case "$1" in */*) echo "${1%%/*}" ;; *) echo top ;; esac
}

bad=0
files=$(find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort)
# "FROM TO" for every quoted include, TO resolved to a path from the root.
edges=$(for f in $files; do
	dir=$(dirname "$f")
	sed -n 's/^#include "\(.*\)"$/\1/p' "$f" | while read -r inc; do
		echo "$f $(realpath -m --relative-to=. "$dir/$inc")"
	done
done)
while read -r from to; do
	[ -n "$from" ] || continue
	if [ ! -f "$to" ]; then
		echo "$from includes $to, which is no file of the core"
		bad=1
		continue
	fi
	pf=$(part_of "$from") pt=$(part_of "$to")
	[ "$pf" != "$pt" ] || continue
	case " ${face[$pt]} " in
	*" $to "*) ;;
	*)
		echo "$from includes $to: not a public header of $pt/ (${face[$pt]})"
		bad=1
		continue ;;
	esac
	case " ${may[$pf]} " in
	*" $to "*) ;;
	*)
		echo "$from includes $to: the $pf part does not depend on that (docs/core.md, Parts)"
		bad=1 ;;
	esac
done <<<"$edges"

# includes_of FILE: every core header FILE reaches, through any chain.
includes_of() {
	local seen=" " todo=$1 f h next
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
for f in $(grep '^ata/' <<<"$files"); do
	for h in $(includes_of "$f"); do
		case "$h" in
		dma/bmdma.h | controller/*)
			echo "$f reaches $h: the ATA side sees the controller only through AtalabAtaHooks, drive-config.h and dma-port.h"
			bad=1 ;;
		esac
	done
done
for f in controller/timing.c controller/personality.c controller/atalab-timing.h \
	controller/atalab-personality.h controller/pci-ide-regs.h; do
	for h in $(includes_of "$f"); do
		case "$h" in
		controller/atalab-timing.h | controller/atalab-personality.h | controller/pci-ide-regs.h) ;;
		*)
			echo "$f reaches $h: timing and personality are pure (tables and functions of their arguments)"
			bad=1 ;;
		esac
	done
done
# shellcheck disable=SC2086
if grep -n '#include "\(qemu/\|hw/\|sysemu/\|exec/\|qapi/\)' -- $files; then
	echo "a QEMU header in the core"
	bad=1
fi
# A cycle: tsort reports it.
if ! cycles=$(awk '{print $2, $1}' <<<"$edges" | tsort 2>&1 >/dev/null) || [ -n "$cycles" ]; then
	echo "include cycle among the core's files:"
	echo "$cycles"
	bad=1
fi
echo "checked $(wc -l <<<"$edges") includes of $(wc -w <<<"$files") files in $(find . -mindepth 1 -type d | wc -l) parts and the top level"
exit $bad
