# shellcheck shell=bash
# tools/atalab build: everything a guest run needs, cached under $ATALAB_CACHE.

# shellcheck source=tools/lib/build-qemu.sh
. "$ATALAB_ROOT/tools/lib/build-qemu.sh"
# shellcheck source=tools/lib/build-kernel.sh
. "$ATALAB_ROOT/tools/lib/build-kernel.sh"
# shellcheck source=tools/lib/build-guest.sh
. "$ATALAB_ROOT/tools/lib/build-guest.sh"
# shellcheck source=tools/lib/kernel-patch.sh
. "$ATALAB_ROOT/tools/lib/kernel-patch.sh"

# The build steps in order; each has build_STEP and build_STEP_fresh (true
# when its cached output matches its inputs' key).
ATALAB_BUILD_STEPS=(qemu kernel driver host_tools guest_tools initramfs)

# The steps whose output does not match their inputs, into "stale".
build_stale_steps() {
	local step key
	stale=()
	for key in kernel_key driver_key guest_tools_key; do
		ATALAB_KEY_MEMO[$key]=$("$key")
	done
	for step in "${ATALAB_BUILD_STEPS[@]}"; do
		"build_${step}_fresh" || stale+=("$step")
	done
	ATALAB_KEY_MEMO=()
}

# What build_all verified: this tree and cache, the kernel variant and the
# steps.
build_verified_token() {
	printf '%s|%s|%s|%s|%s' "$ATALAB_ROOT" "$ATALAB_CACHE" "${ATALAB_KERNEL_GCOV:-0}" \
		"${ATALAB_BUILD_STEPS[*]}" "$(kernel_patches_key)"
}

# Build what this process boots: with --kernel-patch, the flavour's kit
# and then the variant (kernel-patch.sh), in the variant's cache.
build_all() {
	kernel_patches_enter
	build_cache
}

# Build what is stale in $ATALAB_CACHE, numbering the steps that run.  One build at a time
# per cache: parallel runs and tests wait for it (and then find it done);
# when nothing is stale, nobody waits.  Once everything is fresh, the
# atalab processes this one starts (a test run's guests, a matrix's boots)
# take the build as verified (ATALAB_BUILD_VERIFIED): the keys cost seconds
# of hashing a run, and one command tests one build.
build_cache() {
	local -a stale
	local step token
	token=$(build_verified_token)
	[ "${ATALAB_BUILD_VERIFIED:-}" != "$token" ] || return 0
	if setup_is_done; then
		build_stale_steps
		[ ${#stale[@]} -gt 0 ] || { export ATALAB_BUILD_VERIFIED=$token; return 0; }
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
	export ATALAB_BUILD_VERIFIED=$token
}

build_options() {
	kernel_patch_options
	opt --coverage - "also build the gcov kernel that explore and scenario --coverage boot (with --kernel-patch, its variant)"
}

build_usage() {
	cat <<USAGE
usage: atalab build [--coverage] [--kernel-patch FILE]...

Builds qemu-system-x86_64 with atalab-ide, the guest kernel, driver/, the
host and guest tools and the initramfs.  Outputs are cached in \$ATALAB_CACHE
(now $ATALAB_CACHE), keyed by a hash of everything that shapes them (sources,
file names and modes, the build recipes, the package list and compiler):
only what changed is rebuilt, editing tree.patch re-applies it incrementally.
Every command that boots a guest builds first; within one command (a test
run, a matrix, a campaign) the build is checked once and its guests use it.
One build runs at a time per cache; others wait.  Progress: one updating line
on a terminal, plain lines otherwise.  Logs: $ATALAB_CACHE/logs.
--coverage also builds the gcov kernel (\$ATALAB_CACHE/coverage); with
--kernel-patch, the patched kernel of each flavour (README, "Testing a
libata patch").

options:
$(options_help build_options)

example:
  tools/atalab build && ls \$ATALAB_CACHE/qemu/build/qemu-system-x86_64
USAGE
}

cmd_build() {
	local t0=$SECONDS
	unset ATALAB_BUILD_VERIFIED     # asked for: always checked
	build_all
	! opt_given --coverage || coverage_enter
	msg "build complete in $(format_duration $((SECONDS - t0)))"
	msg "  qemu:      $(qemu_binary)"
	msg "  kernel:    $(kernel_bzimage) ($(kernel_release))"
	msg "  initramfs: $(initramfs_path)"
}
