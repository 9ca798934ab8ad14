#!/usr/bin/env bash
# Bad options and input stop with a message naming the problem and a
# non-zero status, before any guest runs.
set -uo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
atalab=$ATALAB_ROOT/tools/atalab
work=$(mktemp -d "${TMPDIR:-/tmp}/atalab-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

# expect STATUS PATTERN -- atalab arguments...
expect() {
	local want=$1 pattern=$2 got=0
	shift 3
	"$atalab" "$@" >"$work/out" 2>&1 </dev/null || got=$?
	if [ "$got" != "$want" ] || ! grep -qE -- "$pattern" "$work/out"; then
		echo "FAIL: atalab $* exited $got (want $want), output:" >&2
		sed 's/^/  /' "$work/out" >&2
		echo "  (wanted a line matching: $pattern)" >&2
		failures=$((failures + 1))
	else
		echo "ok: atalab $* -> $got: $(head -n1 "$work/out")"
	fi
}

expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 1 "unknown option '--bogus'" -- run --bogus
expect 1 "option --timeout needs a value" -- run --timeout
expect 1 "--timeout wants a positive number of seconds, got 'soon'" -- run --timeout soon
expect 1 "--cable wants 40 or 80, got '50'" -- run --cable 50
expect 1 "--accel wants auto, tcg or kvm, got 'hvf'" -- run --accel hvf
expect 1 "--controller wants atalab, piix4-ide or none, got 'ahci'" -- run --controller ahci
expect 1 "--driver wants a module name, got 'a/b'" -- run --driver a/b
expect 1 "at most 4 --disk" -- run --disk a --disk b --disk c --disk d --disk e
expect 1 "ich5-sata has two SATA ports" -- run --model ich5-sata --disk a --disk b --disk c
expect 1 "--disk-size wants a size like 128M, got '12 parsecs'" -- run --disk-size '12 parsecs'
expect 1 "--kernel /nonexistent/bzImage: no such file" -- run --kernel /nonexistent/bzImage
expect 1 "build takes no arguments" -- build now
expect 1 "matrix: unknown personality 'ich6' \\(known: piix3 piix4 ich5-80 ich5-40 ich5-sata\\)" -- \
	matrix --personality ich6
expect 1 "--jobs wants a positive number, got '0'" -- matrix --jobs 0
expect 1 "matrix: unknown option '--fast'" -- matrix --fast
expect 2 "usage: atalab driver patches" -- driver
expect 1 "driver: unknown subcommand 'publish'" -- driver publish
expect 1 "--runs wants a positive number, got '0'" -- bench --runs 0
# QEMU refuses an unknown personality, naming the known ones.
expect 125 "unknown model 'pentium' \\(known: piix4, piix3, ich5, ich5-sata\\)" -- \
	run --quiet --log "$work/log" --disk "$work/d.img" --disk-size 1M --model pentium -- true
expect 125 "cable0 must be 40 or 80" -- \
	run --quiet --log "$work/log" --disk "$work/d.img" --disk-size 1M --device-opt cable0=60 -- true
# A bad fault rule file stops before any guest boots, naming the token.
printf 'unc drive=0 lba=100+8   # fine\nabrt cmd=0xzz\n' >"$work/bad.rules"
expect 1 "^$work/bad.rules:2:10: cmd wants an opcode \\(0x00-0xff\\), got '0xzz'$" -- \
	run --quiet --log "$work/log" --faults "$work/bad.rules" -- true
[ ! -s "$work/log" ] || { echo "FAIL: a guest booted with a bad rule file" >&2; failures=$((failures + 1)); }
printf 'unc drive=0 lbx=5\n' >"$work/bad2.rules"
expect 1 "bad2.rules:1:13: unknown key 'lbx'" -- run --faults "$work/bad2.rules" -- true
expect 1 "--fault-seed wants a non-negative number, got 'x'" -- run --fault-seed x
expect 2 "unknown subcommand 'zap'" -- fault zap
expect 2 "fault list needs --qmp SOCKET" -- fault list
[ "$failures" = 0 ] || { echo "$failures case(s) failed" >&2; exit 1; }
