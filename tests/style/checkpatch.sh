#!/usr/bin/env bash
# checkpatch.sh kernel|qemu: the style checker of the tree the code goes into,
# over every file of ours that goes there.  Kernel code must be clean under
# the kernel's checkpatch --strict, and so must the patch series made from
# it (driver/patches/, commit messages included); qemu-device/ under QEMU's
# checkpatch.  Files: tracked ones and new untracked ones (not ignored).
# The kernel's checkpatch is the one of the kernel tree the kit builds
# (linux-source's version), not any tree that happens to be in the cache.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
# shellcheck source=tools/lib/common.sh
. "$ATALAB_ROOT/tools/lib/common.sh"
# shellcheck source=tools/lib/setup.sh
. "$ATALAB_ROOT/tools/lib/setup.sh"
# shellcheck source=tools/lib/build-kernel.sh
. "$ATALAB_ROOT/tools/lib/build-kernel.sh"
cd "$ATALAB_ROOT"
patches=()
our_files() {
	git ls-files --cached --others --exclude-standard -- "$@" | LC_ALL=C sort -u
}
case "${1:-}" in
kernel)
	script=$(kernel_src_dir)/scripts/checkpatch.pl
	args=(--strict --no-tree --terse --show-types -f)
	mapfile -t files < <(our_files 'driver/*.c' 'driver/*.h')
	mapfile -t patches < <(our_files 'driver/patches/*.patch' | grep -v '/0000-')
	[ ${#patches[@]} -gt 0 ] || { echo "no patches in driver/patches" >&2; exit 1; }
	;;
qemu)
	script=$(qemu_source_dir)/scripts/checkpatch.pl
	args=(--no-tree --terse -f)
	mapfile -t files < <(our_files 'qemu-device/*.c' 'qemu-device/*.h')
	;;
*) echo "usage: checkpatch.sh kernel|qemu" >&2; exit 2 ;;
esac
[ -f "$script" ] || { echo "$script not found (run tools/atalab build)" >&2; exit 1; }
[ ${#files[@]} -gt 0 ] || { echo "no files to check" >&2; exit 1; }
bad=0
# judge NAME OUTPUT STATUS: checkpatch's findings fail the test, and so does
# a checkpatch that failed without one (a perl error, a file it could not
# read): its exit status is 0 only for a clean file.
judge() {
	local findings
	findings=$(printf '%s\n' "$2" | grep -E '(ERROR|WARNING|CHECK)' || true)
	if [ -n "$findings" ]; then
		echo "$findings"
		bad=1
	elif [ "$3" != 0 ]; then
		echo "$1: checkpatch exited $3 without a finding:"
		printf '%s\n' "$2" | tail -n 5
		bad=1
	fi
}
for f in "${files[@]}"; do
	rc=0
	out=$(perl "$script" "${args[@]}" "$f" 2>&1) || rc=$?
	judge "$f" "$out" $rc
done
# A patch goes in on stdin: given a file git tracks, checkpatch checks the
# file itself instead of the patch in it.
for p in "${patches[@]}"; do
	rc=0
	out=$(perl "$script" --strict --no-tree --terse --show-types - <"$p" 2>&1) || rc=$?
	judge "$p" "$(printf '%s\n' "$out" | sed "s|^-:|$p:|")" $rc
done
echo "checked ${#files[@]} files and ${#patches[@]} patches with $script"
exit $bad
