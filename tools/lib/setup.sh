# shellcheck shell=bash
# tools/atalab setup: host packages, QEMU source, kernel source. Idempotent.

ATALAB_PACKAGES=(
	build-essential gcc-multilib pkg-config git meson ninja-build python3 python3-venv
	libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev flex bison dpkg-dev
	bc libelf-dev libssl-dev dwarves kmod rsync xz-utils
	busybox-static cpio seabios gdb hdparm smartmontools sg3-utils eject
	clang libclang-rt-14-dev sparse
	"linux-source-$ATALAB_KERNEL_SERIES"
)
# Programs only the tests and campaigns run (no build output depends on
# them, so they are not part of any cache key): GNU parallel, lcov,
# gtkwave (its VCD reader checks tools/atalab trace vcd's output) and
# chromium (headless, it opens tools/atalab trace report's pages) and
# genisoimage (the CD-ROM tests' ISO images).
ATALAB_TEST_PACKAGES=(parallel lcov gtkwave chromium genisoimage)

ATALAB_SRC_LIST=/etc/apt/sources.list.d/atalab-deb-src.sources

# The Debian release of this host (bookworm).
host_codename() {
	sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null
}

# The apt source files: sources.list, sources.list.d/*.list and *.sources.
apt_source_files() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

# deb_src_serves_main CODENAME FILE...: does an enabled deb-src entry serve
# the main component of CODENAME (what 'apt-get source qemu' needs)?  Reads
# the one-line format (.list) and deb822 stanzas (.sources).
deb_src_serves_main() {
	local codename=$1
	shift
	[ $# -gt 0 ] || return 1
	awk -v want="$codename" '
	function stanza_done() {
		if (types ~ /(^| )deb-src( |$)/ && comps ~ /(^| )main( |$)/ &&
		    suites ~ ("(^| )" want "( |$)") && enabled != "no")
			found = 1
		types = suites = comps = ""; enabled = "yes"
	}
	FNR == 1 { stanza_done(); deb822 = (FILENAME ~ /\.sources$/) }
	deb822 {
		if ($0 ~ /^[ \t]*$/) { stanza_done(); next }
		if ($0 ~ /^#/) next
		key = tolower($1); sub(/:$/, "", key)
		val = $0; sub(/^[^:]*:[ \t]*/, "", val)
		if (key == "types") types = val
		else if (key == "suites") suites = val
		else if (key == "components") comps = val
		else if (key == "enabled") enabled = tolower(val)
		next
	}
	$1 == "deb-src" {
		i = 2
		if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
		if ($(i + 1) != want) next
		for (j = i + 2; j <= NF; j++) if ($j == "main") found = 1
	}
	END { stanza_done(); exit !found }
	' "$@"
}

have_deb_src() {
	local -a files
	mapfile -t files < <(apt_source_files)
	deb_src_serves_main "$(host_codename)" "${files[@]}"
}

# One dpkg-query for all packages: this runs before every guest boot.
missing_packages() {
	local installed p
	installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${ATALAB_PACKAGES[@]}" \
		"${ATALAB_TEST_PACKAGES[@]}" 2>/dev/null |
		awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }')
	for p in "${ATALAB_PACKAGES[@]}" "${ATALAB_TEST_PACKAGES[@]}"; do
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
	run_logged "$ATALAB_CACHE/logs/apt-update.log" "apt-get update" apt-get update
	if [ -n "${missing// /}" ]; then
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive run_logged "$ATALAB_CACHE/logs/apt.log" \
			"installing packages: $missing" apt-get install -y --no-install-recommends $missing
	fi
}

setup_qemu_source() {
	local dir
	dir=$(qemu_source_dir)
	[ -f "$dir/.atalab-unpacked" ] && return 0
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	(cd "$dir.tmp" && run_logged "$ATALAB_CACHE/logs/apt-source.log" \
		"fetching the Debian qemu source package" apt-get source --only-source qemu)
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

setup_options() { :; }

setup_usage() {
	cat <<USAGE
usage: atalab setup

Installs the Debian packages atalab needs, adds a deb-src entry for Debian's
main component ($ATALAB_SRC_LIST) when no enabled one serves it, fetches
the qemu source package and installs linux-source-$ATALAB_KERNEL_SERIES.  Run as another
user, it prints the commands root must run and exits 1.  'atalab build',
'run' and 'test' run it first.

example:
  tools/atalab setup
USAGE
}

cmd_setup() {
	setup_all
	msg "setup complete (cache: $ATALAB_CACHE)"
}

# Is everything setup provides there (without asking apt)?
setup_is_done() {
	[ -f "$(qemu_source_dir)/.atalab-unpacked" ] && [ -f "$(kernel_source_tarball)" ] &&
		[ -z "$(missing_packages)" ] && have_deb_src
}

setup_all() {
	setup_host
	setup_qemu_source
	[ -f "$(kernel_source_tarball)" ] || die "$(kernel_source_tarball) missing after setup"
}
