#!/usr/bin/env bash
# sparse.sh: driver/ built against the guest kernel with sparse on every
# file (make C=2) and the kernel's extra warnings (W=1): no diagnostic.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
cache=${ATALAB_CACHE:-$HOME/.cache/atalab}
kbuild=$cache/kernel/build
[ -f "$kbuild/Module.symvers" ] || { echo "no kernel build in $kbuild (run tools/atalab build)" >&2; exit 1; }
command -v sparse >/dev/null || { echo "sparse is not installed (tools/atalab setup)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/atalab-sparse.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$ATALAB_ROOT/driver"
cp ./*.c ./*.h Kbuild "$work/"
out=$(make -C "$kbuild" M="$work" C=2 W=1 CONFIG_ATA_ATALAB_PIIX=m \
	CONFIG_ATA_ATALAB_PIIX_KUNIT_TEST=m modules 2>&1) || { echo "$out"; exit 1; }
checked=$(grep -c '^  CHECK ' <<<"$out" || true)
diag=$(grep -E '(warning|error):' <<<"$out" || true)
[ -z "$diag" ] || { echo "$diag"; exit 1; }
[ "$checked" -gt 0 ] || { echo "sparse checked no file:"; echo "$out"; exit 1; }
echo "sparse and W=1: $checked files clean"
