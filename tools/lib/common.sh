# shellcheck shell=bash
# Shared helpers for tools/atalab: paths, messages, the build cache.

ATALAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ATALAB_CACHE=${ATALAB_CACHE:-$HOME/.cache/atalab}
export ATALAB_ROOT ATALAB_CACHE

# QEMU and kernel versions the kit is built against.
ATALAB_QEMU_SERIES=7.2
ATALAB_KERNEL_SERIES=6.1

atalab_jobs() { nproc 2>/dev/null || echo 2; }

msg() { printf 'atalab: %s\n' "$*" >&2; }
die() { printf 'atalab: error: %s\n' "$*" >&2; exit 1; }

# Hash of files and directories (contents and relative names), stable across
# checkouts: used to key cached build outputs.
hash_inputs() {
	local p
	for p in "$@"; do
		if [ -d "$p" ]; then
			(cd "$p" && find . -type f ! -name '*~' -print0 | LC_ALL=C sort -z |
				xargs -0 -r sha256sum)
		elif [ -e "$p" ]; then
			printf '%s  %s\n' "$(sha256sum <"$p" | cut -d' ' -f1)" "$(basename "$p")"
		else
			printf 'missing %s\n' "$p"
		fi
	done | sha256sum | cut -c1-16
}

# Timestamped step runner: logs a step's output to a file, shows the tail
# on failure.
run_logged() {
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "step failed: $* (full log: $log)"
	fi
}
