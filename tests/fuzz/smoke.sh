#!/usr/bin/env bash
# A short libFuzzer run of the core (tools/atalab fuzz): no finding, and
# the fuzzer really ran: it reached its count of executions (past the
# seeds and the corpus it loads first), which does not depend on how
# loaded the machine is; --time only bounds a fuzzer that stalls.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
runs=${ATALAB_FUZZ_SMOKE_RUNS:-5000}
out=$("$ATALAB_ROOT/tools/atalab" fuzz --runs "$runs" --time 200) || {
	echo "$out"
	echo "FAIL: the fuzzer found something" >&2
	exit 1
}
echo "$out"
execs=$(sed -n 's/^executions: //p' <<<"$out")
[ "${execs:-0}" -ge "$runs" ] ||
	{ echo "FAIL: only ${execs:-0} of $runs executions" >&2; exit 1; }
