#!/usr/bin/env bash
# build_all checks every step's key once per command: the atalab processes
# it starts (a test run's guests, a matrix's boots) find the build verified
# for the same tree, cache, kernel variant and steps, and check nothing;
# another cache or variant is checked; tools/atalab build always checks;
# a build that had to run marks it verified too.
. "$(dirname "$0")/lib.sh"
load_atalab
export ATALAB_CACHE=$WORK/cache
unset ATALAB_BUILD_VERIFIED ATALAB_KERNEL_GCOV
checks=0 built=""
setup_is_done() { return 0; }
setup_all() { :; }
msg() { :; }
for step in "${ATALAB_BUILD_STEPS[@]}"; do
	eval "build_${step}_fresh() { checks=\$((checks + 1)); [ \"\${stale_step:-}\" != $step ]; }"
	eval "build_${step}() { built=\"\$built $step\"; stale_step=; }"
done
n=${#ATALAB_BUILD_STEPS[@]}

build_all
[ "$checks" = "$n" ] && ok "the first build_all checks the $n steps" || bad "first: $checks checks"
[ "${ATALAB_BUILD_VERIFIED:-}" = "$(build_verified_token)" ] &&
	ok "and marks the build verified for its children" || bad "not exported: '${ATALAB_BUILD_VERIFIED:-}'"
build_all
[ "$checks" = "$n" ] && ok "a second build_all (a child's) checks nothing" || bad "second: $checks checks"
got=$(bash -c 'echo "$ATALAB_BUILD_VERIFIED"')
[ "$got" = "$(build_verified_token)" ] && ok "a child process sees it" || bad "child sees '$got'"

checks=0
ATALAB_CACHE=$WORK/other build_all
[ "$checks" = "$n" ] && ok "another cache is checked" || bad "another cache: $checks checks"
export ATALAB_BUILD_VERIFIED=$(build_verified_token)
checks=0
ATALAB_KERNEL_GCOV=1 build_all
[ "$checks" = "$n" ] && ok "another kernel variant is checked" || bad "gcov variant: $checks checks"
export ATALAB_CACHE=$WORK/cache ATALAB_BUILD_VERIFIED=$(build_verified_token)
checks=0
cmd_build >/dev/null 2>&1
[ "$checks" = "$n" ] && ok "tools/atalab build checks even when verified" || bad "build: $checks checks"

unset ATALAB_BUILD_VERIFIED
checks=0 built="" stale_step=kernel
build_all
[ "$built" = " kernel" ] && ok "a stale step is built" || bad "built:$built"
[ "${ATALAB_BUILD_VERIFIED:-}" = "$(build_verified_token)" ] &&
	ok "and the build is then verified" || bad "not verified after a build"
finish
