#!/usr/bin/env bash
# The timing check works: on ICH5 with an 80-wire cable ata_piix runs the
# disk at UDMA/100 without violations; then the guest clears FAST_PCB0
# (IDE_CONFIG bit 12, config byte 0x55 bit 4) from userspace through sysfs,
# and the next DMA reads of the drive (still in UDMA mode 5) are recorded as
# "udma-timing" violations with the register, expected and actual values.
# Not strict: the data still arrives and verifies.  With strict=on the same
# write makes the next read fail with an interface CRC error (ICRC|ABRT);
# libata's error handler resets the channel and sets the transfer mode again,
# which rewrites IDE_CONFIG correctly, and the retried reads verify.
. "$(dirname "$0")/personality-lib.sh"

# shellcheck disable=SC2016 # expanded by the guest shell
poke='v=$(pci-config read 0x55) && pci-config write 0x55 $((v & ~0x10)) &&'
expect_status 0 --model ich5 --cable 80 --trace "$TRACE" --disk "$WORK/disk.img" \
	--disk-size 32M -- sh -c \
	"check-ata-devices '1.0:XFER_UDMA_5:ATALAB HARDDISK' &&
	 ata-pattern write /dev/sda --size 8M --seed 3 --direct &&
	 $poke ata-pattern verify /dev/sda --size 8M --seed 3 --direct"
cat "$WORK/stdout"
v=$(trace_violations)
[ -n "$v" ] || fail "no violation recorded after the wrong timing write"
echo "$v" | head -n3
bad=$(echo "$v" | grep -v ' ata0 violation d0 udma-timing reg=IDE_CONFIG expected=udma5 actual=udma1(ct=1,clk=33) xfer=dma seq=[0-9]*$' || true)
[ -z "$bad" ] || fail "unexpected violation records:
$bad"
# The write came before the violations: the pattern write was clean.
first_write=$(awk '$2 == "cfg" && $3 == "w" && $4 == "0x55" {print NR; exit}' "$TRACE")
first_viol=$(awk '$3 == "violation" {print NR; exit}' "$TRACE")
if [ -z "$first_write" ] || [ "$first_write" -gt "$first_viol" ]; then
	fail "violation before the config write (write at line $first_write, violation at $first_viol)"
fi
n=$(echo "$v" | wc -l)
[ "$(summary_field ata0 d0 violations)" = "$n" ] ||
	fail "timing-summary does not count $n violations: $(grep timing-summary "$TRACE")"
expect_clean_ata_log

# strict=on: the mis-timed Ultra DMA read ends with ICRC; libata recovers.
expect_status 0 --model ich5 --cable 80 --trace "$TRACE" --disk "$WORK/disk.img" \
	--device-opt strict=on -- sh -c \
	"$poke ata-pattern verify /dev/sda --size 8M --seed 3 --direct; cat /sys/class/ata_device/dev1.0/xfer_mode"
cat "$WORK/stdout"
trace_has --kind error --source ata0 --dev 0 --word ICRC "$TRACE" ||
	fail "strict: no ICRC error in the trace"
grep -Eq 'ata1\.00: .*ICRC' "$WORK/console.log" || fail "strict: the guest saw no ICRC error"
grep -q 'pattern ok' "$WORK/stdout" || fail "strict: the data did not verify after libata recovered"
