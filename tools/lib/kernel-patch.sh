# shellcheck shell=bash
# A kernel under test with patches (--kernel-patch FILE, repeatable): the
# kit's guest kernel from linux-source-6.1 with the patches applied in
# order, a "variant" of the plain or the gcov kernel.
#
# Caches.  The user's cache ($ATALAB_CACHE_ROOT) holds the plain kernel;
# ROOT/coverage the gcov kernel (coverage.sh); a variant lives in
# FLAVOUR/variants/KEY, KEY the hash of the patches' contents in order, with
# the sources, QEMU, the tools and the disks shared with the root.  Its
# kernel, driver/ build and initramfs are its own.
#
# Building a variant.  The variant's source tree is a hard-link copy of the
# pristine tree; each file a patch touches gets a file of its own first, so
# the pristine tree is never written.  Its build folder starts as a copy of
# its flavour's build, the source and build paths in Kbuild's command files
# rewritten to the variant's, so make finds every object current but those
# whose sources the patches touched (newer files) and what depends on them:
# a patch to two libata files costs those files and the link.

# The table entry of the option, for the commands that boot the kit's kernel.
kernel_patch_options() {
	opt --kernel-patch FILE+ "boot the kit's kernel with this patch applied (-p1, to linux-source-$ATALAB_KERNEL_SERIES; repeatable, applied in order).  Built once per patch set, incrementally from the kit's kernel; a patch that does not apply stops everything before a build (README, 'Testing a libata patch')"
}

# ATALAB_KERNEL_PATCHES: the patches of this process and the atalab
# processes it starts, one per line: once taken, copies that never change
# ($ATALAB_CACHE_ROOT/patches/HASH/NAME), so that a patch edited while a
# campaign runs does not change its kernel half way.
ATALAB_KERNEL_PATCHES=${ATALAB_KERNEL_PATCHES:-}
# The patches, one per line (none: nothing).
kernel_patches() { [ -z "${ATALAB_KERNEL_PATCHES:-}" ] || printf '%s\n' "$ATALAB_KERNEL_PATCHES"; }

# The hash of the patch set: what the variant is cached by.
kernel_patches_key() {
	local p
	kernel_has_patches || return 0
	while IFS= read -r p; do
		sha256sum <"$p"
	done < <(kernel_patches) | sha256sum | cut -c1-16
}

# The flavour's own cache (plain or gcov), and the variant's under it.
kernel_flavour_cache() {
	if [ "${ATALAB_KERNEL_GCOV:-0}" = 1 ]; then
		echo "$ATALAB_CACHE_ROOT/coverage"
	else
		echo "$ATALAB_CACHE_ROOT"
	fi
}
kernel_variant_cache() {
	echo "$(kernel_flavour_cache)/variants/$(kernel_patches_key)"
}
# Patches were given; this process builds and boots their variant once
# kernel_patches_enter chose its cache (ATALAB_KERNEL_VARIANT).
kernel_has_patches() { [ -n "${ATALAB_KERNEL_PATCHES:-}" ]; }
kernel_is_variant() {
	[ -n "${ATALAB_KERNEL_VARIANT:-}" ] && [ "$ATALAB_KERNEL_VARIANT" = "$ATALAB_CACHE" ]
}

# "NAME HASH" per patch: the trace header's run.kernel-patch lines and the
# reports' (the hash: the first 12 hex digits of the patch's sha256).
kernel_patches_describe() {
	local p
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		printf '%s %s\n' "$(basename "$p")" "$(sha256sum <"$p" | cut -c1-12)"
	done < <(kernel_patches)
}

# The kernel under test in one line, for the reports: "linux-source-6.1
# VERSION", then " + NAME HASH" per patch.
kernel_under_test() {
	printf 'linux-source-%s %s' "$ATALAB_KERNEL_SERIES" "$(kernel_pkg_version)"
	kernel_patches_describe | sed 's/^/ + /' | tr -d '\n'
	echo
}

# kernel_patches_take FILE...: the option's values, checked (readable, a
# unified diff, no binary parts, applying in order to the pristine tree)
# before the command does anything; sets and exports
# ATALAB_KERNEL_PATCHES.  Usage errors exit 2.
kernel_patches_take() {
	local p list="" copies="" h d
	for p in "$@"; do
		[ -f "$p" ] && [ -r "$p" ] || usage_error "--kernel-patch $p: no such readable file"
		kernel_patch_targets "$p" >/dev/null
		list+=${list:+$'\n'}$(readlink -f "$p")
	done
	# Checked as the user named them (messages name their files) ...
	ATALAB_KERNEL_PATCHES=$list
	kernel_patches_check
	# ... then taken as they are now.
	while IFS= read -r p; do
		h=$(sha256sum <"$p" | cut -c1-16)
		d=$ATALAB_CACHE_ROOT/patches/$h
		if [ ! -f "$d/$(basename "$p")" ]; then
			mkdir -p "$d" || die "cannot create $d"
			cp "$p" "$d/.$(basename "$p").$$" && mv -f "$d/.$(basename "$p").$$" "$d/$(basename "$p")" ||
				die "cannot copy $p to $d"
		fi
		copies+=${copies:+$'\n'}$d/$(basename "$p")
	done <<<"$list"
	ATALAB_KERNEL_PATCHES=$copies
	export ATALAB_KERNEL_PATCHES
}

# kernel_patch_targets PATCH: "LINE PATH" per file section of a unified
# diff, in order (LINE: its '--- ' line; PATH: with one component
# stripped, as -p1; a deleted file's old name; a renamed file's old and
# new names, two lines).  Exits 2 with FILE:LINE:COLUMN for what patch(1)
# cannot apply here.
kernel_patch_targets() {
	local out rc=0
	out=$(awk -v file="$1" '
		function strip(p) {
			sub(/\t.*/, "", p)
			if (p == "/dev/null") return p
			if (index(p, "/") == 0) return ""
			return substr(p, index(p, "/") + 1)
		}
		/^GIT binary patch/ { printf "%s:%d:1: a binary patch: only text diffs apply\n", file, NR; bad = 1; exit }
		/^--- / { old = strip(substr($0, 5)); oldline = NR; next }
		/^\+\+\+ / && oldline == NR - 1 {
			new = strip(substr($0, 5))
			p = (new == "/dev/null") ? old : new
			if (p == "" || p == "/dev/null") {
				printf "%s:%d:1: no path with a leading folder to strip (-p1 wants a/... b/...)\n", file, NR; bad = 1; exit
			}
			if (p ~ /(^|\/)\.\.(\/|$)/ || p ~ /^\// || old ~ /(^|\/)\.\.(\/|$)/ || old ~ /^\//) {
				printf "%s:%d:1: path %s leaves the kernel tree\n", file, NR, p; bad = 1; exit
			}
			if (old != p && old != "/dev/null" && old != "") print oldline, old
			print oldline, p; n++
		}
		END { if (!bad && n == 0) { printf "%s:1:1: no unified diff in this file (no ---/+++ lines)\n", file; bad = 1 } exit bad }
	' "$1") || rc=$?
	if [ $rc != 0 ]; then
		printf 'atalab: %s: %s\n' "${ATALAB_COMMAND:-atalab}" "$(tail -n1 <<<"$out")" >&2
		exit $ATALAB_EXIT_USAGE
	fi
	printf '%s\n' "$out"
}

# The line of hunk N of file section S (both from 1) of PATCH.
kernel_patch_hunk_line() {
	awk -v s="$2" -v n="$3" '
		/^--- / { old = NR; next }
		/^\+\+\+ / && old == NR - 1 { sec++; h = 0; next }
		/^@@ / && sec == s { if (++h == n) { print NR; exit } }
	' "$1"
}

# The patch's own one-line description: its mail Subject.
kernel_patch_subject() {
	local s
	s=$(sed -n 's/^Subject: *//p' "$1" | head -n1)
	printf '%s' "${s:-(no Subject: line)}"
}

# kernel_patches_apply TREE: apply the patches in order to TREE (-p1, no
# fuzz; offsets are fine).  TREE's files that a patch touches must not be
# shared with another tree.  On a patch that does not apply: FILE:LINE:1
# and patch(1)'s words, exit 2.
kernel_patches_apply() {
	local tree=$1 p out rc sect=0 hunk="" file="" line l where
	while IFS= read -r p; do
		rc=0
		out=$(LC_ALL=C patch -p1 -f -F0 --no-backup-if-mismatch -r - -d "$tree" -i "$p" 2>&1) || rc=$?
		[ $rc != 0 ] || continue
		# patch(1) says "patching file X" per section, then what failed.
		sect=0 hunk="" file="" line=""
		while IFS= read -r l; do
			case "$l" in
			"patching file "* | "checking file "*)
				sect=$((sect + 1)); file=${l#* file }; file=${file#\'}; file=${file%\'} ;;
			"Hunk #"*" FAILED"*)
				[ -n "$hunk" ] || { hunk=${l#Hunk #}; hunk=${hunk%% *}; where=$sect; } ;;
			"can't find file to patch at input line "*)
				# A section of its own, skipped.
				sect=$((sect + 1))
				[ -n "$line" ] || { line=${l#can\'t find file to patch at input line }; line=${line%% *}; } ;;
			*"malformed patch at line "*)
				[ -n "$line" ] || { line=${l#*malformed patch at line }; line=${line%%:*}; } ;;
			esac
		done <<<"$out"
		if [ -n "$line" ]; then
			where="this part does not apply"
		elif [ -n "$hunk" ]; then
			line=$(kernel_patch_hunk_line "$p" "$where" "$hunk")
			where="hunk #$hunk of $file does not apply"
		else
			line=1
			where="does not apply"
		fi
		{
			printf 'atalab: %s: %s:%s:1: %s to linux-source-%s %s (fuzz 0: context must match, offsets may differ)\n' \
				"${ATALAB_COMMAND:-atalab}" "$p" "${line:-1}" "$where" "$ATALAB_KERNEL_SERIES" "$(kernel_pkg_version)"
			printf '  patch: %s\n' "$(kernel_patch_subject "$p")"
			printf '  patch(1) said:\n'
			printf '%s\n' "$out" | sed 's/^/    /'
		} >&2
		exit $ATALAB_EXIT_USAGE
	done < <(kernel_patches)
}

# Every file the patches touch, relative to the tree, once each.
kernel_patches_files() {
	local p
	while IFS= read -r p; do
		kernel_patch_targets "$p" | cut -d' ' -f2-
	done < <(kernel_patches) | LC_ALL=C sort -u
}

# kernel_patches_check: do the patches apply, in order, to the pristine
# tree?  Tried on a scratch copy of the files they touch; nothing is built.
kernel_patches_check() {
	local scratch f src rc=0
	kernel_has_patches || return 0
	kernel_pristine_ready
	src=$(kernel_src_dir)
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/atalab-patch-check.XXXXXX")
	while IFS= read -r f; do
		[ -e "$src/$f" ] || continue
		mkdir -p "$scratch/$(dirname "$f")"
		cp -p "$src/$f" "$scratch/$f"
	done < <(kernel_patches_files)
	(kernel_patches_apply "$scratch") || rc=$?
	rm -rf "$scratch"
	[ $rc = 0 ] || exit $rc
}

# The pristine tree unpacked (the host set up first when it is not).
kernel_pristine_ready() {
	[ -f "$(kernel_src_dir)/.atalab-unpacked" ] && return 0
	setup_is_done || setup_all
	kernel_unpack
}

# Switch this process (and those it starts) to the cache of its flavour
# and patch set, building the flavour's kit first (the variant is built
# from it).  build_all does this before it builds.
kernel_patches_enter() {
	local cache d
	kernel_has_patches || return 0
	# A cache chosen as this patch set's (here or by a parent: a test's
	# private cache over the variant's builds, tests/guest/lib.sh).
	! kernel_is_variant || return 0
	cache=$(kernel_variant_cache)
	unset ATALAB_KERNEL_VARIANT
	ATALAB_CACHE=$(kernel_flavour_cache)
	build_cache
	mkdir -p "$cache"
	for d in src qemu host-tools guest-tools kvm-probe disks; do
		mkdir -p "$ATALAB_CACHE_ROOT/$d"
		[ -L "$cache/$d" ] || ln -sfn "$ATALAB_CACHE_ROOT/$d" "$cache/$d"
	done
	ATALAB_CACHE=$cache
	ATALAB_CACHE_CHOSEN=$cache
	ATALAB_KERNEL_VARIANT=$cache
	export ATALAB_CACHE ATALAB_CACHE_ROOT ATALAB_CACHE_CHOSEN ATALAB_KERNEL_VARIANT
	touch "$cache/.used"
}

# Variants kept per flavour (the most recently used), and the age under
# which a variant is never removed (a search may still be booting it).
ATALAB_VARIANTS_KEEP=16
ATALAB_VARIANTS_BUSY_MINUTES=120

# After a variant's kernel is built: its objects go (a variant is never
# built on again, and the driver's build needs the headers, scripts and
# symbol versions only: about 360 of its 540 MB), and the flavour's
# variants beyond the most recently used ATALAB_VARIANTS_KEEP go, unless
# used in the last ATALAB_VARIANTS_BUSY_MINUTES.
kernel_variant_done() {
	local v n=0
	find "$(kernel_build_dir)" -name '*.o' -type f -delete
	while IFS= read -r v; do
		n=$((n + 1))
		[ "$n" -gt "$ATALAB_VARIANTS_KEEP" ] || continue
		[ -z "$(find "$v/.used" -mmin -"$ATALAB_VARIANTS_BUSY_MINUTES" 2>/dev/null)" ] || continue
		msg "removing the kernel variant $v (used least recently of $n)"
		rm -rf "$v"
	done < <(ls -1dt "$(kernel_flavour_cache)"/variants/*/.used 2>/dev/null | sed 's#/\.used$##')
}

# The variant's source tree and what its build starts from.
kernel_variant_tree() { echo "$ATALAB_CACHE/kernel/src"; }
kernel_variant_base_build() { echo "$(kernel_flavour_cache)/kernel/build"; }

# build_kernel's work for a variant: the tree, then the build folder from
# the flavour's.
kernel_variant_prepare() {
	local tree build base pristine f
	tree=$(kernel_variant_tree)
	build=$(kernel_build_dir)
	base=$(kernel_variant_base_build)
	pristine=$(readlink -f "$(kernel_src_dir)")
	# Only a variant's own folders are ever removed here.
	case "$build" in */variants/*/kernel/build) ;;
	*) die "internal: a variant build outside a variant's cache ($build)" ;; esac
	[ -f "$base/.atalab-stamp" ] || die "the kernel a variant is built from is not built ($base)"
	rm -rf "$tree" "$tree.tmp" "$build" "$build.tmp"
	mkdir -p "$(dirname "$tree")"
	run_logged "$ATALAB_CACHE/logs/kernel-variant.log" "linking the variant's source tree" \
		cp -al "$pristine" "$tree.tmp"
	while IFS= read -r f; do
		[ -e "$tree.tmp/$f" ] || continue
		cp -p "$tree.tmp/$f" "$tree.tmp/$f.atalab-own"
		mv -f "$tree.tmp/$f.atalab-own" "$tree.tmp/$f"
	done < <(kernel_patches_files)
	(kernel_patches_apply "$tree.tmp") || die "the patches did not apply to $tree.tmp"
	# A patched file is newer than every object of the flavour's build.
	while IFS= read -r f; do
		[ ! -e "$tree.tmp/$f" ] || touch "$tree.tmp/$f"
	done < <(kernel_patches_files)
	mv "$tree.tmp" "$tree"
	# Under the flavour's build lock: never a half-rebuilt flavour.  (A
	# flavour's build never waits for a variant's lock.)
	local lock fd
	lock=$(kernel_flavour_cache)/locks/build.lock
	mkdir -p "$(dirname "$lock")"
	exec {fd}>>"$lock"
	flock -n "$fd" || { msg "waiting for the build of $(kernel_flavour_cache) (lock: $lock)"; flock "$fd"; }
	[ -f "$base/.atalab-stamp" ] || die "the kernel a variant is built from is not built ($base)"
	run_logged "$ATALAB_CACHE/logs/kernel-variant.log" "copying the kernel build" \
		cp -a "$base" "$build.tmp"
	exec {fd}>&-
	rm -f "$build.tmp/.atalab-stamp"
	kernel_variant_rewrite "$build.tmp" "$pristine" "$(readlink -f "$tree")" \
		"$(readlink -f "$base")" "$(readlink -f "$(dirname "$build")")/$(basename "$build")" ||
		die "rewriting the paths of the kernel build copy $build.tmp failed"
	mv "$build.tmp" "$build"
}

# kernel_variant_rewrite DIR OLD-SRC NEW-SRC OLD-BUILD NEW-BUILD: the paths
# in DIR's text files (Kbuild's .cmd files, generated makefiles and
# assembler files) and symlinks.  Each file keeps its time: make must see
# only the patched sources as new.
kernel_variant_rewrite() {
	local dir=$1 l to
	grep -rlIZF -e "$2" -e "$4" "$dir" 2>/dev/null |
		OLD_SRC=$2 NEW_SRC=$3 OLD_BUILD=$4 NEW_BUILD=$5 xargs -0 -r perl -e '
			for my $f (@ARGV) {
				my @st = stat $f or die "$f: $!";
				open(my $in, "<", $f) or die "$f: $!";
				my $c = do { local $/; <$in> };
				close $in;
				$c =~ s/\Q$ENV{OLD_SRC}\E/$ENV{NEW_SRC}/g;
				$c =~ s/\Q$ENV{OLD_BUILD}\E/$ENV{NEW_BUILD}/g;
				open(my $out, ">", $f) or die "$f: $!";
				print $out $c;
				close $out or die "$f: $!";
				utime $st[8], $st[9], $f;
			}' || return 1
	while IFS= read -r -d '' l; do
		to=$(readlink "$l")
		case "$to" in
		"$2"*) ln -sfn "$3${to#"$2"}" "$l" ;;
		"$4"*) ln -sfn "$5${to#"$4"}" "$l" ;;
		esac
	done < <(find "$dir" -type l -print0)
}
