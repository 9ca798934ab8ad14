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

# Copy the pristine tree once per (source, tree.patch) and patch it.
qemu_prepare_tree() {
	local tree key
	tree=$(qemu_tree_dir)
	key=$(hash_inputs "$(qemu_source_dir)/VERSION" "$ATALAB_ROOT/qemu-device/qemu/tree.patch")
	if [ -f "$tree/.atalab-tree" ] && [ "$(cat "$tree/.atalab-tree")" = "$key" ]; then
		return 0
	fi
	msg "preparing the QEMU tree"
	rm -rf "$tree" "$(qemu_build_dir)"
	mkdir -p "$(dirname "$tree")"
	cp -a "$(qemu_source_dir)" "$tree.tmp"
	(cd "$tree.tmp" && patch -p1 --quiet --no-backup-if-mismatch) \
		<"$ATALAB_ROOT/qemu-device/qemu/tree.patch" ||
		die "qemu-device/qemu/tree.patch does not apply to $(cat "$(qemu_source_dir)/VERSION")"
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
	rsync -rc --delete --include '*.c' --include '*.h' --include meson.build \
		--exclude '*' "$dev/core/" "$tree/hw/atalab/core/"
	rsync -c "$dev/qemu/devices.mak" "$tree/configs/devices/x86_64-softmmu/atalab.mak"
}

build_qemu() {
	local key stamp build log=$ATALAB_CACHE/logs/qemu.log
	build=$(qemu_build_dir)
	stamp=$build/.atalab-stamp
	key=$(printf '%s\n' "${ATALAB_QEMU_CONFIGURE[*]}" "$(hash_inputs \
		"$(qemu_source_dir)/VERSION" "$ATALAB_ROOT/qemu-device")" | sha256sum | cut -c1-16)
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && [ -x "$(qemu_binary)" ]; then
		return 0
	fi
	qemu_prepare_tree
	qemu_graft
	local cfgkey
	# Installed packages decide what configure finds (gcc-multilib: option ROMs).
	cfgkey=$(printf '%s\n' "${ATALAB_QEMU_CONFIGURE[*]}" "${ATALAB_PACKAGES[*]}" | sha256sum | cut -c1-16)
	if [ ! -f "$build/.atalab-configured" ] || [ "$(cat "$build/.atalab-configured")" != "$cfgkey" ]; then
		msg "configuring QEMU"
		rm -rf "$build"
		mkdir -p "$build"
		(cd "$build" && run_logged "$log.configure" "$(qemu_tree_dir)/configure" \
			"${ATALAB_QEMU_CONFIGURE[@]}")
		echo "$cfgkey" >"$build/.atalab-configured"
	fi
	msg "building QEMU"
	run_logged "$log" ninja -C "$build" -j"$(atalab_jobs)" qemu-system-x86_64 qemu-img
	# Option ROMs for -kernel (linuxboot_dma.bin): not in Debian's source.
	run_logged "$log.optionrom" make -C "$build/pc-bios/optionrom"
	echo "$key" >"$stamp"
}
