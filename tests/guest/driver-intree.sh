#!/usr/bin/env bash
# driver/patches/ applies with git am to a pristine copy of the kernel
# tree, and the tree builds with atalab_piix =y and =m (tools/atalab driver
# intree; cached by the hash of the series and the config).  The =y kernel
# boots on the model with atalab_piix built in: it binds the controller
# without any module loaded, configures the disk, moves a verified
# pattern, and its built-in KUnit suite passes at boot.
. "$(dirname "$0")/lib.sh"
"$ATALAB" driver intree >"$WORK/intree" 2>"$WORK/intree.err" || {
	tail -n 30 "$WORK/intree.err" >&2
	fail "atalab driver intree failed"
}
cat "$WORK/intree"
kernel=$(sed -n 's/^kernel-y: //p' "$WORK/intree")
[ -f "$kernel" ] || fail "no =y kernel"

# The commits are the series' own, in order.
want=$(for m in "$ATALAB_ROOT"/driver/series/[0-9][0-9][0-9][0-9]-*.msg; do
	case "$m" in */0000-*) continue ;; esac
	sed '1,/^$/d' "$m" | head -n1
done)
have=$(sed -n 's/^commit: //p' "$WORK/intree")
[ "$have" = "$want" ] || fail "commits in the tree:
$have
wanted:
$want"

# =m: both modules, with the PCI IDs of the four functions.
for ko in atalab_piix atalab_piix_test; do
	grep -q "^module-m: .*/$ko.ko\$" "$WORK/intree" || fail "no =m module $ko.ko"
done
ko=$(sed -n 's/^module-m: \(.*\/atalab_piix.ko\)$/\1/p' "$WORK/intree")
modinfo -F alias "$ko" >"$WORK/aliases"
for id in 00007010 00007111 000024DB 000024D1; do
	grep -q "^pci:v00008086d${id}sv" "$WORK/aliases" || fail "atalab_piix.ko has no alias for 8086:$id"
done

# =y: boots with the driver built in.
expect_status 0 --kernel "$kernel" --driver none --disk "$WORK/disk.img" --disk-size 32M -- \
	sh -c '! grep -q "^atalab_piix " /proc/modules && probe && pattern-rw /dev/sda 4M 5'
cat "$WORK/stdout"
grep -q '^pci .*: 8086:7111 class 0x010180 driver atalab_piix$' "$WORK/stdout" ||
	fail "the built-in atalab_piix did not bind the controller"
grep -q '^ata1.00: ata device, configured for UDMA/33$' "$WORK/stdout" ||
	fail "the disk is not configured for UDMA/33"
grep -q 'pattern ok' "$WORK/stdout" || fail "pattern did not verify"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/disk.img" --size 4M --seed 5 ||
	fail "image does not hold the pattern"
grep -q 'Linux version' "$WORK/console.log" && ! grep -q 'loading out-of-tree module' "$WORK/console.log" ||
	fail "not the in-tree kernel"
expect_clean_ata_log
expect_kunit_pass atalab_piix_timing "$WORK/console.log"
