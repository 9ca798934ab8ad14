#!/usr/bin/env bash
# The drive's model, serial and firmware-revision properties reach the guest
# in IDENTIFY DEVICE.
. "$(dirname "$0")/lib.sh"
expect_status 0 --disk "$WORK/disk.img" --disk "$WORK/disk1.img" --disk-size 16M \
	--device-opt "model0=Example Disk 2000" --device-opt serial0=AB-123 \
	--device-opt fwrev0=7.1 --device-opt "model1=Second" -- \
	sh -c 'identify-strings 1.0 && identify-strings 1.1'
want="serial=AB-123
fwrev=7.1
model=Example Disk 2000"
[ "$(head -n3 "$WORK/stdout")" = "$want" ] || fail "drive 0 reports: $(cat "$WORK/stdout")"
[ "$(sed -n 6p "$WORK/stdout")" = "model=Second" ] || fail "drive 1 reports: $(cat "$WORK/stdout")"
