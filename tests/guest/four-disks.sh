#!/usr/bin/env bash
# Four disks, master and slave on both channels, are all found with their
# model strings, each at its position.
. "$(dirname "$0")/lib.sh"
disks=() opts=()
for i in 0 1 2 3; do
	disks+=(--disk "$WORK/disk$i.img")
	opts+=(--device-opt "model$i=ATALAB DISK $i" --device-opt "serial$i=SN-$i")
done
expect_status 0 "${disks[@]}" "${opts[@]}" --disk-size 32M -- check-ata-devices \
	"1.0:XFER_UDMA_2:ATALAB DISK 0" "1.1:XFER_UDMA_2:ATALAB DISK 1" \
	"2.0:XFER_UDMA_2:ATALAB DISK 2" "2.1:XFER_UDMA_2:ATALAB DISK 3"
expect_clean_ata_log
