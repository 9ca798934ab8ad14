# shellcheck shell=bash
# Shared helpers for tools/atalab: paths, messages and exit statuses, QEMU
# option escaping, cache keys, locks.

ATALAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ATALAB_CACHE=${ATALAB_CACHE:-$HOME/.cache/atalab}
export ATALAB_ROOT ATALAB_CACHE
# The cache the kernel's flavour and variant are chosen from (coverage.sh,
# kernel-patch.sh): ATALAB_CACHE, or the cache the process that chose
# ATALAB_CACHE for this one started from.  A process whose ATALAB_CACHE is
# not the one chosen for it (a test's private cache) starts from its own.
if [ -z "${ATALAB_CACHE_ROOT:-}" ] || [ "${ATALAB_CACHE_CHOSEN:-}" != "$ATALAB_CACHE" ]; then
	ATALAB_CACHE_ROOT=$ATALAB_CACHE
fi

# QEMU and kernel versions the kit is built against.
ATALAB_QEMU_SERIES=7.2
ATALAB_KERNEL_SERIES=6.1

# Exit statuses of atalab itself (a guest command's own status passes
# through `run` unchanged).
ATALAB_EXIT_FAILURE=1   # something went wrong: a build, a file, the host
ATALAB_EXIT_USAGE=2     # bad command line; nothing was built or booted

atalab_jobs() { nproc 2>/dev/null || echo 2; }

msg() { printf 'atalab: %s\n' "$*" >&2; }
warn() { printf 'atalab: warning: %s\n' "$*" >&2; }
die() {
	printf 'atalab: error: %s\n' "$*" >&2
	exit $ATALAB_EXIT_FAILURE
}
# A bad command line: exit 2 with the command's name and where to look.
usage_error() {
	printf 'atalab: %s: %s (see atalab %s --help)\n' "${ATALAB_COMMAND:-atalab}" \
		"$*" "${ATALAB_COMMAND:-}" >&2
	exit $ATALAB_EXIT_USAGE
}

# One value for a QEMU option list (key=value,key=value): commas doubled.
qemu_escape() { printf '%s' "${1//,/,,}"; }

# Editor swap, backup and lock files: never inputs of a build.
ATALAB_HASH_IGNORE=(-name '*~' -o -name '.*.sw?' -o -name '*.swp' -o -name '#*#'
	-o -name '.#*' -o -name '4913')

# Hash of files and directories: contents, names (relative inside a
# directory) and permission bits, stable across checkouts.  Used to key
# cached build outputs; editor swap files do not count.
hash_inputs() {
	local p name h
	local -a files
	for p in "$@"; do
		name=${p%/}
		name=${name##*/}
		if [ -d "$p" ]; then
			printf 'dir %s\n' "$name"
			mapfile -d '' files < <(cd "$p" &&
				find -L . -type f ! \( "${ATALAB_HASH_IGNORE[@]}" \) -print0 | LC_ALL=C sort -z)
			[ ${#files[@]} = 0 ] ||
				(cd "$p" && stat -L -c '%a %n' "${files[@]}" && sha256sum "${files[@]}")
		elif [ -e "$p" ]; then
			h=$(sha256sum <"$p")
			printf '%s %s %s\n' "$(stat -L -c %a "$p")" "${h%% *}" "$name"
		else
			printf 'missing %s\n' "$p"
		fi
	done | sha256sum | cut -c1-16
}

# Keys that other keys include (the kernel's in the driver's and the
# initramfs's), computed once per build check: build_stale_steps fills
# ATALAB_KEY_MEMO, and key_memo FUNC prints FUNC's entry (false when none).
declare -gA ATALAB_KEY_MEMO=()
key_memo() {
	[ -n "${ATALAB_KEY_MEMO[$1]:-}" ] || return 1
	printf '%s\n' "${ATALAB_KEY_MEMO[$1]}"
}

# Hash of the definitions of shell functions: the build recipes themselves
# are part of what shapes an output.
hash_recipe() {
	declare -f "$@" | sha256sum | cut -c1-16
}

# Hash of text arguments (one per line).
hash_text() {
	printf '%s\n' "$@" | sha256sum | cut -c1-16
}

# What the host compiles with: part of every compiled output's key.
host_toolchain() {
	printf '%s\n' "${ATALAB_PACKAGES[*]}" "$(gcc -dumpfullversion 2>&1)" \
		"$(ld --version 2>&1 | head -n1)"
}

# lock_take NAME WHAT: take the lock $ATALAB_CACHE/locks/NAME.lock, saying
# what is awaited when someone else holds it.  The lock is held until
# lock_drop NAME (or exit), also by child processes started meanwhile.
declare -gA ATALAB_LOCK_FD=()
lock_take() {
	local name=$1 what=$2 file fd holder
	file=$ATALAB_CACHE/locks/$name.lock
	mkdir -p "$(dirname "$file")"
	exec {fd}>>"$file"
	if ! flock -n "$fd"; then
		holder=$(cat "$file" 2>/dev/null || true)
		msg "waiting for $what (${holder:-another atalab}; lock: $file)"
		flock "$fd"
	fi
	printf 'pid %s, atalab %s, since %s\n' "$$" "${ATALAB_COMMAND:-?}" "$(date +%T)" >"$file"
	ATALAB_LOCK_FD[$name]=$fd
}

lock_drop() {
	local fd=${ATALAB_LOCK_FD[$1]:-}
	[ -n "$fd" ] || return 0
	exec {fd}>&-
	unset "ATALAB_LOCK_FD[$1]"
}

# Wall-clock time in centiseconds (for deadlines and elapsed times).
now_cs() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 10000))
}

# 75 -> "1m15s"
format_duration() {
	local s=$1
	if [ "$s" -ge 60 ]; then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}
