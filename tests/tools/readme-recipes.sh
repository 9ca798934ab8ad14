#!/usr/bin/env bash
# Every README recipe works as written: each ```sh block of README.md runs
# as a script in a scratch folder (tools/atalab and traces/golden there
# are the checkout's), must succeed, and prints every line a "# prints: TEXT"
# comment promises.  A job a block leaves in the background must end, and
# end well, by the block's end (a block ends a job it stops on purpose by
# waiting for it and saying what it returned).
# Blocks run one after another in a private cache (the recipes use the
# default disk and log).
. "$(dirname "$0")/lib.sh"
. "$ATALAB_ROOT/tests/guest/lib.sh"
WORK_TOOLS=$WORK
private_cache
awk -v dir="$WORK_TOOLS" '
	/^```sh$/ { n++; on = 1; f = dir "/block" n ".sh"; print "set -euo pipefail" >f; next }
	/^```/ { if (on) { print "for j in $(jobs -p); do wait \"$j\"; done" >>f }; on = 0; next }
	on { print >>f }
' "$ATALAB_ROOT/README.md"
blocks=$(ls "$WORK_TOOLS"/block*.sh 2>/dev/null | wc -l)
[ "$blocks" -ge 4 ] && ok "$blocks runnable recipe blocks in README.md" || bad "only $blocks sh blocks found"
for ((i = 1; i <= blocks; i++)); do
	b=$WORK_TOOLS/block$i.sh
	d=$WORK_TOOLS/run$i
	mkdir -p "$d"
	ln -s "$ATALAB_ROOT/tools" "$d/tools"
	mkdir "$d/traces"
	ln -s "$ATALAB_ROOT/traces/golden" "$d/traces/golden"
	t0=$SECONDS
	rc=0
	(cd "$d" && bash "$b") >"$d.out" 2>"$d.err" </dev/null || rc=$?
	first=$(grep -m1 'tools/atalab' "$b")
	if [ "$rc" != 0 ]; then
		bad "recipe block $i ($first) exited $rc:"
		sed 's/^/  | /' "$d.err" | tail -n 15 >&2
		continue
	fi
	while IFS= read -r want; do
		grep -qxF -- "$want" "$d.out" && ok "block $i prints: $want" ||
			bad "block $i does not print '$want'; it printed: $(head -c 600 "$d.out")"
	done < <(sed -n 's/.*# prints: \(.*\)$/\1/p' "$b")
	ok "recipe block $i ($first) in $((SECONDS - t0)) s"
done
finish
