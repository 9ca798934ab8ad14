# shellcheck shell=bash
# tools/atalab setup: host packages, QEMU source, kernel source. Idempotent.

ATALAB_PACKAGES=(
	build-essential gcc-multilib pkg-config git meson ninja-build python3 python3-venv
	libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev flex bison dpkg-dev
	bc libelf-dev libssl-dev dwarves kmod rsync xz-utils
	busybox-static cpio seabios gdb hdparm smartmontools sg3-utils
	clang libclang-rt-14-dev sparse
	"linux-source-$ATALAB_KERNEL_SERIES"
)

ATALAB_SRC_LIST=/etc/apt/sources.list.d/atalab-deb-src.sources

# Is there a deb-src entry for the Debian main archive?
have_deb_src() {
	grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/
}

# One dpkg-query for all packages: this runs before every guest boot.
missing_packages() {
	local installed p
	installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${ATALAB_PACKAGES[@]}" 2>/dev/null |
		awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }')
	for p in "${ATALAB_PACKAGES[@]}"; do
		[[ $'\n'$installed$'\n' == *$'\n'$p$'\n'* ]] || printf '%s\n' "$p"
	done
}

deb_src_entry() {
	cat <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

# Directory holding the unpacked Debian QEMU source, tree untouched.
qemu_source_dir() { echo "$ATALAB_CACHE/src/qemu"; }

setup_host() {
	local missing need_src=0
	missing=$(missing_packages | tr '\n' ' ')
	have_deb_src || need_src=1
	if [ -z "${missing// /}" ] && [ $need_src = 0 ]; then
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		{
			echo "atalab: setup needs root. Run these commands as root, then run atalab again:"
			[ $need_src = 1 ] && printf "  cat > %s <<'SRC'\n%s\nSRC\n" "$ATALAB_SRC_LIST" "$(deb_src_entry)"
			echo "  apt-get update"
			[ -n "${missing// /}" ] && echo "  apt-get install -y --no-install-recommends $missing"
		} >&2
		exit 1
	fi
	if [ $need_src = 1 ]; then
		msg "adding deb-src entry $ATALAB_SRC_LIST"
		deb_src_entry >"$ATALAB_SRC_LIST"
	fi
	msg "installing packages: ${missing:-none}"
	run_logged "$ATALAB_CACHE/logs/apt.log" apt-get update
	if [ -n "${missing// /}" ]; then
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive run_logged "$ATALAB_CACHE/logs/apt.log" \
			apt-get install -y --no-install-recommends $missing
	fi
}

setup_qemu_source() {
	local dir
	dir=$(qemu_source_dir)
	[ -f "$dir/.atalab-unpacked" ] && return 0
	msg "fetching the Debian qemu source package"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	(cd "$dir.tmp" && run_logged "$ATALAB_CACHE/logs/apt-source.log" \
		apt-get source --only-source qemu)
	local unpacked
	unpacked=$(find "$dir.tmp" -maxdepth 1 -mindepth 1 -type d -name 'qemu-*' | head -n1)
	[ -n "$unpacked" ] || die "apt-get source qemu produced no tree (see $ATALAB_CACHE/logs/apt-source.log)"
	grep -q "^$ATALAB_QEMU_SERIES" "$unpacked/VERSION" ||
		die "qemu source is $(cat "$unpacked/VERSION"), atalab needs $ATALAB_QEMU_SERIES"
	mv "$unpacked" "$dir"
	rm -rf "$dir.tmp"
	touch "$dir/.atalab-unpacked"
}

kernel_source_tarball() {
	echo "/usr/src/linux-source-$ATALAB_KERNEL_SERIES.tar.xz"
}

cmd_setup() {
	case "${1:-}" in
	-h | --help)
		echo "usage: atalab setup"
		echo "Installs the Debian packages atalab needs, adds a deb-src entry when"
		echo "missing, fetches the qemu source package and installs linux-source-$ATALAB_KERNEL_SERIES."
		return 0
		;;
	"") ;;
	*) die "setup takes no arguments (got '$1')" ;;
	esac
	setup_all
	msg "setup complete (cache: $ATALAB_CACHE)"
}

setup_all() {
	setup_host
	setup_qemu_source
	[ -f "$(kernel_source_tarball)" ] || die "$(kernel_source_tarball) missing after setup"
}
