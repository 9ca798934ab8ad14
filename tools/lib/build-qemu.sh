# shellcheck shell=bash
# qemu-system-x86_64 with atalab-ide grafted in.
#
# Pristine Debian source: $ATALAB_CACHE/src/qemu (setup)
# Grafted tree:           $ATALAB_CACHE/qemu/tree  (copy + tree.patch + hw/atalab)
# Build directory:        $ATALAB_CACHE/qemu/build (incremental ninja)

qemu_tree_dir() { echo "$ATALAB_CACHE/qemu/tree"; }
qemu_build_dir() { echo "$ATALAB_CACHE/qemu/build"; }
qemu_binary() { echo "$(qemu_build_dir)/qemu-system-x86_64"; }
qemu_img_binary() { echo "$(qemu_build_dir)/qemu-img"; }
qemu_tree_patch() { echo "$ATALAB_ROOT/qemu-device/qemu/tree.patch"; }
# What `-device atalab-ide,help` says: the described device options.
qemu_device_help() { echo "$(qemu_build_dir)/atalab-ide.help"; }

ATALAB_QEMU_CONFIGURE=(
	--target-list=x86_64-softmmu
	--without-default-devices
	--with-devices-x86_64=atalab
	--disable-docs --disable-werror --disable-user
	--disable-gtk --disable-sdl --disable-vnc --disable-opengl
	--disable-spice --disable-slirp --disable-curses --disable-libusb
	--disable-usb-redir --disable-virglrenderer --disable-xen
	--disable-capstone --disable-vde --disable-libssh --disable-curl
)

# The files a patch creates or changes ("+++ b/PATH" lines).
patch_files() {
	sed -n 's|^+++ b/\([^\t]*\).*|\1|p' "$1"
}

# The tree is a copy of the pristine source; its key covers the source
# version and this recipe, not tree.patch (applied incrementally below).
qemu_tree_key() {
	hash_text "$(hash_inputs "$(qemu_source_dir)/VERSION")" \
		"$(hash_recipe qemu_prepare_tree qemu_apply_patch patch_files)"
}

# Apply tree.patch to the tree without touching files whose content stays
# the same: the files of the old and the new patch are patched from the
# pristine source in a scratch directory and copied back only when they
# differ, so ninja rebuilds only what the edit affects.
qemu_apply_patch() {
	local tree=$1 patch src scratch f
	patch=$(qemu_tree_patch)
	src=$(qemu_source_dir)
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/atalab-patch.XXXXXX")
	{
		patch_files "$patch"
		if [ -f "$tree/.atalab-tree.patch" ]; then
			patch_files "$tree/.atalab-tree.patch"
		fi
	} | LC_ALL=C sort -u >"$scratch.files"
	while IFS= read -r f; do
		if [ -e "$src/$f" ]; then
			mkdir -p "$scratch/$(dirname "$f")"
			cp -p "$src/$f" "$scratch/$f"
		fi
	done <"$scratch.files"
	if ! (cd "$scratch" && patch -p1 --quiet --no-backup-if-mismatch) <"$patch"; then
		rm -rf "$scratch" "$scratch.files"
		die "qemu-device/qemu/tree.patch does not apply to QEMU $(cat "$src/VERSION")"
	fi
	while IFS= read -r f; do
		if [ -e "$scratch/$f" ]; then
			mkdir -p "$tree/$(dirname "$f")"
			cmp -s "$scratch/$f" "$tree/$f" || cp "$scratch/$f" "$tree/$f"
		else
			# Created by the old patch only.
			rm -f "$tree/$f"
		fi
	done <"$scratch.files"
	rm -rf "$scratch" "$scratch.files"
	cp "$patch" "$tree/.atalab-tree.patch"
}

# A copy of the pristine tree (once per source version) with tree.patch.
qemu_prepare_tree() {
	local tree key
	tree=$(qemu_tree_dir)
	key=$(qemu_tree_key)
	if [ -f "$tree/.atalab-tree" ] && [ "$(cat "$tree/.atalab-tree")" = "$key" ]; then
		cmp -s "$(qemu_tree_patch)" "$tree/.atalab-tree.patch" ||
			qemu_apply_patch "$tree"
		return 0
	fi
	msg "preparing the QEMU tree"
	rm -rf "$tree" "$tree.tmp" "$(qemu_build_dir)"
	mkdir -p "$(dirname "$tree")"
	cp -a "$(qemu_source_dir)" "$tree.tmp"
	qemu_apply_patch "$tree.tmp"
	echo "$key" >"$tree.tmp/.atalab-tree"
	mv "$tree.tmp" "$tree"
}

# Copy our sources into hw/atalab, touching only files whose content changed
# so ninja rebuilds incrementally.
qemu_graft() {
	local tree dev=$ATALAB_ROOT/qemu-device
	tree=$(qemu_tree_dir)
	mkdir -p "$tree/hw/atalab/core"
	rsync -rc --delete --exclude tree.patch --exclude devices.mak \
		"$dev/qemu/" "$tree/hw/atalab/" --exclude core
	rsync -rc --delete --include '*/' --include '*.c' --include '*.h' --include meson.build \
		--exclude '*' "$dev/core/" "$tree/hw/atalab/core/"
	rsync -c "$dev/qemu/devices.mak" "$tree/configs/devices/x86_64-softmmu/atalab.mak"
}

# Installed packages decide what configure finds (gcc-multilib: option ROMs).
qemu_configure_key() {
	hash_text "${ATALAB_QEMU_CONFIGURE[*]}" "$(host_toolchain)" "$(qemu_tree_key)" \
		"$(hash_recipe qemu_configure)"
}

qemu_configure() {
	local build=$1
	rm -rf "$build"
	mkdir -p "$build"
	(cd "$build" && run_logged "$ATALAB_CACHE/logs/qemu.log.configure" "configuring QEMU" \
		"$(qemu_tree_dir)/configure" "${ATALAB_QEMU_CONFIGURE[@]}")
}

qemu_key() {
	hash_text "$(qemu_configure_key)" "$(hash_inputs "$ATALAB_ROOT/qemu-device")" \
		"$(hash_recipe build_qemu qemu_graft)"
}

build_qemu_fresh() {
	local stamp
	stamp=$(qemu_build_dir)/.atalab-stamp
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(qemu_key)" ] && [ -x "$(qemu_binary)" ]
}

build_qemu() {
	local build log=$ATALAB_CACHE/logs/qemu.log cfgkey
	build=$(qemu_build_dir)
	build_qemu_fresh && return 0
	qemu_prepare_tree
	qemu_graft
	cfgkey=$(qemu_configure_key)
	if [ "$(cat "$build/.atalab-configured" 2>/dev/null)" != "$cfgkey" ]; then
		qemu_configure "$build"
		echo "$cfgkey" >"$build/.atalab-configured"
	fi
	run_logged "$log" "building QEMU" \
		ninja -C "$build" -j"$(atalab_jobs)" qemu-system-x86_64 qemu-img
	# Option ROMs for -kernel (linuxboot_dma.bin): not in Debian's source.
	run_logged "$log.optionrom" "building QEMU's option ROMs" make -C "$build/pc-bios/optionrom"
	"$(qemu_binary)" -device atalab-ide,help >"$(qemu_device_help)" ||
		die "the new QEMU does not describe atalab-ide"
	qemu_key >"$build/.atalab-stamp"
}
