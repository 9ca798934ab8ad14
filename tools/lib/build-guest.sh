# shellcheck shell=bash
# Guest-side artefacts: the driver modules and the initramfs.

driver_build_dir() { echo "$ATALAB_CACHE/driver/build"; }
initramfs_path() { echo "$ATALAB_CACHE/initramfs/initramfs.cpio.gz"; }
ata_pattern_binary() { echo "$ATALAB_CACHE/guest-tools/ata-pattern"; }

# Static, so it runs in the guest's busybox userland and on the host alike.
build_guest_tools() {
	local src=$ATALAB_ROOT/tools/ata-pattern/ata-pattern.c out
	out=$(ata_pattern_binary)
	if [ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$(hash_inputs "$src")" ]; then
		return 0
	fi
	mkdir -p "$(dirname "$out")"
	run_logged "$ATALAB_CACHE/logs/guest-tools.log" \
		gcc -O2 -Wall -Wextra -Werror -static -o "$out" "$src"
	hash_inputs "$src" >"$out.stamp"
}

# Host tools in C: the fault rule checker (the core's own rule parser) and
# the scenario runner.
fault_check_binary() { echo "$ATALAB_CACHE/host-tools/fault-check"; }
scenario_binary() { echo "$ATALAB_CACHE/host-tools/atalab-scenario"; }

# build_host_tool OUT SOURCE... : gcc with glib, keyed by the sources.
build_host_tool() {
	local out=$1 key core=$ATALAB_ROOT/qemu-device/core
	shift
	key=$(hash_inputs "$@" "$core/atalab-fault.h" "$core/fault-internal.h")
	if [ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	mkdir -p "$(dirname "$out")"
	local -a glib
	read -r -a glib <<<"$(pkg-config --cflags --libs glib-2.0)"
	run_logged "$ATALAB_CACHE/logs/host-tools.log" gcc -O2 -Wall -Wextra -Werror \
		-Wno-unused-parameter -Wno-missing-field-initializers -I"$core" \
		"$@" "${glib[@]}" -o "$out"
	echo "$key" >"$out.stamp"
}

build_host_tools() {
	local core=$ATALAB_ROOT/qemu-device/core
	build_host_tool "$(fault_check_binary)" "$ATALAB_ROOT/tools/fault-check/fault-check.c" \
		"$core/fault.c" "$core/fault-parse.c"
	build_host_tool "$(scenario_binary)" "$ATALAB_ROOT/tools/scenario/atalab-scenario.c"
}

# The driver's source files: what the module is built from (driver/patches
# and the commit messages are not).
driver_sources() {
	find "$ATALAB_ROOT/driver" -maxdepth 1 -type f \( -name '*.[ch]' -o -name Kbuild \) |
		LC_ALL=C sort
}

# driver/ is built out of the checkout: Kbuild writes next to its sources,
# so build a copy.  The Kconfig symbols are set on the command line, as
# an in-tree =m build would set them.
build_driver() {
	local build key stamp
	build=$(driver_build_dir)
	stamp=$build/.atalab-stamp
	# shellcheck disable=SC2046
	key=$(printf '%s\n' "$(cat "$(kernel_build_dir)/.atalab-stamp")" \
		"$(hash_inputs $(driver_sources))" | sha256sum | cut -c1-16)
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
		return 0
	fi
	msg "building driver/"
	rm -rf "$build"
	mkdir -p "$build"
	# shellcheck disable=SC2046
	cp $(driver_sources) "$build/"
	run_logged "$ATALAB_CACHE/logs/driver.log" \
		make -C "$(kernel_build_dir)" M="$build" -j"$(atalab_jobs)" \
		CONFIG_ATA_ATALAB_PIIX=m CONFIG_ATA_ATALAB_PIIX_KUNIT_TEST=m modules
	echo "$key" >"$stamp"
}

# Debian programs the guest tests run as real clients, with the shared
# libraries they need (hdparm, smartmontools, sg3-utils).
ATALAB_GUEST_PROGRAMS=(/usr/sbin/hdparm /usr/sbin/smartctl /usr/bin/sg_raw)

# A program and every library it loads (ldd), one path per line.
guest_program_files() {
	local p
	for p in "${ATALAB_GUEST_PROGRAMS[@]}"; do
		[ -x "$p" ] || die "$p missing (tools/atalab setup installs it)"
		echo "$p"
		ldd "$p" | awk '/=> \// {print $3} /^\t\/lib/ {print $1}'
	done | LC_ALL=C sort -u
}

# Everything that goes into the initramfs, for the cache key.
initramfs_inputs() {
	echo "$ATALAB_ROOT/tools/guest" "$ATALAB_ROOT/tests/guest/guest" \
		"$(kernel_build_dir)/.atalab-stamp" "$(driver_build_dir)/.atalab-stamp" \
		/bin/busybox "$(ata_pattern_binary)"
	guest_program_files
}

build_initramfs() {
	local out key stamp stage rel
	out=$(initramfs_path)
	stamp=$out.stamp
	# shellcheck disable=SC2046
	key=$(hash_inputs $(initramfs_inputs))
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && [ -f "$out" ]; then
		return 0
	fi
	msg "building the initramfs"
	stage=$ATALAB_CACHE/initramfs/stage
	rel=$(kernel_release)
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,root,etc,atalab/tests}
	cp /bin/busybox "$stage/bin/busybox"
	# Real programs first: busybox applets only fill the names left.
	local f
	while IFS= read -r f; do
		mkdir -p "$stage$(dirname "$f")"
		cp -L "$f" "$stage$f"
	done < <(guest_program_files)
	local applet
	for applet in $(/bin/busybox --list-full); do
		[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
	done
	cp "$ATALAB_ROOT"/tools/guest/* "$(ata_pattern_binary)" "$stage/atalab/"
	mv "$stage/atalab/init" "$stage/init"
	if [ -d "$ATALAB_ROOT/tests/guest/guest" ]; then
		cp "$ATALAB_ROOT"/tests/guest/guest/* "$stage/atalab/tests/"
	fi
	chmod 755 "$stage/init" "$stage"/atalab/* 2>/dev/null || true
	mkdir -p "$stage/lib/modules"
	cp -a "$(kernel_modules_dir)/lib/modules/$rel" "$stage/lib/modules/"
	rm -f "$stage/lib/modules/$rel/build" "$stage/lib/modules/$rel/source"
	mkdir -p "$stage/lib/modules/$rel/extra"
	find "$(driver_build_dir)" -name '*.ko' -exec cp {} "$stage/lib/modules/$rel/extra/" \;
	depmod -b "$stage" "$rel"
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet | gzip -1 >"$out.tmp")
	mv "$out.tmp" "$out"
	echo "$key" >"$stamp"
}
