#!/usr/bin/env bash
# The KVM probe counts as success only when the probe guest reports a
# status; its finding is kept, and probed again once stale; --accel kvm
# where the probe found KVM unusable fails at once with the finding.
. "$(dirname "$0")/lib.sh"
real_cache=${ATALAB_CACHE:-$HOME/.cache/atalab}
load_atalab
set +u

# The probe guest, under TCG: it boots and reports.
finding=$(probe_guest_reports tcg)
[ "$finding" = yes ] && ok "the probe guest reports under TCG" || bad "TCG probe: $finding"
# A guest that never reports (no init: the kernel panics, QEMU exits 0).
printf '' | cpio -o -H newc --quiet 2>/dev/null | gzip >"$WORK/empty.cpio.gz"
initramfs_path() { echo "$WORK/empty.cpio.gz"; }
finding=$(probe_guest_reports tcg)
[ "$finding" = "no: the probe guest ended without reporting a status" ] &&
	ok "a guest without a status is no success: $finding" || bad "silent guest: $finding"
load_atalab
set +u

# Kept findings: current for a day.
export ATALAB_CACHE=$WORK/cache
mkdir -p "$WORK/cache/kvm-probe"
f=$WORK/cache/kvm-probe/f
echo yes >"$f"
kvm_probe_fresh "$f" && ok "a new finding is current" || bad "a new finding is stale"
touch -d '2 days ago' "$f"
! kvm_probe_fresh "$f" && ok "a two-day-old finding is stale" || bad "an old finding counts as current"
: >"$f"
! kvm_probe_fresh "$f" && ok "an empty finding is stale" || bad "an empty finding counts"

# A stale finding probed again: kvm-probe-stale (it needs /dev/kvm).

# --accel kvm where KVM does not work: at once, with the finding.
kvm_finding() { echo "no: the probe guest did not finish within 20 s"; }
out=$( (accel_choose kvm) 2>&1) && bad "accel_choose kvm succeeded with a 'no' finding" ||
	{ echo "$out" | grep -q -- "--accel kvm: KVM does not work here: the probe guest did not finish within 20 s" &&
		ok "accel_choose kvm fails with the finding" || bad "unclear: $out"; }
kvm_finding() { echo yes; }
accel_choose auto && [ "$RUN_ACCEL" = kvm ] && ok "auto picks KVM when the probe said yes" || bad "auto: $RUN_ACCEL"
kvm_finding() { echo "no: why"; }
accel_choose auto && [ "$RUN_ACCEL" = tcg ] && [[ "$RUN_ACCEL_WHY" == "KVM: why"* ]] &&
	ok "auto falls back to TCG saying why" || bad "auto: $RUN_ACCEL ($RUN_ACCEL_WHY)"
load_atalab
set +u
export ATALAB_CACHE=$real_cache
if [ "$(kvm_finding 2>/dev/null)" != yes ]; then
	start=$SECONDS
	expect 1 "--accel kvm: KVM does not work here" -- run --accel kvm --disk "$WORK/d.img" -- true
	[ $((SECONDS - start)) -lt 30 ] && ok "and without hanging" || bad "--accel kvm took $((SECONDS - start)) s"
else
	echo "note: KVM works here; the --accel kvm refusal is checked with a stand-in finding only"
fi
finish
