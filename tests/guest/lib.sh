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

# trace_grep ARGS... FILE: atalab trace grep; no match is not an error
# (a malformed trace still is).
trace_grep() { "$ATALAB" trace grep "$@" || [ $? = 1 ]; }
# trace_has ARGS... FILE: does a record match (atalab trace grep's
# filters)?  A malformed trace fails the test.
trace_has() {
	local rc=0
	"$ATALAB" trace grep --count "$@" >/dev/null || rc=$?
	[ $rc != 2 ] || fail "atalab trace grep $* failed"
	return $rc
}

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

# guest_bg [run options] -- command: boot a guest in the background with an
# HMP monitor on $WORK/monitor.sock; its stdout/stderr go to $WORK/stdout
# and $WORK/stderr.  Sets GUEST_PID.
MONITOR=$WORK/monitor.sock
guest_bg() {
	"$ATALAB" run --quiet --log "$WORK/console.log" \
		--qemu-arg -monitor --qemu-arg "unix:$MONITOR,server=on,wait=off" "$@" \
		>"$WORK/stdout" 2>"$WORK/stderr" &
	GUEST_PID=$!
}

# wait_for_output LINE [SECONDS]: until the background guest printed LINE.
wait_for_output() {
	local i
	for i in $(seq $((${2:-60} * 10))); do
		grep -qx -- "$1" "$WORK/stdout" 2>/dev/null && return 0
		kill -0 "$GUEST_PID" 2>/dev/null || break
		sleep 0.1
	done
	grep -qx -- "$1" "$WORK/stdout" || fail "guest never printed '$1': $(cat "$WORK/stderr")"
}

# hmp COMMAND...: run HMP commands on the background guest's monitor.
hmp() {
	"$(dirname "${BASH_SOURCE[0]}")/hmp" "$MONITOR" "$@"
}

# The guest's drive positions the I/O tests run on: a master, a slave, and
# the secondary channel.
IO_POSITIONS="0 1 2"
io_disks() {
	local p
	for p in $IO_POSITIONS; do
		printf -- '--disk\n%s\n' "$WORK/disk$p.img"
	done
}

# qemu ARGS...: the kit's QEMU with the firmware search path, no guest
# kernel: for tests of the device itself (realize checks, reset).
QEMU_BUILD=${ATALAB_CACHE:-$HOME/.cache/atalab}/qemu/build
QEMU=("$QEMU_BUILD/qemu-system-x86_64" -L "$QEMU_BUILD/pc-bios/optionrom"
	-L /usr/share/seabios -M q35 -nodefaults -display none)

# expect_kunit_pass SUITE LOG: the kernel log LOG holds the KTAP results of
# KUnit suite SUITE, every case and parameter passed, none was skipped, and
# the suite's plan was run in full.  The results are printed.  (awk reads
# the whole log: exiting early would kill sed with SIGPIPE under pipefail.)
expect_kunit_pass() {
	local suite=$1 log=$2 ktap
	ktap=$(sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "$log" | awk -v suite="$suite" '
		done { next }
		$0 ~ "^ *# Subtest: " suite "$" { on = 1 }
		on { print }
		on && $0 ~ "^ *(not )?ok [0-9]+ " suite "$" { done = 1 }')
	[ -n "$ktap" ] || fail "no KTAP results of KUnit suite $suite in the kernel log"
	printf '%s\n' "$ktap" | grep -E '^ *(not ok|ok) |^ *# .*(pass|fail):' | sed 's/^/  /'
	printf '%s\n' "$ktap" | tail -n1 | grep -Eq "^ *ok [0-9]+ $suite\$" ||
		fail "KUnit suite $suite did not pass:
$(printf '%s\n' "$ktap" | grep -E -B8 '^ *not ok ' || printf '%s\n' "$ktap" | tail -n 5)"
	! printf '%s\n' "$ktap" | grep -Eq '^ *not ok |# SKIP' ||
		fail "KUnit suite $suite has failed or skipped cases"
	local plan cases
	plan=$(printf '%s\n' "$ktap" | sed -n '2s/^ *1\.\.\([0-9]*\)$/\1/p')
	cases=$(printf '%s\n' "$ktap" | grep -Ec '^    ok [0-9]+ ')
	[ -n "$plan" ] && [ "$plan" -gt 0 ] && [ "$plan" = "$cases" ] ||
		fail "KUnit suite $suite: plan '${plan:-none}', $cases cases passed"
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
	# Under --kernel-patch the links are a variant's builds: the private
	# cache is that variant's (tools/lib/kernel-patch.sh).
	if [ -n "${ATALAB_KERNEL_VARIANT:-}" ]; then
		export ATALAB_CACHE_ROOT=$WORK/cache ATALAB_CACHE_CHOSEN=$WORK/cache ATALAB_KERNEL_VARIANT=$WORK/cache
	fi
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
