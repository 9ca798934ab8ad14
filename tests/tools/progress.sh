#!/usr/bin/env bash
# Long build steps show progress: on a terminal one line rewritten in place
# with the step number, the tool's step count and the elapsed time; without
# a terminal plain lines only.  The step's output lands in its log, and a
# failing step shows the log's tail and fails.
. "$(dirname "$0")/lib.sh"
cat >"$WORK/fake-ninja" <<'NINJA'
#!/bin/sh
for i in 1 2 3 4 5; do echo "[$i/5] Compiling C object obj$i.o"; sleep 0.4; done
NINJA
chmod +x "$WORK/fake-ninja"
cat >"$WORK/step.sh" <<STEP
. "$ATALAB_ROOT/tools/lib/common.sh"
. "$ATALAB_ROOT/tools/lib/progress.sh"
ATALAB_STEP=2 ATALAB_STEPS=3
run_logged "$WORK/step.log" "building fake" "$WORK/fake-ninja"
STEP

# Not a terminal: plain lines, no carriage returns.
bash "$WORK/step.sh" 2>"$WORK/plain.err"
grep -qx 'atalab: \[2/3\] building fake' "$WORK/plain.err" && ok "plain: a start line" || bad "plain: no start line: $(cat "$WORK/plain.err")"
grep -qx 'atalab: \[2/3\] building fake: done in [0-9]*s' "$WORK/plain.err" && ok "plain: an end line" || bad "plain: no end line"
! grep -q $'\r' "$WORK/plain.err" && ok "plain: no carriage returns" || bad "plain output rewrites lines"
grep -q '^\[5/5\] Compiling C object obj5.o$' "$WORK/step.log" && ok "the output is in the log" || bad "log lacks the output"

# A terminal (script gives the step a pty): the counts on one updating line.
TERM=xterm script -qefc "bash '$WORK/step.sh'" /dev/null >"$WORK/tty.out" 2>&1 </dev/null
grep -q $'\ratalab: \\[2/3\\] building fake: [0-9]/5 ([0-9]*s)\e\\[K' "$WORK/tty.out" &&
	ok "terminal: the step and ninja's counts on a rewritten line" || bad "terminal: no updating line: $(cat -v "$WORK/tty.out")"
[ "$(grep -c 'building fake' "$WORK/tty.out")" -le 2 ] && ok "terminal: one line, not one per step" ||
	bad "terminal: too many lines: $(cat -v "$WORK/tty.out")"

# A failing step: the tail of its log, a message naming it, failure.
cat >"$WORK/fail.sh" <<STEP
. "$ATALAB_ROOT/tools/lib/common.sh"
. "$ATALAB_ROOT/tools/lib/progress.sh"
run_logged "$WORK/fail.log" "building broken" sh -c 'echo "error: no such file"; exit 3'
echo "not reached"
STEP
rc=0
bash "$WORK/fail.sh" >"$WORK/fail.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && ok "a failing step fails the build" || bad "failing step: exit $rc"
grep -q '^error: no such file$' "$WORK/fail.out" && grep -q 'building broken failed: .*(exit 3; full log: ' "$WORK/fail.out" &&
	! grep -q 'not reached' "$WORK/fail.out" && ok "its log tail and a message are shown" ||
	bad "failure output: $(cat "$WORK/fail.out")"
finish
