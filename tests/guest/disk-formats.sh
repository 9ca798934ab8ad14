#!/usr/bin/env bash
# The format of an existing disk image is read from its content, not its
# name; FILE,format=FMT overrides; atalab says when it creates an image and
# when --disk-size does not apply; --disk none leaves a position empty.
. "$(dirname "$0")/lib.sh"
q=$WORK/q.img
"$QEMU_IMG" create -q -f qcow2 "$q" 64M
expect_status 0 --disk "$q" -- cat /sys/block/sda/size
[ "$(cat "$WORK/stdout")" = 131072 ] || fail "a qcow2 image named .img: the guest sees $(cat "$WORK/stdout") sectors, not 131072"
echo "ok: qcow2 named q.img is attached as qcow2 (131072 sectors)"
expect_status 0 --disk "$q,format=raw" -- cat /sys/block/sda/size
[ "$(cat "$WORK/stdout")" = $((($(stat -c %s "$q") + 511) / 512)) ] ||
	fail "format=raw: the guest sees $(cat "$WORK/stdout") sectors, not the container's"
echo "ok: $q,format=raw attaches the container as raw ($(cat "$WORK/stdout") sectors)"

# Messages (without --quiet): the image created, --disk-size not applying.
"$ATALAB" run --log "$WORK/console.log" --disk "$WORK/new.img" --disk-size 16M -- true \
	>"$WORK/stdout" 2>"$WORK/stderr" </dev/null || fail "run failed: $(cat "$WORK/stderr")"
grep -qx "atalab: created $WORK/new.img (raw, 16M)" "$WORK/stderr" || fail "no creation message: $(cat "$WORK/stderr")"
expect_status 0 --disk "$WORK/new.img" --disk-size 64M -- cat /sys/block/sda/size
grep -q "warning: --disk-size 64M does not apply to the existing $WORK/new.img (16 MiB): it keeps its size" "$WORK/stderr" ||
	fail "no --disk-size warning: $(cat "$WORK/stderr")"
[ "$(cat "$WORK/stdout")" = 32768 ] || fail "the existing image changed size: $(cat "$WORK/stdout")"
echo "ok: creation and --disk-size messages"

# none: the secondary master is the second disk, the primary slave empty.
expect_status 0 --disk "$WORK/a.img" --disk none --disk "$WORK/c.img" --disk-size 16M -- \
	sh -c 'for d in 1.0 1.1 2.0; do echo "$d $(cat /sys/class/ata_device/dev$d/class)"; done; readlink /sys/block/sdb'
grep -qx '1.0 ata' "$WORK/stdout" && grep -qx '1.1 unknown' "$WORK/stdout" && grep -qx '2.0 ata' "$WORK/stdout" ||
	fail "--disk none: devices $(cat "$WORK/stdout" | tr '\n' ' ')"
grep -q '/ata2/' "$WORK/stdout" || fail "sdb is not on the secondary channel: $(cat "$WORK/stdout")"
[ ! -e "$WORK/none" ] || fail "'none' created a file"
echo "ok: --disk none leaves the primary slave empty"
