#!/usr/bin/env bash
# ICH5 PATA cable detection of atalab_piix: the BIOS cable reports in
# IDE_CONFIG (bits 7:4) and the drives' IDENTIFY word 93 must both say 80
# wires for Ultra DMA above mode 2.  Four disks, no libata.force:
#   80-wire cable, reports set (as firmware leaves them): UDMA/100;
#   40-wire cable: UDMA/33;
#   40-wire cable, reports set by a lying BIOS: UDMA/33 (word 93 says 40);
#     ata_piix trusts the reports and runs UDMA/100 on the 40-wire cable,
#     which the model reports as udma-40-wire (the reference, asserted);
#   80-wire cable, reports cleared: UDMA/33 with both drivers.
# Every atalab_piix run moves a verified pattern without a violation.
. "$(dirname "$0")/personality-lib.sh"

# shellcheck disable=SC2016 # expanded by the guest shell
set_reports='v=$(pci-config read 0x54) && pci-config write 0x54 $((v | 0xf0)) >/dev/null &&'
# shellcheck disable=SC2016
clear_reports='v=$(pci-config read 0x54) && pci-config write 0x54 $((v & 0x0f)) >/dev/null &&'

# cable_run CABLE DRIVER MODE POKE: boot ich5 with CABLE, apply POKE, load
# DRIVER, expect all four disks in MODE.
cable_run() {
	local cable=$1 driver=$2 mode=$3 poke=$4 i
	local -a disks=() specs=()
	for i in 0 1 2 3; do
		disks+=(--disk "$WORK/disk$i.img")
		specs+=("$((i / 2 + 1)).$((i % 2)):$mode:ATALAB HARDDISK")
	done
	expect_status 0 --model ich5 --cable "$cable" --driver none --trace "$TRACE" \
		--disk-size 16M "${disks[@]}" -- sh -c "$poke modprobe $driver &&
		check-ata-devices ${specs[*]@Q} && pattern-rw /dev/sda 4M 3 && pattern-rw /dev/sdd 4M 4"
	cat "$WORK/stdout"
}

cable_run 80 atalab_piix XFER_UDMA_5 ""
expect_clean_ata_log
expect_no_violations "ata0 d0" "ata1 d1"

cable_run 40 atalab_piix XFER_UDMA_2 ""
grep -q 'limited to UDMA/33 due to 40-wire cable' "$WORK/console.log" ||
	fail "libata did not limit the 40-wire channel"
expect_clean_ata_log
expect_no_violations "ata0 d0" "ata1 d1"

cable_run 40 atalab_piix XFER_UDMA_2 "$set_reports"
expect_clean_ata_log
expect_no_violations "ata0 d0" "ata1 d1"

# The reference: ata_piix believes the reports.
cable_run 40 ata_piix XFER_UDMA_5 "$set_reports"
trace_has --kind violation --source ata0 --dev 0 --word udma-40-wire --key reg=cable \
	--key 'expected=<=udma2' --key actual=udma5 --key xfer=dma "$TRACE" ||
	fail "ata_piix on a 40-wire cable with 80-wire reports: no udma-40-wire violation"
echo "ata_piix: UDMA/100 on a 40-wire cable, $(trace_violations | wc -l) udma-40-wire violations"

cable_run 80 atalab_piix XFER_UDMA_2 "$clear_reports"
expect_clean_ata_log
expect_no_violations "ata0 d0" "ata1 d1"
cable_run 80 ata_piix XFER_UDMA_2 "$clear_reports"
