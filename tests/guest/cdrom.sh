#!/usr/bin/env bash
# An ATAPI CD-ROM at the secondary master (run --cdrom, docs/atapi.md),
# driven by unmodified Linux clients: libata finds it by its signature and
# IDENTIFY PACKET DEVICE, sr makes /dev/sr0 with the disc's capacity, and
# the ISO made here reads back byte-exact by DMA (the default) and by PIO
# (libata.dma=1: ATA only), under ata_piix and under atalab_piix, which
# leaves prefetch off for it.  blkid names the filesystem, the ISO mounts,
# sg_inq and sg_readcap read the identity and capacity; eject opens the
# tray (the disc is gone for reads) and eject -t brings it back.  An empty
# tray boots too, with no medium to read.
. "$(dirname "$0")/lib.sh"

command -v genisoimage >/dev/null || fail "genisoimage missing (tools/atalab setup installs it)"
mkdir "$WORK/tree"
head -c 3000000 /dev/urandom >"$WORK/tree/random.bin"
echo "atalab cd-rom test" >"$WORK/tree/hello.txt"
genisoimage -quiet -r -V ATALABCD -o "$WORK/disc.iso" "$WORK/tree" || fail "genisoimage failed"
ISO_SUM=$(sha256sum <"$WORK/disc.iso" | cut -d' ' -f1)
ISO_SECTORS=$(($(stat -c %s "$WORK/disc.iso") / 512))
FILE_SUM=$(sha256sum <"$WORK/tree/random.bin" | cut -d' ' -f1)

# What the guest reports of the disc, one fact per line (trailing blanks of
# the SCSI strings dropped).
READ_ALL='{ echo "model=$(cat /sys/block/sr0/device/model)"
echo "vendor=$(cat /sys/block/sr0/device/vendor)"
echo "size=$(cat /sys/block/sr0/size)"
echo "sum=$(dd if=/dev/sr0 bs=64k 2>/dev/null | sha256sum | cut -d" " -f1)"
echo "blkid=$(blkid /dev/sr0)"
mkdir -p /mnt && mount -t iso9660 -o ro /dev/sr0 /mnt &&
	echo "file=$(sha256sum </mnt/random.bin | cut -d" " -f1)" && umount /mnt
sg_inq /dev/sr0 | sed -n "s/^ *Product identification: */inq=/p"
sg_readcap /dev/sr0 | sed -n "s/^ *Logical block length=\([0-9]*\).*/block=\1/p"; } |
	sed "s/ *\$//"'

has_line() { grep -qx -- "$1" "$WORK/stdout" || fail "$2: no line '$1' in: $(cat "$WORK/stdout")"; }

# cd_run DRIVER [run options]: read everything off the disc.
cd_run() {
	local driver=$1
	shift
	expect_status 0 --driver "$driver" --cdrom "$WORK/disc.iso" --disk "$WORK/disk.img" \
		--disk-size 16M --device-opt "model2=ACME CDROM X1" --trace "$WORK/trace" "$@" -- \
		sh -c "$READ_ALL"
	has_line "model=ACME CDROM X1" "$driver"
	has_line "vendor=ATALAB" "$driver"
	has_line "size=$ISO_SECTORS" "$driver: capacity"
	has_line "sum=$ISO_SUM" "$driver: the disc read back"
	grep -q '^blkid=/dev/sr0: .*LABEL="ATALABCD".*TYPE="iso9660"' "$WORK/stdout" ||
		fail "$driver: blkid: $(grep blkid "$WORK/stdout")"
	has_line "file=$FILE_SUM" "$driver: a file of the mounted ISO"
	has_line "inq=ACME CDROM X1" "$driver: sg_inq"
	has_line "block=2048" "$driver: sg_readcap"
	grep -q 'ata2.00: ATAPI: ACME CDROM X1, 0.1, max UDMA/' "$WORK/console.log" ||
		fail "$driver: libata did not report the ATAPI device: $(grep ata2 "$WORK/console.log" | head)"
	! grep -q ' ata1 violation d0 ' "$WORK/trace" ||
		fail "$driver: timing violations on the CD-ROM: $(grep ' ata1 violation d0' "$WORK/trace" | head -3)"
	expect_clean_ata_log
}

cd_run ata_piix
trace_has --kind packet --word READ_10 --key dma=1 "$WORK/trace" ||
	fail "ata_piix: no READ(10) by DMA in the trace"
"$ATALAB" trace replay "$WORK/trace" >"$WORK/replay.txt" 2>&1 ||
	fail "the CD-ROM run does not replay: $(head -14 "$WORK/replay.txt")"
echo "ok: ata_piix, DMA: /dev/sr0 ($ISO_SECTORS sectors) reads back the ISO; blkid, mount, sg_inq, sg_readcap"

cd_run ata_piix --append libata.dma=1
trace_has --kind packet --word READ_10 --key dma=0 "$WORK/trace" ||
	fail "libata.dma=1: no READ(10) by PIO in the trace"
! trace_has --kind packet --key dma=1 "$WORK/trace" ||
	fail "libata.dma=1: a packet command moved its data by DMA"
echo "ok: ata_piix, PIO: the same, each DRQ block within the byte count limit"

cd_run atalab_piix
trace_has --kind packet --word READ_10 --key dma=1 "$WORK/trace" ||
	fail "atalab_piix: no READ(10) by DMA in the trace"
grep -q ' ata1 timing d0 .* prefetch=0 ' "$WORK/trace" ||
	fail "atalab_piix: the CD-ROM's timing never had prefetch off: $(grep ' ata1 timing d0' "$WORK/trace")"
echo "ok: atalab_piix: the same by DMA, prefetch off for the packet device, no violation"

# A driver that sets PPE (prefetch and posting) for the CD-ROM breaks the
# timing rule prefetch-non-ata at its next PIO transfer: set it by hand in
# the secondary IDETIM (0x42 bit 2, drive 0's PPE) and read by PIO.
expect_status 0 --cdrom "$WORK/disc.iso" --disk "$WORK/disk.img" --disk-size 16M \
	--append libata.dma=1 --trace "$WORK/trace" -- sh -c '
	cfg=/sys/bus/pci/devices/0000:00:01.0/config
	v=$(dd if=$cfg bs=1 skip=66 count=1 2>/dev/null | od -An -tu1 | tr -d " ")
	printf "\\$(printf %o $((v | 4)))" | dd of=$cfg bs=1 seek=66 count=1 conv=notrunc 2>/dev/null
	dd if=/dev/sr0 of=/dev/null bs=2048 skip=200 count=4 2>/dev/null && echo read'
has_line read "the read with PPE set"
grep -q ' ata1 violation d0 prefetch-non-ata reg=IDETIM1 .* xfer=pio' "$WORK/trace" ||
	fail "PPE set for the CD-ROM: no prefetch-non-ata violation: $(grep -E ' cfg w 0x4[23] | ata1 violation' "$WORK/trace" | head -5)"
echo "ok: PPE set for the CD-ROM by hand: prefetch-non-ata at its PIO transfer"

# The tray: eject opens it (reads fail: no medium), eject -t closes it.
expect_status 0 --cdrom "$WORK/disc.iso" --disk "$WORK/disk.img" --disk-size 16M -- sh -c '
	eject /dev/sr0 && echo ejected
	dd if=/dev/sr0 of=/dev/null bs=2048 count=1 2>/dev/null && echo read-while-open
	eject -t /dev/sr0 && echo closed
	dd if=/dev/sr0 bs=2048 count=16 2>/dev/null | sha256sum | cut -d" " -f1'
has_line ejected "eject"
! grep -qx read-while-open "$WORK/stdout" || fail "the disc read with the tray open"
has_line closed "eject -t"
has_line "$(head -c 32768 "$WORK/disc.iso" | sha256sum | cut -d' ' -f1)" "read after closing the tray"
echo "ok: eject opens the tray (no medium), eject -t closes it and the disc reads again"

# The host changes the disc at run time (the monitor's change command:
# tray open, other disc, tray closed): the guest gets a unit attention,
# reads the new disc, and the run replays with the tray moves in it.
mkdir "$WORK/tree2"
head -c 700000 /dev/urandom >"$WORK/tree2/other.bin"
genisoimage -quiet -r -V SECOND -o "$WORK/disc2.iso" "$WORK/tree2" || fail "genisoimage failed"
mon=$WORK/monitor.sock
"$ATALAB" run --quiet --log "$WORK/console.log" --cdrom "$WORK/disc.iso" --disk "$WORK/disk.img" \
	--disk-size 16M --monitor "$mon" --trace "$WORK/trace" -- sh -c '
	echo "label=$(blkid -o value -s LABEL /dev/sr0)"; echo ready
	i=0
	while [ $i -lt 300 ] && [ "$(blkid -p -o value -s LABEL /dev/sr0 2>/dev/null)" != SECOND ]; do
		sleep 0.2; i=$((i + 1))
	done
	echo "label=$(blkid -o value -s LABEL /dev/sr0)"
	echo "sum=$(dd if=/dev/sr0 bs=64k 2>/dev/null | sha256sum | cut -d" " -f1)"' \
	>"$WORK/stdout" 2>"$WORK/stderr" &
run=$!
wait_for_line "$WORK/stdout" ready $run || { wait $run || true; fail "guest never got ready: $(cat "$WORK/stderr")"; }
"$ATALAB" monitor "$mon" "change cdrom $WORK/disc2.iso raw read-only" >"$WORK/hmp.txt" ||
	fail "the monitor's change failed: $(cat "$WORK/hmp.txt")"
wait $run || fail "the guest failed after the disc change: $(cat "$WORK/stdout" "$WORK/stderr")"
has_line "label=ATALABCD" "before the change"
has_line "label=SECOND" "after the change"
has_line "sum=$(sha256sum <"$WORK/disc2.iso" | cut -d' ' -f1)" "the new disc read back"
grep -q ' ata1 media d0 open ' "$WORK/trace" &&
	grep -q " ata1 media d0 closed sectors=$(($(stat -c %s "$WORK/disc2.iso") / 512)) " "$WORK/trace" ||
	fail "the tray moves are not in the trace: $(grep ' media ' "$WORK/trace")"
grep -q ' ata1 check d0 0x.. key=0x6 asc=0x28 ascq=0x00 ' "$WORK/trace" ||
	fail "no unit attention 28/00 after the change: $(grep ' ata1 check' "$WORK/trace" | head -5)"
"$ATALAB" trace replay "$WORK/trace" >"$WORK/replay.txt" 2>&1 ||
	fail "the disc-change run does not replay: $(head -14 "$WORK/replay.txt")"
echo "ok: the monitor's change: the guest sees unit attention 28/00 and reads the new disc; the run replays"

# The guest opens the tray, the monitor takes the disc out (eject -f),
# the guest closes the tray: no disc.  The guest waits for the monitor's
# step on a marker the host writes into its disk image.
printf 'WAIT' | dd of="$WORK/disk.img" conv=notrunc status=none
"$ATALAB" run --quiet --log "$WORK/console.log" --cdrom "$WORK/disc.iso" --disk "$WORK/disk.img" \
	--disk-size 16M --monitor "$mon" --trace "$WORK/trace" -- sh -c '
	eject /dev/sr0 && echo ejected
	i=0
	while [ $i -lt 300 ] && [ "$(dd if=/dev/sda bs=512 count=1 iflag=direct 2>/dev/null | head -c 4)" != GOGO ]; do
		sleep 0.2; i=$((i + 1))
	done
	eject -t /dev/sr0 && echo closed
	dd if=/dev/sr0 of=/dev/null bs=2048 count=1 2>/dev/null && echo read-after-removal; true' \
	>"$WORK/stdout" 2>"$WORK/stderr" &
run=$!
wait_for_line "$WORK/stdout" ejected $run || { wait $run || true; fail "the guest never ejected: $(cat "$WORK/stderr")"; }
"$ATALAB" monitor "$mon" "eject -f cdrom" >"$WORK/hmp.txt" || fail "the monitor's eject failed: $(cat "$WORK/hmp.txt")"
printf 'GOGO' | dd of="$WORK/disk.img" conv=notrunc status=none
wait $run || fail "the guest failed: $(cat "$WORK/stdout" "$WORK/stderr")"
has_line closed "eject -t after the monitor took the disc"
! grep -qx read-after-removal "$WORK/stdout" || fail "the disc the monitor took out still reads"
grep -q ' ata1 media d0 loaded sectors=0 ' "$WORK/trace" ||
	fail "the guest's tray close did not find the tray empty: $(grep ' media ' "$WORK/trace")"
"$ATALAB" trace replay "$WORK/trace" >"$WORK/replay.txt" 2>&1 ||
	fail "the tray run does not replay: $(head -14 "$WORK/replay.txt")"
echo "ok: the guest opens the tray, the monitor takes the disc, the guest closes the tray: no disc; the run replays"

expect_status 0 --cdrom empty --disk "$WORK/disk.img" --disk-size 16M --trace "$WORK/trace" -- sh -c '
	test -b /dev/sr0 && echo sr0
	dd if=/dev/sr0 of=/dev/null bs=2048 count=1 2>/dev/null && echo read-empty; true'
has_line sr0 "empty tray"
! grep -qx read-empty "$WORK/stdout" || fail "an empty tray gave data"
grep -q ' ata1 check d0 0x00 key=0x2 asc=0x3a ascq=0x01 ' "$WORK/trace" ||
	fail "empty tray: TEST UNIT READY never said NOT READY, medium not present: $(grep ' ata1 check' "$WORK/trace" | head -5)"
grep -qx '# drive2 cd sectors=0' "$WORK/trace" || fail "empty tray: the trace header does not say so"
echo "ok: an empty tray: /dev/sr0, no data, NOT READY 3A/01 to TEST UNIT READY"
