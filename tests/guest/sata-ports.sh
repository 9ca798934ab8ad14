#!/usr/bin/env bash
# ICH5 SATA with atalab_piix: under firmware that leaves the ports off
# (sata-ports=off) it reads MAP, enables both ports in PCS and finds a
# disk on each present port (UDMA/133), verified, no violation; under the
# default firmware, which enabled them, it finds the same disks.
# With only port 0 attached (ports off) it does not touch the empty secondary channel
# after enabling the ports: no command block write, no SRST (ata_piix does
# run its device check there: the reference, asserted).  A combined MAP
# value (1xxb) is refused with a message and no port is set up.
. "$(dirname "$0")/personality-lib.sh"
ident='ATALAB HARDDISK'

expect_status 0 --model ich5-sata --device-opt sata-ports=off --driver atalab_piix --trace "$TRACE" \
	--disk "$WORK/p0.img" --disk "$WORK/p1.img" --disk-size 16M -- sh -c \
	"check-ata-devices '1.0:XFER_UDMA_6:$ident' '2.0:XFER_UDMA_6:$ident' &&
	 pattern-rw /dev/sda 4M 21 && pattern-rw /dev/sdb 4M 22"
cat "$WORK/stdout"
grep -q 'MAP 0x0: SATA port 0 primary, 1 secondary' "$WORK/console.log" ||
	fail "atalab_piix did not report MAP 000b"
grep -Eq '^[0-9]+ cfg w 0x92 2 0x[0-9a-f]{2}03 reg=PCS$' "$TRACE" || fail "the ports were not enabled in PCS"
grep -q ' ata1 sata-port d0 port=1 up$' "$TRACE" || fail "port 1 never came up"
expect_clean_ata_log
expect_no_violations "ata0 d0" "ata1 d0"
# The default firmware enabled both ports before the driver loaded.
expect_status 0 --model ich5-sata --driver atalab_piix --trace "$TRACE" \
	--disk "$WORK/p0.img" --disk "$WORK/p1.img" -- \
	check-ata-devices "1.0:XFER_UDMA_6:$ident" "2.0:XFER_UDMA_6:$ident"
grep -q '^# sata-ports 3$' "$TRACE" || fail "the header does not say the firmware enables both ports"
# Both ports came up before any PCS write (the firmware's, not the driver's).
awk '$2 == "cfg" && $3 == "w" && $4 == "0x92" { exit } / sata-port d0 port=[01] up$/ { n++ } END { exit n != 2 }' \
	"$TRACE" || fail "the ports did not come up before the driver wrote PCS: $(grep -E 'sata-port|0x92' "$TRACE" | head -6)"
expect_clean_ata_log

# empty_channel_writes: command block writes and SRSTs of the secondary
# channel after the first PCS write (the firmware's probing comes before);
# Device Control bit 2 is SRST.
empty_channel_writes() {
	awk '$2 == "cfg" && $3 == "w" && $4 == "0x92" { on = 1 }
		on && (($2 == "ata1" && $3 == "w") ||
		       ($2 == "ctl1" && $3 == "w" && $6 ~ /[4-7c-f]$/))' "$TRACE"
}
for driver in atalab_piix ata_piix; do
	expect_status 0 --model ich5-sata --device-opt sata-ports=off --driver $driver --trace "$TRACE" \
		--disk "$WORK/p0.img" -- check-ata-devices "1.0:XFER_UDMA_6:$ident"
	expect_clean_ata_log
	expect_no_violations "ata0 d0"
	n=$(empty_channel_writes | wc -l)
	echo "$driver: $n writes to the empty channel"
	if [ $driver = atalab_piix ]; then
		[ "$n" = 0 ] || fail "atalab_piix probed the empty channel:
$(empty_channel_writes | head)"
	else
		[ "$n" -gt 0 ] || fail "ata_piix no longer probes the empty channel (reference changed)"
	fi
done

# Combined mode: refused.
expect_status 0 --model ich5-sata --driver none --disk "$WORK/p0.img" -- sh -c \
	'pci-config write 0x90 4 >/dev/null && modprobe atalab_piix && ! ls /sys/class/ata_port/ata*'
grep -q 'atalab_piix .*MAP 0x4: combined mode is not supported' "$WORK/console.log" ||
	fail "no message refusing the combined MAP"
