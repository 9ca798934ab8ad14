#!/usr/bin/env bash
# atalab_piix programs the CD-ROM's timing in every transfer mode piix4
# has (libata.force for the secondary master, one boot per mode, two boots
# at a time): libata configures the mode, the disc reads back, the model
# checks every transfer of the packet device against the timing registers
# with no violation, and prefetch (PPE) stays off for it -- a packet
# device's position in the mode matrix (tools/atalab matrix covers disks).
. "$(dirname "$0")/lib.sh"

command -v genisoimage >/dev/null || fail "genisoimage missing (tools/atalab setup installs it)"
mkdir "$WORK/tree"
head -c 1500000 /dev/urandom >"$WORK/tree/random.bin"
genisoimage -quiet -r -V MODES -o "$WORK/disc.iso" "$WORK/tree" || fail "genisoimage failed"
SUM=$(head -c 131072 "$WORK/disc.iso" | sha256sum | cut -d' ' -f1)
MODES="pio0 pio1 pio2 pio3 pio4 mwdma0 mwdma1 mwdma2 udma0 udma1 udma2"

sysfs_name() {
	case "$1" in
	pio*) echo "XFER_PIO_${1#pio}" ;;
	mwdma*) echo "XFER_MW_DMA_${1#mwdma}" ;;
	udma*) echo "XFER_UDMA_${1#udma}" ;;
	esac
}

# boot MODE: one guest, its outputs in $WORK/MODE.*
boot() {
	"$ATALAB" run --quiet --driver atalab_piix --log "$WORK/$1.log" --cdrom "$WORK/disc.iso" \
		--disk "$WORK/$1.img" --disk-size 8M --trace "$WORK/$1.trace" --append "libata.force=2.00:$1" -- \
		sh -c 'cat /sys/class/ata_device/dev2.0/xfer_mode
			dd if=/dev/sr0 bs=64k count=2 2>/dev/null | sha256sum | cut -d" " -f1' \
		>"$WORK/$1.out" 2>"$WORK/$1.err"
}

pending=()
for m in $MODES; do
	boot "$m" &
	pending+=($!)
	if [ ${#pending[@]} -ge 2 ]; then
		wait "${pending[0]}" || true
		pending=("${pending[@]:1}")
	fi
done
for p in "${pending[@]}"; do wait "$p" || true; done

for m in $MODES; do
	want=$(sysfs_name "$m")
	[ "$(sed -n 1p "$WORK/$m.out")" = "$want" ] ||
		fail "$m: libata configured '$(sed -n 1p "$WORK/$m.out")', not $want: $(cat "$WORK/$m.err")"
	[ "$(sed -n 2p "$WORK/$m.out")" = "$SUM" ] || fail "$m: the disc did not read back"
	grep -q ' ata1 timing-summary d0 checks=[1-9][0-9]* violations=0$' "$WORK/$m.trace" ||
		fail "$m: the CD-ROM's transfers were not checked clean: $(grep -E ' ata1 (timing-summary|violation) d0' "$WORK/$m.trace" | head -3)"
	last=$(grep ' ata1 timing d0 ' "$WORK/$m.trace" | tail -1)
	case "$last" in
	*" prefetch=0 "*) ;;
	*) fail "$m: the CD-ROM's last timing has prefetch on: $last" ;;
	esac
	echo "ok: $m: $want, the disc read back, $(grep -o 'checks=[0-9]*' <<<"$(grep ' ata1 timing-summary d0 ' "$WORK/$m.trace")") transfers clean, PPE off"
done
