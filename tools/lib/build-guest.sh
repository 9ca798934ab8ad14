# shellcheck shell=bash
# Guest-side artefacts (the driver modules, ata-pattern, guest-fuzz, the
# initramfs) and
# the host's model table tool.

driver_build_dir() { echo "$ATALAB_CACHE/driver/build"; }
initramfs_path() { echo "$ATALAB_CACHE/initramfs/initramfs.cpio.gz"; }
ata_pattern_binary() { echo "$ATALAB_CACHE/guest-tools/ata-pattern"; }
guest_fuzz_binary() { echo "$ATALAB_CACHE/guest-tools/guest-fuzz"; }
atalab_models_binary() { echo "$ATALAB_CACHE/host-tools/atalab-models"; }

# Static, so they run in the guest's busybox userland and on the host alike.
guest_tools_key() {
	key_memo guest_tools_key && return 0
	hash_text "$(hash_inputs "$ATALAB_ROOT/tools/ata-pattern" "$ATALAB_ROOT/tools/guest-fuzz")" \
		"$(host_toolchain)" "$(hash_recipe build_guest_tools)"
}

build_guest_tools_fresh() {
	local out
	for out in "$(ata_pattern_binary)" "$(guest_fuzz_binary)"; do
		[ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$(guest_tools_key)" ] || return 1
	done
}

build_guest_tools() {
	local out name
	build_guest_tools_fresh && return 0
	for out in "$(ata_pattern_binary)" "$(guest_fuzz_binary)"; do
		name=${out##*/}
		mkdir -p "$(dirname "$out")"
		run_logged "$ATALAB_CACHE/logs/guest-tools.log" "building $name" \
			gcc -O2 -Wall -Wextra -Werror -static -o "$out.tmp" \
			"$ATALAB_ROOT/tools/$name/$name.c"
		mv "$out.tmp" "$out"
		guest_tools_key >"$out.stamp"
	done
}

# Host tools in C, built with glib against the core's own sources:
# atalab-models prints the personality table (run --list-models, --model
# checks), fault-check checks a fault rule file with the core's parser,
# atalab-scenario runs scenario files, and atalab-trace reads, compares
# and replays traces (replay runs the whole core).
host_tools_dir() { echo "$ATALAB_CACHE/host-tools"; }
fault_check_binary() { echo "$(host_tools_dir)/fault-check"; }
scenario_binary() { echo "$(host_tools_dir)/atalab-scenario"; }
trace_tool_binary() { echo "$(host_tools_dir)/atalab-trace"; }
explore_binary() { echo "$(host_tools_dir)/atalab-explore"; }

host_tools_key() {
	hash_text "$(hash_inputs "$ATALAB_ROOT/tools/atalab-models" "$ATALAB_ROOT/tools/fault-check" \
		"$ATALAB_ROOT/tools/scenario" "$ATALAB_ROOT/tools/trace" "$ATALAB_ROOT/tools/explore" \
		"$ATALAB_ROOT/qemu-device/core")" \
		"$(host_toolchain)" "$(hash_recipe build_host_tools build_host_tool)"
}

build_host_tools_fresh() {
	local key out
	key=$(host_tools_key)
	for out in "$(atalab_models_binary)" "$(fault_check_binary)" "$(scenario_binary)" "$(trace_tool_binary)" \
		"$(explore_binary)"; do
		[ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$key" ] || return 1
	done
}

# build_host_tool OUT WHAT SOURCE...: one tool, with the project's warnings
# as errors (the core's own build is meson's, tests/unit).
build_host_tool() {
	local out=$1 what=$2 core=$ATALAB_ROOT/qemu-device/core
	shift 2
	local -a glib
	read -r -a glib <<<"$(pkg-config --cflags --libs glib-2.0)"
	run_logged "$ATALAB_CACHE/logs/host-tools.log" "building $what" \
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
		-Wno-missing-field-initializers -I"$core" -o "$out.tmp" "$@" "${glib[@]}"
	mv "$out.tmp" "$out"
}

build_host_tools() {
	local core=$ATALAB_ROOT/qemu-device/core key out
	build_host_tools_fresh && return 0
	mkdir -p "$(host_tools_dir)"
	build_host_tool "$(atalab_models_binary)" atalab-models \
		"$ATALAB_ROOT/tools/atalab-models/atalab-models.c" "$core"/*.c "$core"/*/*.c
	build_host_tool "$(fault_check_binary)" fault-check \
		"$ATALAB_ROOT/tools/fault-check/fault-check.c" "$core/faults/fault.c" "$core/faults/fault-parse.c"
	build_host_tool "$(scenario_binary)" atalab-scenario -I"$ATALAB_ROOT/tools/trace" \
		"$ATALAB_ROOT/tools/scenario"/*.c "$core/faults/fault.c" "$core/faults/fault-parse.c" \
		"$ATALAB_ROOT/tools/trace/trace-read.c" "$core/trace/trace-records.c"
	build_host_tool "$(trace_tool_binary)" atalab-trace -I"$ATALAB_ROOT/tools/trace" \
		"$ATALAB_ROOT/tools/trace"/*.c "$core"/*.c "$core"/*/*.c
	build_host_tool "$(explore_binary)" atalab-explore "$ATALAB_ROOT/tools/explore"/*.c
	key=$(host_tools_key)
	for out in "$(atalab_models_binary)" "$(fault_check_binary)" "$(scenario_binary)" "$(trace_tool_binary)" \
		"$(explore_binary)"; do
		echo "$key" >"$out.stamp"
	done
}

# The driver's source files: what the module is built from (driver/patches
# and the commit messages are not).
driver_sources() {
	find "$ATALAB_ROOT/driver" -maxdepth 1 -type f \( -name '*.[ch]' -o -name Kbuild \) \
		! \( "${ATALAB_HASH_IGNORE[@]}" \) | LC_ALL=C sort
}

# driver/ is built out of the checkout: Kbuild writes next to its sources,
# so build a copy.  The Kconfig symbols are set on the command line, as
# an in-tree =m build would set them.
driver_key() {
	key_memo driver_key && return 0
	local -a src
	mapfile -t src < <(driver_sources)
	hash_text "$(kernel_key)" "$(hash_inputs "${src[@]}")" "$(hash_recipe build_driver)" \
		"$(hash_inputs "$ATALAB_ROOT/tests/explore/planted.patch")"
}

build_driver_fresh() {
	[ "$(cat "$(driver_build_dir)/.atalab-stamp" 2>/dev/null)" = "$(driver_key)" ]
}

build_driver() {
	local build
	local -a src
	build=$(driver_build_dir)
	build_driver_fresh && return 0
	mapfile -t src < <(driver_sources)
	rm -rf "$build"
	mkdir -p "$build"
	cp "${src[@]}" "$build/"
	# TEST ONLY: atalab_piix_planted, the driver with the bugs of
	# tests/explore/planted.patch (docs/explore.md), for explore to find.
	cp "$build/atalab_piix.c" "$build/atalab_piix_planted.c"
	patch -s --no-backup-if-mismatch "$build/atalab_piix_planted.c" \
		<"$ATALAB_ROOT/tests/explore/planted.patch" >"$build/planted.log" 2>&1 ||
		die "tests/explore/planted.patch no longer applies to driver/atalab_piix.c: $(head -c 300 "$build/planted.log")"
	echo 'obj-$(CONFIG_ATA_ATALAB_PIIX) += atalab_piix_planted.o' >>"$build/Kbuild"
	local -a gcov
	mapfile -t gcov < <(kernel_gcov_args)
	run_logged "$ATALAB_CACHE/logs/driver.log" "building driver/" \
		make -C "$(kernel_build_dir)" M="$build" -j"$(atalab_jobs)" "${gcov[@]}" \
		CONFIG_ATA_ATALAB_PIIX=m CONFIG_ATA_ATALAB_PIIX_KUNIT_TEST=m modules
	driver_key >"$build/.atalab-stamp"
}
# rsync's spelling of ATALAB_HASH_IGNORE.
ATALAB_HASH_IGNORE_RSYNC=(--exclude '*~' --exclude '.*.sw?' --exclude '*.swp'
	--exclude '#*#' --exclude '.#*' --exclude 4913)

# Debian programs the guest tests run as real clients, with the shared
# libraries they need (hdparm, smartmontools, sg3-utils).
ATALAB_GUEST_PROGRAMS=(/usr/sbin/hdparm /usr/sbin/smartctl /usr/bin/sg_raw
	/usr/bin/sg_inq /usr/bin/sg_readcap /usr/sbin/blkid /usr/bin/eject)

# A program and every library it loads (ldd), one path per line.
guest_program_files() {
	local p
	for p in "${ATALAB_GUEST_PROGRAMS[@]}"; do
		[ -x "$p" ] || die "$p missing (tools/atalab setup installs it)"
		echo "$p"
		ldd "$p" | awk '/=> \// {print $3} /^\t\/lib/ {print $1}'
	done | LC_ALL=C sort -u
}

# Host files that go into the initramfs (besides the kernel's and ours).
initramfs_host_files() {
	printf '%s\n' /bin/busybox
	guest_program_files
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
	# Real programs first: busybox applets only fill the names left.
	local f
	while IFS= read -r f; do
		mkdir -p "$stage$(dirname "$f")"
		cp -L "$f" "$stage$f"
	done < <(guest_program_files)
	for applet in $(/bin/busybox --list-full); do
		[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
	done
	rsync -r "${ATALAB_HASH_IGNORE_RSYNC[@]}" "$ATALAB_ROOT/tools/guest/" "$stage/atalab/"
	cp "$(ata_pattern_binary)" "$(guest_fuzz_binary)" "$stage/atalab/"
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
