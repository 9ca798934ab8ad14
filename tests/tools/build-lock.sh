#!/usr/bin/env bash
# Two builds at once never race on the same cache: the second waits for the
# first (saying so), then finds the step done instead of building it again.
# (build_all itself, on the ata-pattern step, in a cache of its own.)
. "$(dirname "$0")/lib.sh"
export ATALAB_CACHE=$WORK/cache

one_build() {
	(
		load_atalab
		set -e
		setup_all() { :; }
		ATALAB_BUILD_STEPS=(guest_tools)
		build_all
	) >"$WORK/build$1.out" 2>&1
}
one_build 1 &
p1=$!
one_build 2 &
p2=$!
wait $p1 && wait $p2 && ok "both builds succeeded" || bad "a build failed: $(cat "$WORK"/build*.out)"
n=$(cat "$WORK"/build*.out | grep -c 'building ata-pattern$' || true)
[ "$n" = 1 ] && ok "ata-pattern was built once" || bad "ata-pattern was built $n times:
$(cat "$WORK"/build*.out)"
grep -q 'waiting for another atalab build (pid [0-9]*, atalab ' "$WORK"/build*.out &&
	ok "the waiting build said what it waits for" || bad "no waiting message: $(cat "$WORK"/build*.out)"
{ "$ATALAB_CACHE/guest-tools/ata-pattern" 2>&1 || true; } | grep -q usage && ok "the binary works" || bad "broken binary"
finish
