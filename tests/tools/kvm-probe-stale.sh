#!/usr/bin/env bash
# A stale KVM finding is probed again (bounded, here to 5 s) and the new
# finding kept.  The probe needs /dev/kvm: without it the test is skipped
# (exit 77), not passed.
. "$(dirname "$0")/lib.sh"
real_cache=${ATALAB_CACHE:-$HOME/.cache/atalab}
if [ ! -w /dev/kvm ]; then
	echo "SKIP: no writable /dev/kvm: a stale finding cannot be probed again here"
	exit 77
fi
load_atalab
set +u
export ATALAB_CACHE=$WORK/cache
qemu_build_dir() { echo "$real_cache/qemu/build"; }
kernel_build_dir() { echo "$real_cache/kernel/build"; }
initramfs_path() { echo "$real_cache/initramfs/initramfs.cpio.gz"; }
ATALAB_KVM_PROBE_SECONDS=5
f=$(kvm_probe_file)
mkdir -p "$(dirname "$f")"
echo yes >"$f"
touch -d '2 days ago' "$f"
now=$(kvm_finding 2>"$WORK/probe.err")
grep -q "probing KVM (at most 5 s; the finding is kept in $f)" "$WORK/probe.err" &&
	ok "a stale finding is probed again: $now" || bad "no new probe: $(cat "$WORK/probe.err")"
[ "$(stat -c %Y "$f")" -gt $(($(date +%s) - 60)) ] && ok "the new finding is kept" || bad "finding not renewed"
finish
