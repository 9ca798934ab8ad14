# shellcheck shell=bash
# The accelerator of a guest run: TCG, or KVM when a bounded probe showed
# that a KVM guest really runs here.
#
# The probe boots the kit's kernel under KVM with tools/guest/report-status
# as init; only the status line that guest writes on its serial port counts
# as success (a QEMU that exits 0 without running the guest does not).  The
# finding is kept in $ATALAB_CACHE/kvm-probe/, keyed by the host kernel,
# /dev/kvm and the QEMU version, and probed again after a day.

ATALAB_KVM_PROBE_SECONDS=20
ATALAB_KVM_PROBE_MAX_AGE=86400

kvm_probe_file() {
	echo "$ATALAB_CACHE/kvm-probe/$(hash_text "$(uname -r)" \
		"$(stat -c '%t:%T %a %Z' /dev/kvm 2>/dev/null)" \
		"$(cat "$(qemu_source_dir)/VERSION" 2>/dev/null)" \
		"$(hash_recipe probe_guest_reports)")"
}

# Is a kept finding still current?
kvm_probe_fresh() {
	local file=$1 age
	[ -s "$file" ] || return 1
	age=$(($(date +%s) - $(stat -c %Y "$file")))
	[ "$age" -ge 0 ] && [ "$age" -lt "$ATALAB_KVM_PROBE_MAX_AGE" ]
}

# probe_guest_reports ACCEL: boot a guest that only reports a status under
# ACCEL, bounded.  Prints "yes" or "no: why"; true for yes.
probe_guest_reports() {
	local accel=$1 dir rc=0 why=""
	local -a machine
	dir=$(mktemp -d "${TMPDIR:-/tmp}/atalab-probe.XXXXXX")
	qemu_machine_args "$accel" 128M
	timeout -s KILL "$ATALAB_KVM_PROBE_SECONDS" "${machine[@]}" \
		-append "panic=-1 rdinit=/atalab/report-status" \
		-serial "file:$dir/serial" </dev/null >"$dir/qemu.out" 2>&1 || rc=$?
	if grep -q '^ATALAB-STATUS 0' "$dir/serial" 2>/dev/null; then
		echo yes
	else
		case $rc in
		137) why="the probe guest did not finish within ${ATALAB_KVM_PROBE_SECONDS} s" ;;
		0) why="the probe guest ended without reporting a status" ;;
		*) why="QEMU exited $rc: $(head -n1 "$dir/qemu.out")" ;;
		esac
		echo "no: $why"
	fi
	rm -rf "$dir"
	[ "$why" = "" ]
}

# kvm_finding: "yes" or "no: why", probing when nothing current is kept.
kvm_finding() {
	local file
	if [ ! -w /dev/kvm ]; then
		echo "no: /dev/kvm is missing or not writable"
		return
	fi
	file=$(kvm_probe_file)
	lock_take kvm-probe "another atalab's KVM probe"
	if ! kvm_probe_fresh "$file"; then
		[ "${RUN_QUIET:-0}" = 1 ] || msg "probing KVM (at most ${ATALAB_KVM_PROBE_SECONDS} s; the finding is kept in $file)"
		mkdir -p "$(dirname "$file")"
		probe_guest_reports kvm >"$file.tmp" || true
		mv "$file.tmp" "$file"
	fi
	lock_drop kvm-probe
	cat "$file"
}

# accel_choose auto|tcg|kvm: sets RUN_ACCEL and RUN_ACCEL_WHY.  --accel kvm
# where KVM does not work fails at once with the probe's finding.
accel_choose() {
	local finding where=""
	[ -w /dev/kvm ] && where="; kept in $(kvm_probe_file), delete it to probe again"
	case "$1" in
	tcg) RUN_ACCEL=tcg RUN_ACCEL_WHY="as asked" ;;
	kvm | auto)
		finding=$(kvm_finding)
		if [ "$finding" = yes ]; then
			RUN_ACCEL=kvm RUN_ACCEL_WHY="the KVM probe succeeded"
		elif [ "$1" = kvm ]; then
			die "--accel kvm: KVM does not work here: ${finding#no: }$where"
		else
			RUN_ACCEL=tcg RUN_ACCEL_WHY="KVM: ${finding#no: }$where"
		fi
		;;
	esac
}
