#!/usr/bin/env bash
# A short libFuzzer run of the core (tools/atalab fuzz): no finding, and
# the fuzzer really ran.
set -euo pipefail
: "${ATALAB_ROOT:?run through meson (tools/atalab test)}"
out=$("$ATALAB_ROOT/tools/atalab" fuzz --time "${ATALAB_FUZZ_SMOKE_TIME:-45}") || {
	echo "$out"
	echo "FAIL: the fuzzer found something" >&2
	exit 1
}
echo "$out"
execs=$(sed -n 's/^executions: //p' <<<"$out")
[ "${execs:-0}" -gt 10000 ] || { echo "FAIL: only ${execs:-0} executions" >&2; exit 1; }
