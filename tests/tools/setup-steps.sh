#!/usr/bin/env bash
# setup's steps on a machine that lacks things, with apt-get replaced by a
# fake that records its calls: a missing package is installed (after an
# update), the QEMU source is fetched and unpacked into the cache and its
# version checked, and a failing apt-get stops setup with its log named.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { bad "needs root (as tools/atalab test runs)"; finish; }
load_atalab
set -e
export ATALAB_CACHE=$WORK/cache
fake=$WORK/bin
mkdir -p "$fake"
cat >"$fake/apt-get" <<'FAKE'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_LOG"
case "$*" in
"source --only-source qemu")
	[ "${FAKE_FAIL:-}" = source ] && { echo "E: no source" >&2; exit 100; }
	mkdir -p "qemu-${FAKE_VERSION}+dfsg" && echo "$FAKE_VERSION" >"qemu-${FAKE_VERSION}+dfsg/VERSION" ;;
esac
FAKE
chmod +x "$fake/apt-get"
export PATH=$fake:$PATH FAKE_LOG=$WORK/calls FAKE_VERSION=7.2.0
set +e

ATALAB_PACKAGES+=(atalab-no-such-package)
(setup_host) >"$WORK/out" 2>&1
grep -qx 'apt-get update' "$WORK/calls" && grep -qx 'apt-get install -y --no-install-recommends atalab-no-such-package' "$WORK/calls" &&
	ok "a missing package: apt-get update, then install of just it" ||
	bad "apt-get calls: $(cat "$WORK/calls"); output: $(cat "$WORK/out")"
unset 'ATALAB_PACKAGES[-1]'

: >"$WORK/calls"
if (setup_qemu_source) >"$WORK/out" 2>&1 && [ -f "$(qemu_source_dir)/.atalab-unpacked" ] &&
	[ "$(cat "$(qemu_source_dir)/VERSION")" = 7.2.0 ]; then
	ok "the QEMU source is fetched and unpacked into the cache"
else
	bad "setup_qemu_source: $(cat "$WORK/out")"
fi
(setup_qemu_source) >"$WORK/out" 2>&1 && [ "$(wc -l <"$WORK/calls")" = 1 ] &&
	ok "an unpacked source is not fetched again" || bad "fetched again: $(cat "$WORK/calls")"

rm -rf "$(qemu_source_dir)"
(FAKE_VERSION=8.0.0 setup_qemu_source) >"$WORK/out" 2>&1 && bad "accepted QEMU 8.0" ||
	{ grep -q "qemu source is 8.0.0, atalab needs 7.2" "$WORK/out" && ok "another QEMU version is refused" ||
		bad "unclear refusal: $(cat "$WORK/out")"; }
(FAKE_FAIL=source setup_qemu_source) >"$WORK/out" 2>&1 && bad "a failing apt-get source passed" ||
	{ grep -q "fetching the Debian qemu source package failed: apt-get source --only-source qemu .*apt-source.log" "$WORK/out" &&
		ok "a failing apt-get source stops setup, naming its log" || bad "unclear failure: $(cat "$WORK/out")"; }
finish
