#!/usr/bin/env bash
# SeaBIOS (Debian's, unmodified) boots an El Torito CD from atalab-ide's
# CD-ROM: a no-emulation boot image made here, which prints a line on the
# serial port and halts.  No kernel, no -kernel: the firmware finds the
# controller, the packet device by its signature, reads the boot catalog
# and the image with PIO packet commands (READ(10) with a byte count limit
# of one block), and jumps to it.  Without the CD-ROM nothing boots.
# ICH5 SATA: SeaBIOS boots the CD from SATA port 1 and the same code as a
# disk's boot sector from port 0, because the firmware set-up enables the
# ports that have a drive (PCS, docs/timing.md); with sata-ports=off the
# ports stay off, the bus floats (7Fh) and nothing boots.
. "$(dirname "$0")/lib.sh"

QEMU=${ATALAB_CACHE:-$HOME/.cache/atalab}/qemu/build/qemu-system-x86_64
"$ATALAB" build >/dev/null 2>&1 || fail "build failed"
command -v genisoimage >/dev/null || fail "genisoimage missing (tools/atalab setup installs it)"

# The boot image: 16-bit code at 0:7C00 (the El Torito default load
# segment 07C0h), printing MSG on COM1 and halting.
MSG="ATALAB EL TORITO BOOT OK"
cat >"$WORK/boot.S" <<EOF
	.code16
	.globl _start
_start:
	cli
	xor %ax, %ax
	mov %ax, %ds
	mov \$msg, %si
	mov \$0x3f8, %dx
1:	lodsb
	test %al, %al
	jz 2f
	out %al, %dx
	jmp 1b
2:	hlt
	jmp 2b
msg:	.asciz "$MSG\r\n"
EOF
mkdir "$WORK/iso"
as --32 -o "$WORK/boot.o" "$WORK/boot.S" || fail "as failed"
ld -m elf_i386 -Ttext 0x7c00 -e _start --oformat binary -o "$WORK/iso/boot.bin" "$WORK/boot.o" ||
	fail "ld failed"
truncate -s 2048 "$WORK/iso/boot.bin"
genisoimage -quiet -V BOOT -no-emul-boot -boot-load-size 4 -b boot.bin -o "$WORK/boot.iso" "$WORK/iso" ||
	fail "genisoimage failed"

# The same code as a disk's boot sector (MBR signature 55AAh at 510).
cp "$WORK/iso/boot.bin" "$WORK/disk.img"
truncate -s 510 "$WORK/disk.img"
printf '\x55\xaa' >>"$WORK/disk.img"
truncate -s 1M "$WORK/disk.img"

# boot SECONDS [atalab-ide options]: firmware only, serial to $WORK/serial;
# waits for MSG up to SECONDS.  0: it came.  The CD-ROM's drive is "cd",
# the disk's "hd".
boot() {
	local pid i rc=1 secs=$1
	shift
	: >"$WORK/serial"
	"$QEMU" -M q35 -accel tcg -m 128 -smp 1 -nodefaults -display none -vga none -no-reboot \
		-L "${QEMU%/*}/pc-bios/optionrom" -L /usr/share/seabios -serial "file:$WORK/serial" \
		-drive "if=none,id=cd,media=cdrom,readonly=on,format=raw,file.filename=$WORK/boot.iso" \
		-drive "if=none,id=hd,format=raw,file.filename=$WORK/disk.img" \
		-device "atalab-ide,trace=$WORK/trace$*" 2>"$WORK/qemu.err" &
	pid=$!
	BOOT_ALIVE=0
	for i in $(seq $((secs * 10))); do
		if grep -q "$MSG" "$WORK/serial"; then rc=0; break; fi
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 $pid 2>/dev/null || BOOT_ALIVE=1
	kill $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	return $rc
}

t0=$SECONDS
boot 90 ",drive2=cd,kind2=cd" || fail "SeaBIOS did not boot the CD: serial: $(head -c 300 "$WORK/serial"); $(cat "$WORK/qemu.err")"
grep -q ' ata1 packet d0 0x28 READ_10 dma=0 limit=2048 ' "$WORK/trace" ||
	fail "no PIO READ(10) by the firmware in the trace: $(grep ' packet ' "$WORK/trace" | head -5)"
echo "ok: SeaBIOS boots the El Torito image from the CD-ROM ($(grep -c ' packet ' "$WORK/trace") packet commands)"

# The same machine with the CD-ROM's position empty: nothing to boot, in
# three times as long as the boot took (10 s at least).
took=$((SECONDS - t0))
boot $((took * 3 > 10 ? took * 3 : 10)) "" && fail "something booted without the CD-ROM"
echo "ok: without the CD-ROM the image never runs"

# ICH5 SATA: the CD-ROM on port 1 (drive2), the disk on port 0 (drive0).
boot 90 ",model=ich5-sata,drive2=cd,kind2=cd" ||
	fail "SeaBIOS did not boot the CD from SATA port 1: serial: $(head -c 300 "$WORK/serial"); $(cat "$WORK/qemu.err")"
grep -q '^# sata-ports 2$' "$WORK/trace" || fail "the trace header does not say the firmware enabled port 1"
grep -q ' ata1 packet d0 0x28 READ_10 dma=0 ' "$WORK/trace" ||
	fail "no READ(10) by the firmware on SATA port 1: $(grep ' packet ' "$WORK/trace" | head -5)"
echo "ok: SeaBIOS boots the El Torito image from the CD-ROM on ICH5 SATA port 1"
boot 90 ",model=ich5-sata,drive0=hd" ||
	fail "SeaBIOS did not boot the disk on SATA port 0: serial: $(head -c 300 "$WORK/serial"); $(cat "$WORK/qemu.err")"
grep -q ' ata0 cmd d0 .*READ' "$WORK/trace" || fail "no read by the firmware from SATA port 0: $(grep ' cmd ' "$WORK/trace" | head -5)"
echo "ok: SeaBIOS boots the disk's boot sector from ICH5 SATA port 0"
rm -f "$WORK/trace"
boot $((took * 3 > 10 ? took * 3 : 10)) ",model=ich5-sata,drive2=cd,kind2=cd,sata-ports=off" &&
	fail "the CD booted from SATA port 1 with sata-ports=off (the ports were enabled)"
[ "$BOOT_ALIVE" = 1 ] || fail "sata-ports=off: QEMU did not run to the timeout: $(cat "$WORK/qemu.err")"
[ -s "$WORK/trace" ] && ! grep -q '^# sata-ports' "$WORK/trace" ||
	fail "sata-ports=off: no trace, or its header says ports were enabled"
grep -q '^[0-9]* ata1 r 0x7 1 0x7f ' "$WORK/trace" ||
	fail "sata-ports=off: the firmware did not find port 1's channel floating (Status 7Fh)"
echo "ok: with sata-ports=off the ports stay off and nothing boots"
