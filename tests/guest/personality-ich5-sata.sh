#!/usr/bin/env bash
# ICH5 SATA (8086:24D1) in IDE mode, MAP 00b: SATA port 0 is the primary
# master, port 1 the secondary master.  Under firmware that leaves the
# ports off (sata-ports=off, PCS as at power-on) ata_piix enables them,
# finds a disk on each present port (UDMA/133, a SATA drive), moves a
# verified 16 MiB on each, and no timing violation is reported.  With only
# port 0 attached, no command reaches the absent port or a slave position
# (ata_piix still runs the SFF device check on the empty channel: its
# registers float to 7Fh).
. "$(dirname "$0")/personality-lib.sh"

ident='ATALAB HARDDISK'
expect_status 0 --model ich5-sata --device-opt sata-ports=off --trace "$TRACE" --disk "$WORK/p0.img" \
	--disk "$WORK/p1.img" --disk-size 32M -- sh -c \
	"check-ata-devices '1.0:XFER_UDMA_6:$ident' '2.0:XFER_UDMA_6:$ident' &&
	 pattern-rw /dev/sda 16M 21 && pattern-rw /dev/sdb 16M 22"
cat "$WORK/stdout"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/p0.img" --size 16M --seed 21 ||
	fail "port 0 image does not hold the pattern"
"$ATALAB_CACHE_BIN"/ata-pattern verify "$WORK/p1.img" --size 16M --seed 22 ||
	fail "port 1 image does not hold the pattern"
# An access record's fields 3-6 are its direction, offset, size and value.
trace_grep --kind ACCESS --source cfg --key reg=PCS "$TRACE" |
	awk '$3 == "w" && $4 == "0x92" && $5 == 2 && $6 ~ /03$/ { found = 1 } END { exit !found }' ||
	fail "the driver did not enable the ports in PCS"
trace_has --kind sata-port --source ata0 --dev 0 --key port=0 --word up "$TRACE" ||
	fail "port 0 never came up"
trace_has --kind sata-port --source ata1 --dev 0 --key port=1 --word up "$TRACE" ||
	fail "port 1 never came up"
grep -q 'MAP \[ P0 -- P1 -- \]' "$WORK/console.log" || fail "ata_piix did not read MAP 00b"
expect_clean_ata_log
expect_no_violations "ata0 d0" "ata1 d0"

# Port 0 only (ports off: under the default firmware SeaBIOS itself probes
# port 0's channel, slave position included).
expect_status 0 --model ich5-sata --device-opt sata-ports=off --trace "$TRACE" --disk "$WORK/p0.img" -- \
	check-ata-devices "1.0:XFER_UDMA_6:$ident"
cat "$WORK/stdout"
[ -z "$(trace_grep --kind sata-port --source ata1 "$TRACE")" ] || fail "absent port 1 came up"
others=$(trace_grep --kind cmd "$TRACE" | { grep -v '^[0-9]* ata0 cmd d0 ' || true; })
[ -z "$others" ] || fail "commands to absent positions:
$others"
absent=$(trace_grep --kind ignored "$TRACE")
[ -z "$absent" ] || fail "commands ignored by absent devices:
$absent"
expect_clean_ata_log
expect_no_violations "ata0 d0"
