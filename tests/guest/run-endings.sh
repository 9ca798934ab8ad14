#!/usr/bin/env bash
# A run that ends without a status says which way it ended, also when not
# on a terminal: QEMU refused to start (its message), the kernel panicked
# (the panic and the last console lines), or the console stayed empty.  A
# run says which accelerator it chose.
. "$(dirname "$0")/lib.sh"
expect_status 125 --disk "$WORK/d.img" --disk-size 16M --qemu-arg -no-such-option -- true
grep -q '^atalab: QEMU refused to start (exit 1):$' "$WORK/stderr" &&
	grep -q 'qemu: .*-no-such-option: invalid option' "$WORK/stderr" || fail "refusal: $(cat "$WORK/stderr")"
echo "ok: QEMU's refusal is shown"

expect_status 125 --disk "$WORK/d.img" --append rdinit=/no/such/init -- true
grep -q '^atalab: the guest kernel panicked:$' "$WORK/stderr" &&
	grep -q 'Kernel panic - not syncing: VFS: Unable to mount root fs' "$WORK/stderr" &&
	grep -q '^atalab: last console lines:$' "$WORK/stderr" &&
	grep -q 'Kernel Offset' "$WORK/stderr" || fail "panic: $(cat "$WORK/stderr")"
echo "ok: the panic and the last console lines are shown"

# -m 32M (past --memory's minimum, through a raw QEMU argument).
expect_status 125 --disk "$WORK/d.img" --qemu-arg -m --qemu-arg 32M -- true
grep -q '^atalab: the guest printed nothing on its console: its kernel never started' "$WORK/stderr" ||
	fail "empty console: $(cat "$WORK/stderr")"
echo "ok: an empty console is named"

"$ATALAB" run --log "$WORK/console.log" --disk "$WORK/d.img" -- true >"$WORK/stdout" 2>"$WORK/stderr" </dev/null ||
	fail "run failed: $(cat "$WORK/stderr")"
grep -Eq '^atalab: accelerator: (tcg|kvm) \(.+\)$' "$WORK/stderr" || fail "no accelerator line: $(cat "$WORK/stderr")"
echo "ok: $(grep accelerator "$WORK/stderr")"
