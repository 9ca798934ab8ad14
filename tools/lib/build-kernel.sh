# shellcheck shell=bash
# Kernel for atalab guests: linux-source-6.1 + kernel/atalab.config.
#
# Source:  $ATALAB_CACHE/src/linux-<package version>   (unpacked once)
# Build:   $ATALAB_CACHE/kernel/build                   (O=, incremental)
# Variants (--kernel-patch, kernel-patch.sh): their own patched tree
#          $ATALAB_CACHE/kernel/src, the build started from the flavour's.
# Outputs: bzImage, vmlinux (with gdb scripts), modules staged under
#          $ATALAB_CACHE/kernel/modules.  The stamp holds the input hash.

kernel_pkg_version() {
	dpkg-query -W -f='${Version}' "linux-source-$ATALAB_KERNEL_SERIES" 2>/dev/null
}
kernel_src_dir() { echo "$ATALAB_CACHE/src/linux-$(kernel_pkg_version)"; }
kernel_build_dir() { echo "$ATALAB_CACHE/kernel/build"; }
kernel_bzimage() { echo "$(kernel_build_dir)/arch/x86/boot/bzImage"; }
kernel_modules_dir() { echo "$ATALAB_CACHE/kernel/modules"; }
kernel_release() { cat "$(kernel_build_dir)/include/config/kernel.release"; }
# vmlinux with a gdb index (loads in a fraction of the time), for debug.
kernel_vmlinux_gdb() { echo "$ATALAB_CACHE/kernel/gdb/vmlinux"; }

# Unpacked once, under a lock of its own beside it (every cache that
# shares the tree shares the lock): a build and a --kernel-patch check may
# both want it at once.
kernel_unpack() {
	local src fd
	src=$(kernel_src_dir)
	[ -f "$src/.atalab-unpacked" ] && return 0
	mkdir -p "$(dirname "$src")"
	exec {fd}>>"$src.lock"
	flock "$fd"
	if [ ! -f "$src/.atalab-unpacked" ]; then
		msg "unpacking linux-source-$ATALAB_KERNEL_SERIES $(kernel_pkg_version)"
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xJf "$(kernel_source_tarball)" -C "$src.tmp" --strip-components=1
		mv "$src.tmp" "$src"
		touch "$src/.atalab-unpacked"
	fi
	exec {fd}>&-
}

# Coverage kernels (ATALAB_KERNEL_GCOV=1, in a cache of their own:
# tools/lib/coverage.sh) add kernel/gcov.config and profile these objects
# only, the libata core, its EH and SFF code and the PIIX drivers.
ATALAB_GCOV_OBJECTS=(libata-core.o libata-eh.o libata-sff.o libata-scsi.o ata_piix.o
	ata_generic.o atalab_piix.o)
kernel_gcov_args() {
	local o
	[ "${ATALAB_KERNEL_GCOV:-0}" = 1 ] || return 0
	for o in "${ATALAB_GCOV_OBJECTS[@]}"; do printf 'GCOV_PROFILE_%s=y\n' "$o"; done
}

# The configuration fragments of this kernel.
kernel_fragments() {
	echo "$ATALAB_ROOT/kernel/atalab.config"
	[ "${ATALAB_KERNEL_GCOV:-0}" != 1 ] || echo "$ATALAB_ROOT/kernel/gcov.config"
}

# The tree make builds: the pristine one, or a variant's patched copy.
kernel_tree_dir() {
	if kernel_is_variant; then kernel_variant_tree; else kernel_src_dir; fi
}

kernel_make() {
	local -a gcov
	mapfile -t gcov < <(kernel_gcov_args)
	make -C "$(kernel_tree_dir)" O="$(kernel_build_dir)" -j"$(atalab_jobs)" "${gcov[@]}" "$@"
}

# The flavour's kernel (plain or gcov), and with --kernel-patch the
# variant's: the flavour's key, the patches and the variant recipe.
kernel_flavour_key() {
	local -a fragments
	mapfile -t fragments < <(kernel_fragments)
	hash_text "$(kernel_pkg_version)" "$(host_toolchain)" \
		"$(hash_inputs "${fragments[@]}")" "$(kernel_gcov_args)" \
		"$(hash_recipe build_kernel kernel_make kernel_check_fragment kernel_unpack \
			kernel_fragments kernel_gcov_args)"
}
kernel_key() {
	key_memo kernel_key && return 0
	if kernel_is_variant; then
		hash_text "$(kernel_flavour_key)" "$(kernel_patches_key)" \
			"$(hash_recipe kernel_variant_prepare kernel_variant_rewrite kernel_patches_apply \
				kernel_tree_dir kernel_patch_targets kernel_patches_files kernel_variant_done)"
	else
		kernel_flavour_key
	fi
}

build_kernel_fresh() {
	local stamp
	stamp=$(kernel_build_dir)/.atalab-stamp
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(kernel_key)" ] && [ -f "$(kernel_bzimage)" ] &&
		[ -f "$(kernel_vmlinux_gdb)" ]
}

build_kernel() {
	local fragment build
	local log=$ATALAB_CACHE/logs/kernel.log
	build_kernel_fresh && return 0
	build=$(kernel_build_dir)
	kernel_unpack
	if kernel_is_variant; then
		# The flavour's configuration and objects; make redoes what the
		# patches touched.
		kernel_variant_prepare
	else
		# Never a variant's folder (a cache linked to one: a test's).
		case "$(readlink -f "$build")" in */variants/*)
			die "internal: building the kit's kernel into a variant's folder ($(readlink -f "$build"))" ;;
		esac
		mkdir -p "$build"
		fragment=$build/atalab-fragments.config
		local -a fragments
		mapfile -t fragments < <(kernel_fragments)
		cat "${fragments[@]}" >"$fragment"
		# allnoconfig plus our fragment, then fill in defaults for the rest.
		run_logged "$log.config" "configuring the kernel" \
			kernel_make KCONFIG_ALLCONFIG="$fragment" allnoconfig
		kernel_check_fragment "$fragment" "$build/.config"
	fi
	run_logged "$log" "building the kernel" kernel_make bzImage modules scripts_gdb
	rm -rf "$(kernel_modules_dir)"
	run_logged "$log.install" "installing the kernel modules" \
		kernel_make INSTALL_MOD_PATH="$(kernel_modules_dir)" INSTALL_MOD_STRIP=1 modules_install
	mkdir -p "$(dirname "$(kernel_vmlinux_gdb)")"
	cp "$build/vmlinux" "$(kernel_vmlinux_gdb).tmp"
	run_logged "$log.gdb-index" "indexing vmlinux for gdb" gdb-add-index "$(kernel_vmlinux_gdb).tmp"
	mv "$(kernel_vmlinux_gdb).tmp" "$(kernel_vmlinux_gdb)"
	! kernel_is_variant || kernel_variant_done
	kernel_key >"$build/.atalab-stamp"
}

# Every option the fragment sets must have taken effect; a typo or an unmet
# dependency would otherwise pass silently.
kernel_check_fragment() {
	local fragment=$1 config=$2 line opt want have bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) ;;
		*) continue ;;
		esac
		opt=${line%%=*}
		want=${line#*=}
		have=$(grep -E "^$opt=|^# $opt is not set" "$config" | head -n1 || true)
		case "$want" in
		n) [ -z "$have" ] || [ "$have" = "# $opt is not set" ] || {
			msg "kernel config: $opt is ${have#*=}, fragment wants n"
			bad=1
		} ;;
		*) [ "$have" = "$opt=$want" ] || {
			msg "kernel config: $opt is '${have:-unset}', fragment wants $want"
			bad=1
		} ;;
		esac
	done <"$fragment"
	[ $bad = 0 ] || die "the kernel configuration fragments did not apply cleanly (see above)"
}
