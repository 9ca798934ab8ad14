#!/usr/bin/env bash
# Arguments reach the guest intact; the command's stdout and stderr reach the
# host's, separately and without kernel log lines.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" -- sh -c 'echo "$1"' x 'a b'
[ "$(cat "$WORK/stdout")" = "a b" ] || fail "stdout is '$(cat "$WORK/stdout")', expected 'a b'"

expect_status 3 --disk "$WORK/disk.img" -- sh -c 'printf "%s|" "$@"; echo; echo to-stderr >&2; exit 3' \
	x "it's" '$HOME' '"q"' '' '*' 'back\slash' 'two  spaces'
want="it's|\$HOME|\"q\"||*|back\\slash|two  spaces|"
[ "$(cat "$WORK/stdout")" = "$want" ] || fail "stdout is '$(cat "$WORK/stdout")', expected '$want'"
[ "$(cat "$WORK/stderr")" = "to-stderr" ] || fail "stderr is '$(cat "$WORK/stderr")', expected 'to-stderr'"
grep -q 'Linux version' "$WORK/console.log" || fail "console log lacks the kernel banner"
