# shellcheck shell=bash
# Guest-side artefacts (the driver modules, ata-pattern, the initramfs) and
# the host's model table tool.

driver_build_dir() { echo "$ATALAB_CACHE/driver/build"; }
initramfs_path() { echo "$ATALAB_CACHE/initramfs/initramfs.cpio.gz"; }
ata_pattern_binary() { echo "$ATALAB_CACHE/guest-tools/ata-pattern"; }
atalab_models_binary() { echo "$ATALAB_CACHE/host-tools/atalab-models"; }

# Static, so it runs in the guest's busybox userland and on the host alike.
guest_tools_key() {
	hash_text "$(hash_inputs "$ATALAB_ROOT/tools/ata-pattern")" "$(host_toolchain)" \
		"$(hash_recipe build_guest_tools)"
}

build_guest_tools_fresh() {
	local out
	out=$(ata_pattern_binary)
	[ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$(guest_tools_key)" ]
}

build_guest_tools() {
	local out
	out=$(ata_pattern_binary)
	build_guest_tools_fresh && return 0
	mkdir -p "$(dirname "$out")"
	run_logged "$ATALAB_CACHE/logs/guest-tools.log" "building ata-pattern" \
		gcc -O2 -Wall -Wextra -Werror -static -o "$out.tmp" \
		"$ATALAB_ROOT/tools/ata-pattern/ata-pattern.c"
	mv "$out.tmp" "$out"
	guest_tools_key >"$out.stamp"
}

# atalab-models prints the core's personality table (run --list-models,
# --model checks): built from the core's own sources.
host_tools_key() {
	hash_text "$(hash_inputs "$ATALAB_ROOT/tools/atalab-models" "$ATALAB_ROOT/qemu-device/core")" \
		"$(host_toolchain)" "$(hash_recipe build_host_tools)"
}

build_host_tools_fresh() {
	local out
	out=$(atalab_models_binary)
	[ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$(host_tools_key)" ]
}

build_host_tools() {
	local out core=$ATALAB_ROOT/qemu-device/core
	out=$(atalab_models_binary)
	build_host_tools_fresh && return 0
	mkdir -p "$(dirname "$out")"
	# The core's own -Werror build is meson's (tests/unit); here it is only
	# linked, with the project's warning set.
	# shellcheck disable=SC2046 # pkg-config's flags are words
	run_logged "$ATALAB_CACHE/logs/host-tools.log" "building atalab-models" \
		gcc -std=gnu11 -O1 -Wall -Wextra -Wno-unused-parameter \
		-Wno-missing-field-initializers -I"$core" \
		$(pkg-config --cflags glib-2.0) -o "$out.tmp" \
		"$ATALAB_ROOT/tools/atalab-models/atalab-models.c" "$core"/*.c \
		$(pkg-config --libs glib-2.0)
	mv "$out.tmp" "$out"
	host_tools_key >"$out.stamp"
}

# driver/ is built out of the checkout: Kbuild writes next to its sources,
# so build a synchronized copy.
driver_key() {
	hash_text "$(kernel_key)" "$(hash_inputs "$ATALAB_ROOT/driver")" \
		"$(hash_recipe build_driver)"
}

build_driver_fresh() {
	[ "$(cat "$(driver_build_dir)/.atalab-stamp" 2>/dev/null)" = "$(driver_key)" ]
}

build_driver() {
	local build
	build=$(driver_build_dir)
	build_driver_fresh && return 0
	mkdir -p "$build"
	rsync -rc --delete --exclude '.atalab-stamp' --exclude '*.o' --exclude '*.ko' \
		--exclude '*.mod*' --exclude '.*.cmd' --exclude Module.symvers \
		--exclude modules.order "${ATALAB_HASH_IGNORE_RSYNC[@]}" \
		"$ATALAB_ROOT/driver/" "$build/"
	run_logged "$ATALAB_CACHE/logs/driver.log" "building driver/" \
		make -C "$(kernel_build_dir)" M="$build" -j"$(atalab_jobs)" modules
	driver_key >"$build/.atalab-stamp"
}
# rsync's spelling of ATALAB_HASH_IGNORE.
ATALAB_HASH_IGNORE_RSYNC=(--exclude '*~' --exclude '.*.sw?' --exclude '*.swp'
	--exclude '#*#' --exclude '.#*' --exclude 4913)

# Host files that go into the initramfs (besides the kernel's and ours).
initramfs_host_files() {
	printf '%s\n' /bin/busybox
}

initramfs_key() {
	local -a host
	mapfile -t host < <(initramfs_host_files)
	hash_text "$(hash_inputs "$ATALAB_ROOT/tools/guest" "$ATALAB_ROOT/tests/guest/guest" \
		"${host[@]}")" "$(kernel_key)" "$(driver_key)" "$(guest_tools_key)" \
		"$(hash_recipe build_initramfs)"
}

build_initramfs_fresh() {
	local out
	out=$(initramfs_path)
	[ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$(initramfs_key)" ]
}

build_initramfs() {
	local out stage rel applet
	out=$(initramfs_path)
	build_initramfs_fresh && return 0
	msg "$(progress_label "building the initramfs")"
	stage=$ATALAB_CACHE/initramfs/stage
	rel=$(kernel_release)
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,root,etc,atalab/tests}
	cp /bin/busybox "$stage/bin/busybox"
	for applet in $(/bin/busybox --list-full); do
		[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
	done
	rsync -r "${ATALAB_HASH_IGNORE_RSYNC[@]}" "$ATALAB_ROOT/tools/guest/" "$stage/atalab/"
	cp "$(ata_pattern_binary)" "$stage/atalab/"
	mv "$stage/atalab/init" "$stage/init"
	if [ -d "$ATALAB_ROOT/tests/guest/guest" ]; then
		rsync -r "${ATALAB_HASH_IGNORE_RSYNC[@]}" "$ATALAB_ROOT/tests/guest/guest/" \
			"$stage/atalab/tests/"
	fi
	chmod 755 "$stage/init" "$stage"/atalab/* "$stage"/atalab/tests/* 2>/dev/null || true
	mkdir -p "$stage/lib/modules"
	cp -a "$(kernel_modules_dir)/lib/modules/$rel" "$stage/lib/modules/"
	rm -f "$stage/lib/modules/$rel/build" "$stage/lib/modules/$rel/source"
	mkdir -p "$stage/lib/modules/$rel/extra"
	find "$(driver_build_dir)" -name '*.ko' -exec cp {} "$stage/lib/modules/$rel/extra/" \;
	depmod -b "$stage" "$rel"
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet | gzip -1 >"$out.tmp")
	mv "$out.tmp" "$out"
	initramfs_key >"$out.stamp"
}
