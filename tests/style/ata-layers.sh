#!/usr/bin/env bash
# The ATA part's files are layers (qemu-device/core/ata/ata-internal.h
# lists them, lowest first): a file calls functions only of files listed
# before it.  Each file is compiled on its own and its object's undefined
# symbols are looked up among the others' definitions, so every reference
# counts: a call, or a function's address taken (the command table's
# handlers).  Also every ATA .c file must be in the list, once.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
ata="$ATALAB_ROOT/qemu-device/core/ata"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The list: " * NAME.c   what it is" lines of ata-internal.h's first comment.
mapfile -t layers < <(sed -n '1,/\*\//s/^ \* \(ata[a-z-]*\.c\) .*/\1/p' "$ata/ata-internal.h")
bad=0
declare -A rank=()
for i in "${!layers[@]}"; do
	f=${layers[$i]}
	if [ -n "${rank[$f]:-}" ]; then
		echo "ata-internal.h lists $f twice"
		bad=1
	fi
	rank[$f]=$i
done
for path in "$ata"/*.c; do
	f=$(basename "$path")
	if [ -z "${rank[$f]:-}" ]; then
		echo "$f is not in ata-internal.h's list of layers"
		bad=1
	fi
done
[ "$bad" = 0 ] || exit 1

# shellcheck disable=SC2046
cflags=$(pkg-config --cflags glib-2.0)
declare -A owner=()
for f in "${layers[@]}"; do
	# shellcheck disable=SC2086
	"${CC:-cc}" -std=gnu11 $cflags -c "$ata/$f" -o "$tmp/$f.o"
	for sym in $(nm --defined-only -g "$tmp/$f.o" | awk '$2 ~ /[TDRB]/ {print $3}'); do
		owner[$sym]=$f
	done
done
edges=0
for f in "${layers[@]}"; do
	for sym in $(nm -u "$tmp/$f.o" | awk '{print $2}'); do
		g=${owner[$sym]:-}
		[ -n "$g" ] && [ "$g" != "$f" ] || continue
		edges=$((edges + 1))
		if [ "${rank[$g]}" -gt "${rank[$f]}" ]; then
			echo "$f uses $sym of $g, a layer above it (ata-internal.h)"
			bad=1
		fi
	done
done
echo "checked $edges references among ${#layers[@]} ATA files"
exit $bad
