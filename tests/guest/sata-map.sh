#!/usr/bin/env bash
# ICH5 SATA port mapping (MAP, set by firmware: sata-map=N).  ata_piix reads
# the map and follows it: 001b swaps the ports between the channels'
# masters; 100b (combined) puts port 0 as master and port 1 as slave on the
# primary channel and leaves the secondary to the PATA side, which
# ata_piix drives as a PATA channel: its disk (the third --disk) is found
# there at UDMA/33 (a 40-wire cable), timed by ata_piix through this
# function's IDETIM with no violation.  Each disk is found where
# the map puts it, by its model string, and verified; the trace of the
# combined run replays on the core alone (its requests on the disks MAP
# routed, not on the positions).  atalab_piix follows
# 001b and refuses the combined map (docs/driver.md): no port is set up.
. "$(dirname "$0")/lib.sh"

# map_run DRIVER MAP COMMAND: a boot with port 0's disk 'PORT0 DISK' and
# port 1's 'PORT1 DISK', under firmware that leaves the ports off (the
# drivers' own PCS writes bring them up).
map_run() {
	expect_status 0 --model ich5-sata --device-opt sata-ports=off --driver "$1" --device-opt "sata-map=$2" \
		--device-opt "model0=PORT0 DISK" --device-opt "model2=PORT1 DISK" --trace "$WORK/trace" \
		--disk "$WORK/p0.img" --disk "$WORK/p1.img" --disk-size 16M -- sh -c "$3"
}
console_has() { grep -q -- "$1" "$WORK/console.log" || fail "$2: no '$1' in the console: $(grep -E 'MAP|ata[0-9]' "$WORK/console.log" | head -20)"; }

map_run ata_piix 4 'check-ata-devices "1.0:XFER_UDMA_6:PORT0 DISK" "1.1:XFER_UDMA_6:PORT1 DISK" &&
	pattern-rw /dev/$(blk-of 0) 4M 51 && pattern-rw /dev/$(blk-of 1) 4M 52'
cat "$WORK/stdout"
console_has 'MAP \[ P0 P1 IDE IDE \]' "combined 100b"
console_has 'ata1: SATA max UDMA/133' "combined 100b"
console_has 'ata2: PATA max UDMA/100' "combined 100b: the PATA side"
grep -qx '# sata-map 4' "$WORK/trace" || fail "no sata-map line in the trace header"
grep -q ' ata0 sata-port d1 port=1 up$' "$WORK/trace" || fail "port 1 never came up as the primary slave"
expect_clean_ata_log
"$ATALAB" trace replay "$WORK/trace" >"$WORK/replay.txt" 2>&1 || fail "the combined run does not replay: $(head -5 "$WORK/replay.txt")"
echo "ok: ata_piix, MAP 100b: both ports on the primary channel, the secondary PATA; $(head -1 "$WORK/replay.txt")"

# The PATA side's master behind the combined map
expect_status 0 --model ich5-sata --driver ata_piix --device-opt sata-map=4 \
	--device-opt "model0=PORT0 DISK" --device-opt "model2=PORT1 DISK" --device-opt "model1=PATA DISK" \
	--trace "$WORK/trace" --disk "$WORK/p0.img" --disk "$WORK/p1.img" --disk "$WORK/pata.img" --disk-size 16M -- \
	sh -c 'check-ata-devices "1.0:XFER_UDMA_6:PORT0 DISK" "1.1:XFER_UDMA_6:PORT1 DISK" "2.0:XFER_UDMA_2:PATA DISK" &&
	pattern-rw /dev/$(blk-of 2) 4M 57'
cat "$WORK/stdout"
grep -q ' ata1 timing-summary d0 checks=[1-9][0-9]* violations=0$' "$WORK/trace" ||
	fail "the PATA disk's transfers were not checked clean: $(grep 'timing-summary' "$WORK/trace")"
grep -q '^# drive1 sectors=' "$WORK/trace" || fail "the trace header lacks the PATA side's disk"
"$ATALAB" trace replay "$WORK/trace" >"$WORK/replay.txt" 2>&1 || fail "the PATA-side run does not replay: $(head -5 "$WORK/replay.txt")"
expect_clean_ata_log
echo "ok: ata_piix, MAP 100b: the PATA side's disk on the secondary channel, timed clean"

map_run ata_piix 1 'check-ata-devices "1.0:XFER_UDMA_6:PORT1 DISK" "2.0:XFER_UDMA_6:PORT0 DISK" &&
	pattern-rw /dev/$(blk-of 0) 4M 53 && pattern-rw /dev/$(blk-of 2) 4M 54'
console_has 'MAP \[ P1 -- P0 -- \]' "swapped 001b"
expect_clean_ata_log
echo "ok: ata_piix, MAP 001b: the ports swapped"

map_run atalab_piix 1 'check-ata-devices "1.0:XFER_UDMA_6:PORT1 DISK" "2.0:XFER_UDMA_6:PORT0 DISK" &&
	pattern-rw /dev/$(blk-of 0) 4M 55 && pattern-rw /dev/$(blk-of 2) 4M 56'
console_has 'MAP 0x1: SATA port 1 primary, 0 secondary' "atalab_piix, 001b"
expect_clean_ata_log
echo "ok: atalab_piix, MAP 001b: the ports swapped"

map_run atalab_piix 4 '! ls /sys/class/ata_port/ata* 2>/dev/null'
console_has 'MAP 0x4: combined mode is not supported' "atalab_piix, 100b"
! grep -q ' cfg w 0x92 ' "$WORK/trace" || fail "atalab_piix enabled ports under a combined map"
echo "ok: atalab_piix refuses MAP 100b and enables no port"
