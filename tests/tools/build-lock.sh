#!/usr/bin/env bash
# Two builds at once never race on the same cache: the second waits for the
# first (saying so), then finds the step done instead of building it again.
# (build_all itself, on the ata-pattern step, in a cache of its own.)
. "$(dirname "$0")/lib.sh"
export ATALAB_CACHE=$WORK/cache

one_build() {     # in the background: this subshell's hold is not the build's
	exec {held}>&-
	(
		load_atalab
		set -e
		setup_all() { :; }
		ATALAB_BUILD_STEPS=(guest_tools)
		build_all
	) >"$WORK/build$1.out" 2>&1
}
# A build already holds the lock when both start; both wait for it.
mkdir -p "$ATALAB_CACHE/locks"
exec {held}>>"$ATALAB_CACHE/locks/build.lock"
flock "$held"
echo "pid $$, atalab test, since now" >"$ATALAB_CACHE/locks/build.lock"
one_build 1 &
p1=$!
one_build 2 &
p2=$!
# The lock goes once both builds say they wait for it (bounded, no fixed
# wait a loaded host could outlast).
for _ in $(seq 1200); do
	[ "$(grep -l "waiting for another atalab build" "$WORK"/build*.out 2>/dev/null | wc -l)" -lt 2 ] || break
	sleep 0.1
done
exec {held}>&-
wait $p1 && wait $p2 && ok "both builds succeeded" || bad "a build failed: $(cat "$WORK"/build*.out)"
n=$(cat "$WORK"/build*.out | grep -c 'building ata-pattern$' || true)
[ "$n" = 1 ] && ok "ata-pattern was built once" || bad "ata-pattern was built $n times:
$(cat "$WORK"/build*.out)"
[ "$(grep -l "waiting for another atalab build (pid $$, atalab test, since now; lock: " "$WORK"/build*.out | wc -l)" = 2 ] &&
	ok "the waiting builds said what they wait for" || bad "no waiting messages: $(cat "$WORK"/build*.out)"
{ "$ATALAB_CACHE/guest-tools/ata-pattern" 2>&1 || true; } | grep -q usage && ok "the binary works" || bad "broken binary"
finish
