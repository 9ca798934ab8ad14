# shellcheck shell=bash
# tools/atalab build: everything a guest run needs, cached under $ATALAB_CACHE.

# shellcheck source=tools/lib/build-qemu.sh
. "$ATALAB_ROOT/tools/lib/build-qemu.sh"
# shellcheck source=tools/lib/build-kernel.sh
. "$ATALAB_ROOT/tools/lib/build-kernel.sh"
# shellcheck source=tools/lib/build-guest.sh
. "$ATALAB_ROOT/tools/lib/build-guest.sh"

build_all() {
	setup_all
	build_qemu
	build_kernel
	build_driver
	build_guest_tools
	build_host_tools
	build_initramfs
}

cmd_build() {
	case "${1:-}" in
	-h | --help)
		cat <<USAGE
usage: atalab build
Builds qemu-system-x86_64 with atalab-ide, the guest kernel, driver/ and the
initramfs.  Outputs are cached in \$ATALAB_CACHE (now $ATALAB_CACHE), keyed by
a hash of their inputs: only what changed is rebuilt.  Logs: $ATALAB_CACHE/logs.
USAGE
		return 0
		;;
	"") ;;
	*) die "build takes no arguments (got '$1')" ;;
	esac
	local t0=$SECONDS
	build_all
	msg "build complete in $((SECONDS - t0)) s"
	msg "  qemu:      $(qemu_binary)"
	msg "  kernel:    $(kernel_bzimage) ($(kernel_release))"
	msg "  initramfs: $(initramfs_path)"
}
