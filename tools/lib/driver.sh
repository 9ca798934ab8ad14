# shellcheck shell=bash
# tools/atalab driver: driver/ as a patch series against the kernel tree
# (driver/series describes the commits), and that series applied with
# git am to a copy of the tree and built in it.

driver_series_dir() { echo "$ATALAB_ROOT/driver/series"; }
driver_patches_dir() { echo "$ATALAB_ROOT/driver/patches"; }
intree_dir() { echo "$ATALAB_CACHE/intree"; }

driver_options() { opt_words; }

driver_usage() {
	cat <<USAGE
usage: atalab driver patches | check | intree

  patches  write driver/patches/ (git format-patch output) from the driver
           sources and the commit descriptions in driver/series/
  check    exit 1 when driver/patches/ is not what 'patches' would write
  intree   apply driver/patches/ with git am to a pristine copy of the
           kernel tree and build it there with atalab_piix =y (bzImage)
           and =m (modules); cached in \$ATALAB_CACHE/intree by the hash
           of the series, the kernel config and the kernel version.
           Prints the outputs: 'kernel-y: FILE', 'module-m: FILE', 'commit:
           SUBJECT' lines.

examples:
  tools/atalab driver patches && git diff --stat driver/patches
  tools/atalab driver intree && tools/atalab run --kernel "\$ATALAB_CACHE/intree/bzImage-y" --driver none
USAGE
}

# msg_header FILE KEY: the values of header line KEY, one per line.
msg_header() { sed -n -e '/^$/q' -e "s/^$2: //p" "$1"; }
# msg_body FILE: the commit message (after the first blank line).
msg_body() { sed '1,/^$/d' "$1"; }

# Lines that start a Kconfig entry or end the one before them.
KCONFIG_ENTRY='^(config|menuconfig|comment|menu|endmenu|if|endif|source|choice|endchoice)( |$)'

# kconfig_block SYMBOL FILE: the entry "config SYMBOL" of FILE, without the
# blank lines after it.
kconfig_block() {
	awk -v sym="$1" -v entry="$KCONFIG_ENTRY" '
		$0 ~ entry { on = ($1 == "config" || $1 == "menuconfig") && $2 == sym }
		on { lines[n++] = $0 }
		END {
			while (n > 0 && lines[n - 1] == "") n--
			for (i = 0; i < n; i++) print lines[i]
		}' "$2"
}

# kconfig_insert FILE SYMBOL ANCHOR BLOCKFILE: BLOCKFILE's lines become an
# entry after the entry of ANCHOR.
kconfig_insert() {
	local file=$1 sym=$2 anchor=$3 block=$4
	grep -q "^config $anchor\$" "$file" || die "driver/series: no 'config $anchor' in $file"
	awk -v anchor="$anchor" -v entry="$KCONFIG_ENTRY" -v block="$block" '
		function put() { while ((getline l < block) > 0) print l; print ""; done = 1 }
		in_anchor && $0 ~ entry { put(); in_anchor = 0 }
		$0 ~ entry && $1 == "config" && $2 == anchor { in_anchor = 1 }
		{ print }
		END { if (in_anchor && !done) { print ""; put() } }' "$file" >"$file.new"
	mv "$file.new" "$file"
	grep -q "^config $sym\$" "$file" || die "driver/series: could not insert $sym into $file"
}

# kbuild_insert FILE SYMBOL ANCHOR: driver/Kbuild's lines naming $(SYMBOL)
# go after the last line of FILE naming $(ANCHOR).
kbuild_insert() {
	local file=$1 sym=$2 anchor=$3 lines
	lines=$(grep -F "\$($sym)" "$ATALAB_ROOT/driver/Kbuild") ||
		die "driver/series: driver/Kbuild names no \$($sym)"
	grep -qF "\$($anchor)" "$file" || die "driver/series: $file names no \$($anchor)"
	awk -v anchor="\$($anchor)" -v lines="$lines" '
		{ text[NR] = $0; if (index($0, anchor)) last = NR }
		END { for (i = 1; i <= NR; i++) { print text[i]; if (i == last) print lines } }' \
		"$file" >"$file.new"
	mv "$file.new" "$file"
}

# maintainers_insert FILE TITLE: driver/MAINTAINERS (an entry without F:
# lines) goes before entry TITLE.
maintainers_insert() {
	local file=$1 title=$2
	grep -qxF "$title" "$file" || die "driver/series: no entry '$title' in $file"
	awk -v title="$title" -v entry="$ATALAB_ROOT/driver/MAINTAINERS" '
		$0 == title && !done { while ((getline l < entry) > 0) print l; print ""; done = 1 }
		{ print }' "$file" >"$file.new"
	mv "$file.new" "$file"
}

# maintainers_add_files FILE PATH...: F: lines for PATHs in the driver's
# entry (the first line of driver/MAINTAINERS), the entry's F: lines sorted.
maintainers_add_files() {
	local file=$1 title p
	shift
	title=$(head -n1 "$ATALAB_ROOT/driver/MAINTAINERS")
	grep -qxF "$title" "$file" || die "driver/series: no MAINTAINERS entry '$title' yet"
	{
		awk -v title="$title" '$0 == title { on = 1 } on && $0 == "" { exit }
			on && /^F:\t/ { print }' "$file"
		for p in "$@"; do printf 'F:\t%s\n' "$p"; done
	} | LC_ALL=C sort -u >"$file.f"
	awk -v title="$title" -v f="$file.f" '
		function put() { while ((getline l < f) > 0) print l }
		$0 == title { on = 1 }
		on && /^F:\t/ { next }
		on && $0 == "" { put(); on = 0 }
		{ print }
		END { if (on) put() }' "$file" >"$file.new"
	mv "$file.new" "$file"
	rm -f "$file.f"
}

# series_git DIR ARGS...: git in DIR with the identity and date of the
# commit being made (AUTHOR, DATE in the caller).
series_git() {
	local dir=$1 name=${AUTHOR% <*} email=${AUTHOR##*<}
	shift
	GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=${email%>} GIT_AUTHOR_DATE=$DATE \
		GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=${email%>} GIT_COMMITTER_DATE=$DATE \
		git -C "$dir" -c core.autocrlf=false -c commit.gpgsign=false "$@"
}

# series_apply DIR MSG: make the changes MSG describes in the tree DIR.
series_apply() {
	local dir=$1 msg=$2 f sym anchor block
	local -a paths=()
	for f in $(msg_header "$msg" Files); do
		[ -f "$ATALAB_ROOT/driver/$f" ] || die "$msg: no driver/$f"
		cp "$ATALAB_ROOT/driver/$f" "$dir/drivers/ata/$f"
		paths+=("drivers/ata/$f")
	done
	while read -r sym _ anchor; do
		[ -n "$sym" ] || continue
		block=$dir/.kconfig-block
		kconfig_block "$sym" "$ATALAB_ROOT/driver/Kconfig" >"$block"
		[ -s "$block" ] || die "$msg: driver/Kconfig has no 'config $sym'"
		kconfig_insert "$dir/drivers/ata/Kconfig" "$sym" "$anchor" "$block"
		rm -f "$block"
	done < <(msg_header "$msg" Kconfig)
	while read -r sym _ anchor; do
		[ -n "$sym" ] && kbuild_insert "$dir/drivers/ata/Makefile" "$sym" "$anchor"
	done < <(msg_header "$msg" Kbuild)
	while IFS= read -r anchor; do
		maintainers_insert "$dir/MAINTAINERS" "$anchor"
	done < <(msg_header "$msg" Maintainers | sed -n 's/^before //p')
	[ ${#paths[@]} = 0 ] || maintainers_add_files "$dir/MAINTAINERS" "${paths[@]}"
}

# driver_series_generate OUT: the format-patch output of driver/series into
# the empty directory OUT.
driver_series_generate() {
	local out=$1 dir src msg AUTHOR DATE
	src=$(kernel_src_dir)
	[ -d "$src/drivers/ata" ] || die "no kernel source in $src (run tools/atalab setup)"
	dir=$(mktemp -d "${TMPDIR:-/tmp}/atalab-series.XXXXXX")
	mkdir -p "$dir/drivers/ata"
	cp "$src/MAINTAINERS" "$dir/"
	cp "$src/drivers/ata/Kconfig" "$src/drivers/ata/Makefile" "$dir/drivers/ata/"
	git -C "$dir" init -q -b series
	AUTHOR=$(msg_header "$(driver_series_dir)/0001-driver.msg" Author)
	DATE=$(msg_header "$(driver_series_dir)/0001-driver.msg" Date)
	series_git "$dir" add -A
	series_git "$dir" commit -q -m "linux-source-$ATALAB_KERNEL_SERIES $(kernel_pkg_version)"
	series_git "$dir" tag base
	for msg in "$(driver_series_dir)"/[0-9][0-9][0-9][0-9]-*.msg; do
		case "$msg" in */0000-*) continue ;; esac
		AUTHOR=$(msg_header "$msg" Author)
		DATE=$(msg_header "$msg" Date)
		[ -n "$AUTHOR" ] && [ -n "$DATE" ] || die "$msg: Author and Date headers needed"
		series_apply "$dir" "$msg"
		series_git "$dir" add -A
		msg_body "$msg" | series_git "$dir" commit -q --cleanup=verbatim -F -
	done
	git -C "$dir" config branch.series.description "$(cat "$(driver_series_dir)/0000-cover.msg")"
	series_git "$dir" format-patch -q --cover-letter --cover-from-description=subject \
		--no-signature --zero-commit -o "$out" base..series
	rm -rf "$dir"
}

driver_patches() {
	local out tmp
	out=$(driver_patches_dir)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/atalab-patches.XXXXXX")
	driver_series_generate "$tmp"
	rm -rf "$out"
	mkdir -p "$out"
	cp "$tmp"/*.patch "$out/"
	rm -rf "$tmp"
	ls "$out"
}

driver_patches_check() {
	local tmp rc=0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/atalab-patches.XXXXXX")
	driver_series_generate "$tmp"
	if ! diff -ru "$(driver_patches_dir)" "$tmp"; then
		msg "driver/patches/ is not what driver/ and driver/series/ give: run 'tools/atalab driver patches'"
		rc=1
	fi
	rm -rf "$tmp"
	return $rc
}

# The in-tree configuration: the kit's fragment without debug information,
# with atalab_piix and its KUnit tests as $1 (y or m).
intree_fragment() {
	grep -vE '^CONFIG_(DEBUG_INFO|DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT|GDB_SCRIPTS)=' \
		"$ATALAB_ROOT/kernel/atalab.config"
	printf 'CONFIG_ATA_ATALAB_PIIX=%s\nCONFIG_ATA_ATALAB_PIIX_KUNIT_TEST=%s\n' "$1" "$1"
}

intree_make() {
	make -C "$(intree_dir)/linux" O="$(intree_dir)/build" -j"$(atalab_jobs)" "$@"
}

# intree_configure y|m
intree_configure() {
	local dir log=$ATALAB_CACHE/logs/intree-config.log
	dir=$(intree_dir)
	intree_fragment "$1" >"$dir/fragment-$1"
	run_logged "$log" "configuring the in-tree kernel (=$1)" \
		intree_make KCONFIG_ALLCONFIG="$dir/fragment-$1" allnoconfig
	kernel_check_fragment "$dir/fragment-$1" "$dir/build/.config"
}

# A pristine copy of the kernel source as a git repository (made once).
intree_base() {
	local dir AUTHOR="atalab <atalab@localhost>" DATE="@0 +0000"
	dir=$(intree_dir)
	[ -f "$dir/base.done" ] && [ "$(cat "$dir/base.done")" = "$(kernel_pkg_version)" ] && return 0
	msg "copying the kernel tree for the in-tree build"
	rm -rf "$dir/linux" "$dir/build"
	mkdir -p "$dir"
	cp -a "$(kernel_src_dir)" "$dir/linux"
	rm -f "$dir/linux/.atalab-unpacked"
	git -C "$dir/linux" init -q -b base
	series_git "$dir/linux" add -A -f
	series_git "$dir/linux" commit -q -m "linux-source-$ATALAB_KERNEL_SERIES $(kernel_pkg_version)"
	kernel_pkg_version >"$dir/base.done"
}

# Apply driver/patches/ to the pristine tree, build =y then =m.
driver_intree() {
	local dir key stamp patches log=$ATALAB_CACHE/logs/intree.log
	dir=$(intree_dir)
	patches=$(driver_patches_dir)
	compgen -G "$patches/0001-*.patch" >/dev/null || die "no driver/patches/ (run tools/atalab driver patches)"
	key=$(printf '%s\n%s\n' "$(kernel_pkg_version)" "$(hash_inputs "$patches" \
		"$ATALAB_ROOT/kernel/atalab.config" "$ATALAB_ROOT/tools/lib/driver.sh" \
		"$ATALAB_ROOT/tools/lib/build-kernel.sh")" | sha256sum | cut -c1-16)
	stamp=$dir/.atalab-stamp
	if ! [ -f "$stamp" ] || [ "$(cat "$stamp")" != "$key" ]; then
		intree_base
		rm -f "$stamp"
		git -C "$dir/linux" am --abort >/dev/null 2>&1 || true
		git -C "$dir/linux" checkout -q -f -B series base
		git -C "$dir/linux" clean -q -f -d -x
		# shellcheck disable=SC2046
		run_logged "$dir/am.log" "applying driver/patches/ with git am" env GIT_COMMITTER_NAME=atalab \
			GIT_COMMITTER_EMAIL=atalab@localhost git -C "$dir/linux" am \
			$(ls "$patches"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-')
		mkdir -p "$dir/build"
		intree_configure y
		run_logged "$log" "building the kernel with atalab_piix in the tree (=y)" intree_make bzImage
		cp "$dir/build/arch/x86/boot/bzImage" "$dir/bzImage-y"
		intree_configure m
		run_logged "$log.m" "building the kernel with atalab_piix in the tree (=m)" \
			intree_make bzImage modules
		rm -rf "$dir/modules-m"
		mkdir -p "$dir/modules-m"
		cp "$dir/build/drivers/ata/atalab_piix.ko" "$dir/build/drivers/ata/atalab_piix_test.ko" \
			"$dir/modules-m/"
		echo "$key" >"$stamp"
	fi
	echo "kernel-y: $dir/bzImage-y"
	local ko
	for ko in "$dir"/modules-m/*.ko; do echo "module-m: $ko"; done
	git -C "$dir/linux" log --reverse --format='commit: %s' base..series
}

cmd_driver() {
	[ ${#OPT_ARGS[@]} -le 1 ] || usage_error "takes one subcommand (got '${OPT_ARGS[*]}')"
	case "${OPT_ARGS[0]:-}" in
	patches) setup_all; kernel_unpack; driver_patches ;;
	check) setup_all; kernel_unpack; driver_patches_check ;;
	intree) setup_all; kernel_unpack; driver_intree ;;
	"") driver_usage >&2; exit 2 ;;
	*) usage_error "unknown subcommand '${OPT_ARGS[0]}'" ;;
	esac
}
