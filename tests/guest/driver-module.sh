#!/usr/bin/env bash
# driver/ is built against the guest kernel and --driver loads it: the
# module is live in the guest before the command runs.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" --driver ata_atalab -- \
	sh -c 'grep "^ata_atalab " /proc/modules && ! grep -q "^ata_piix " /proc/modules'
grep -q '^ata_atalab .* Live ' "$WORK/stdout" || fail "ata_atalab not live: $(cat "$WORK/stdout")"
# A module that does not exist makes the run fail with init's message.
expect_status 125 --disk "$WORK/disk.img" --driver no_such_module -- true
grep -q 'modprobe no_such_module failed' "$WORK/stderr" || fail "no modprobe message: $(cat "$WORK/stderr")"
