# shellcheck shell=bash
# Host side of the guest tests: each test boots guests with `atalab run` and
# asserts on what the guest reports.  Sourced by tests/guest/*.sh.
set -euo pipefail

: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
ATALAB=$ATALAB_ROOT/tools/atalab
# Host-side helpers built by tools/atalab (ata-pattern).
ATALAB_CACHE_BIN=${ATALAB_CACHE:-$HOME/.cache/atalab}/guest-tools
QEMU_IMG=${ATALAB_CACHE:-$HOME/.cache/atalab}/qemu/build/qemu-img
WORK=$(mktemp -d "${TMPDIR:-/tmp}/atalab-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail() {
	echo "FAIL: $*" >&2
	if [ -s "$WORK/console.log" ]; then
		echo "--- last console lines ---" >&2
		tail -n 30 "$WORK/console.log" >&2
	fi
	exit 1
}

# atalab run with this test's own console log and a default disk of its own.
guest() {
	"$ATALAB" run --quiet --log "$WORK/console.log" "$@"
}

# guest_status EXPECTED [run options] -- command...: the run's exit status.
expect_status() {
	local want=$1 got=0
	shift
	guest "$@" >"$WORK/stdout" 2>"$WORK/stderr" || got=$?
	if [ "$got" != "$want" ]; then
		echo "--- stdout ---" >&2; cat "$WORK/stdout" >&2
		echo "--- stderr ---" >&2; cat "$WORK/stderr" >&2
		fail "atalab run $* exited $got, expected $want"
	fi
}

# The guest kernel log must not show libata errors, timeouts or exceptions.
expect_clean_ata_log() {
	local log=${1:-$WORK/console.log} bad
	bad=$(grep -E 'ata[0-9.]+: .*(error|exception|timeout|failed|FREEZE|BMDMA stat|hard resetting|soft resetting|limiting speed)|I/O error|unknown device' "$log" || true)
	[ -z "$bad" ] || fail "kernel log has ATA error lines:
$bad"
}

# A cache of this test's own for the default disk, default logs and locks,
# sharing the builds of the real one (built before the tests run), so tests
# of the defaults never collide with other tests or the user's runs.
private_cache() {
	local real=${ATALAB_CACHE:-$HOME/.cache/atalab} d
	mkdir -p "$WORK/cache"
	for d in src qemu kernel driver initramfs guest-tools host-tools; do
		ln -s "$real/$d" "$WORK/cache/$d"
	done
	[ ! -d "$real/kvm-probe" ] || cp -r "$real/kvm-probe" "$WORK/cache/"
	export ATALAB_CACHE=$WORK/cache
}

# wait_for_line FILE LINE PID: until FILE has the line LINE (at most 60 s),
# or PID is gone.  True when the line came.
wait_for_line() {
	local _
	for _ in $(seq 600); do
		grep -qx -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || break
		sleep 0.1
	done
	grep -qx -- "$2" "$1" 2>/dev/null
}
