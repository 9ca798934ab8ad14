# shellcheck shell=bash
# tools/atalab build: everything a guest run needs, cached under $ATALAB_CACHE.

# shellcheck source=tools/lib/build-qemu.sh
. "$ATALAB_ROOT/tools/lib/build-qemu.sh"
# shellcheck source=tools/lib/build-kernel.sh
. "$ATALAB_ROOT/tools/lib/build-kernel.sh"
# shellcheck source=tools/lib/build-guest.sh
. "$ATALAB_ROOT/tools/lib/build-guest.sh"

# The build steps in order; each has build_STEP and build_STEP_fresh (true
# when its cached output matches its inputs' key).
ATALAB_BUILD_STEPS=(qemu kernel driver host_tools guest_tools initramfs)

# The steps whose output does not match their inputs, into "stale".
build_stale_steps() {
	local step
	stale=()
	for step in "${ATALAB_BUILD_STEPS[@]}"; do
		"build_${step}_fresh" || stale+=("$step")
	done
}

# Build what is stale, numbering the steps that run.  One build at a time
# per cache: parallel runs and tests wait for it (and then find it done);
# when nothing is stale, nobody waits.
build_all() {
	local -a stale
	local step
	if setup_is_done; then
		build_stale_steps
		[ ${#stale[@]} -gt 0 ] || return 0
	fi
	lock_take build "another atalab build"
	setup_all
	build_stale_steps
	ATALAB_STEPS=${#stale[@]}
	ATALAB_STEP=0
	for step in "${stale[@]}"; do
		ATALAB_STEP=$((ATALAB_STEP + 1))
		"build_$step"
	done
	unset ATALAB_STEP ATALAB_STEPS
	lock_drop build
}

build_options() { :; }

build_usage() {
	cat <<USAGE
usage: atalab build

Builds qemu-system-x86_64 with atalab-ide, the guest kernel, driver/, the
host and guest tools and the initramfs.  Outputs are cached in \$ATALAB_CACHE
(now $ATALAB_CACHE), keyed by a hash of everything that shapes them (sources,
file names and modes, the build recipes, the package list and compiler):
only what changed is rebuilt, editing tree.patch re-applies it incrementally.
One build runs at a time per cache; others wait.  Progress: one updating line
on a terminal, plain lines otherwise.  Logs: $ATALAB_CACHE/logs.

example:
  tools/atalab build && ls \$ATALAB_CACHE/qemu/build/qemu-system-x86_64
USAGE
}

cmd_build() {
	local t0=$SECONDS
	build_all
	msg "build complete in $(format_duration $((SECONDS - t0)))"
	msg "  qemu:      $(qemu_binary)"
	msg "  kernel:    $(kernel_bzimage) ($(kernel_release))"
	msg "  initramfs: $(initramfs_path)"
}
