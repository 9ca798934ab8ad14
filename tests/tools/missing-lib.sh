#!/usr/bin/env bash
# An incomplete checkout fails with the name of the missing library file
# instead of a confusing "command not found" later.
. "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/kit"
cp -r "$ATALAB_ROOT/tools" "$WORK/kit/"
rm "$WORK/kit/tools/lib/bench.sh"
rc=0
"$WORK/kit/tools/atalab" --help >"$WORK/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "atalab: error: missing library file $WORK/kit/tools/lib/bench.sh" "$WORK/out" &&
	ok "names the missing file" || bad "exit $rc: $(cat "$WORK/out")"
finish
