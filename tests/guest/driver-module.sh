#!/usr/bin/env bash
# driver/ is built against the guest kernel and --driver loads it: with
# --driver atalab_piix the module is live before the command runs, ata_piix
# is not loaded, and atalab_piix is the driver of the IDE function and of
# the disk it found.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" --driver atalab_piix -- \
	sh -c 'grep "^atalab_piix " /proc/modules && ! grep -q "^ata_piix " /proc/modules && probe'
cat "$WORK/stdout"
grep -q '^atalab_piix .* Live ' "$WORK/stdout" || fail "atalab_piix not live: $(cat "$WORK/stdout")"
grep -q '^pci .*: 8086:7111 class 0x010180 driver atalab_piix$' "$WORK/stdout" ||
	fail "the IDE function is not bound to atalab_piix"
grep -q '^ata1.00: ata device, configured for UDMA/33$' "$WORK/stdout" ||
	fail "atalab_piix did not configure the disk for UDMA/33"
expect_clean_ata_log
# A module that does not exist makes the run fail with init's message.
expect_status 125 --disk "$WORK/disk.img" --driver no_such_module -- true
grep -q 'modprobe no_such_module failed' "$WORK/stderr" || fail "no modprobe message: $(cat "$WORK/stderr")"
