#!/usr/bin/env bash
# setup's deb-src check accepts only an enabled deb-src entry that serves
# Debian's main component for this release, in either apt source format.
. "$(dirname "$0")/lib.sh"
load_atalab
f=$WORK/apt
mkdir -p "$f"
serves() {      # serves yes|no WHAT FILE...
	local want=$1 what=$2 got=no
	shift 2
	deb_src_serves_main bookworm "$@" && got=yes
	[ "$got" = "$want" ] && ok "$what: $got" || bad "$what: $got, expected $want"
}
echo 'deb-src http://deb.debian.org/debian bookworm main' >"$f/good.list"
serves yes "one-line deb-src main" "$f/good.list"
echo 'deb-src [signed-by=/usr/share/keyrings/k.gpg] http://mirror.example/debian bookworm contrib main' >"$f/opts.list"
serves yes "one-line with options and a mirror" "$f/opts.list"
echo 'deb-src http://deb.debian.org/debian bookworm contrib non-free' >"$f/contrib.list"
serves no "deb-src without main" "$f/contrib.list"
echo '# deb-src http://deb.debian.org/debian bookworm main' >"$f/commented.list"
serves no "a commented-out entry" "$f/commented.list"
echo 'deb http://deb.debian.org/debian bookworm main' >"$f/binary.list"
serves no "deb (binary) only" "$f/binary.list"
echo 'deb-src http://deb.debian.org/debian bullseye main' >"$f/old.list"
serves no "main of another release" "$f/old.list"
printf 'Types: deb deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\n' >"$f/good.sources"
serves yes "deb822 deb-src main" "$f/good.sources"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n\nTypes: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: contrib\n' >"$f/split.sources"
serves no "deb822: deb main and deb-src contrib in separate stanzas" "$f/split.sources"
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nEnabled: no\n' >"$f/disabled.sources"
serves no "deb822: a disabled stanza" "$f/disabled.sources"
serves yes "a good file among bad ones" "$f/contrib.list" "$f/split.sources" "$f/good.list"
serves no "no files at all"
# What setup itself asks: the host's release and source files.
host_codename() { echo bookworm; }
apt_source_files() { printf '%s\n' "$f/contrib.list" "$f/binary.list"; }
! have_deb_src && ok "setup: no deb-src for main among the host's sources" || bad "setup accepts deb-src contrib + deb main"
apt_source_files() { printf '%s\n' "$f/contrib.list" "$f/good.sources"; }
have_deb_src && ok "setup: a deb822 deb-src main among the host's sources" || bad "setup misses a deb822 entry"
finish
