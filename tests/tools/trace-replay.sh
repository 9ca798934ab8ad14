#!/usr/bin/env bash
# tools/atalab trace replay: every golden trace replays on the emulator core
# alone; a recording changed in one Status bit, a data sum or missing a
# backend answer diverges (exit 1, the records around it); cores changed in
# one Status bit or one byte of the PIO data they move (copies of
# qemu-device/core, built here) diverge on the goldens; malformed or
# hostile traces stop with FILE:LINE (exit 2).
. "$(dirname "$0")/lib.sh"
GOLDEN=$ATALAB_ROOT/traces/golden
check "tools/atalab trace replay runs" "$ATALAB" trace replay --quiet "$GOLDEN/piix4-ata_piix-pio.trace"
TOOL=${ATALAB_CACHE:-$HOME/.cache/atalab}/host-tools/atalab-trace

# replay_is STATUS PATTERN TOOL-ARGS...: exit STATUS, a line with PATTERN.
replay_is() {
	local want=$1 pattern=$2 got=0
	shift 2
	"$@" >"$WORK/out" 2>&1 || got=$?
	if [ "$got" != "$want" ] || ! grep -qF -- "$pattern" "$WORK/out"; then
		bad "$* exited $got (want $want); wanted a line with: $pattern"
		sed 's/^/  | /' "$WORK/out" >&2
	else
		ok "$(basename "$1") ${*:2} -> $got: $(grep -F -m1 -- "$pattern" "$WORK/out" | sed 's/^ *//')"
	fi
}

# ---- every golden ---------------------------------------------------------
n=0
for g in "$GOLDEN"/*.trace; do
	replay_is 0 "the core agrees" "$TOOL" replay "$g"
	n=$((n + 1))
done
[ "$n" -ge 20 ] || bad "only $n golden traces"

# SeaBIOS reads the CD-ROM of one channel while it probes the other: the
# CD-ROM's status polls stand in the file after the other channel's records
# (the writer holds a poll run until it ends), and replay reads them in time
# order (the first 230 lines of a run with --cdrom; the packet command's
# bytes come from its cdb= too)
replay_is 0 "the core agrees" "$TOOL" replay "$ATALAB_ROOT/tests/tools/traces/piix4-seabios-cdrom.trace"

# ---- a changed recording ----------------------------------------------------
G=$GOLDEN/piix4-ata_piix-dma.trace
# The 40th Status read that saw DRDY|DSC now says DRDY only.
awk '/ r 0x7 1 0x50 reg=Status bits=DRDY\|DSC / && ++n == 40 {
	sub(/ 0x50 reg=Status bits=DRDY\|DSC /, " 0x40 reg=Status bits=DRDY ")
	print NR > "'"$WORK/status-line"'" } { print }' "$G" >"$WORK/status.trace"
line=$(cat "$WORK/status-line")
replay_is 1 "status.trace:$line: replay diverges" "$TOOL" replay "$WORK/status.trace"
replay_is 1 "  replayed: 0 ata0 r 0x7 1 0x50 reg=Status bits=DRDY|DSC" "$TOOL" replay "$WORK/status.trace"
replay_is 1 ">" "$TOOL" replay --context 2 "$WORK/status.trace"
[ "$(grep -cE '^[ >] +[0-9]+  ' "$WORK/out")" = 5 ] || bad "--context 2 did not show 5 records: $(cat "$WORK/out")"
# A backend answer left out: the core waits, the recording goes on.
awk '/ io-done / && ++n == 3 { next } { print }' "$G" >"$WORK/no-answer.trace"
replay_is 1 "replay diverges" "$TOOL" replay "$WORK/no-answer.trace"
# One record too many at the end, one missing.
{ cat "$G"; echo "0 irq0 1 dev=0 seq=12"; } >"$WORK/extra.trace"
replay_is 1 "the replayed core never wrote this record" "$TOOL" replay "$WORK/extra.trace"
head -n -3 "$G" >"$WORK/short.trace"
replay_is 1 "after the recording's last one" "$TOOL" replay "$WORK/short.trace"

# A block read back recorded with other data than was written there.
P=$GOLDEN/piix4-ata_piix-pio.trace
sum=$(grep ' data d0 out ' "$P" | sed -n '2s/.* sum=\(0x[0-9a-f]*\) .*/\1/p')
awk -v sum="$sum" '!done && / data d0 in / && index($0, "sum=" sum " ") {
	sub("sum=" sum, "sum=0x12345678"); done = 1 } { print }' "$P" >"$WORK/data.trace"
replay_is 1 "the block's data are those of a block recorded with sum=$sum, not 0x12345678" \
	"$TOOL" replay "$WORK/data.trace"

# ---- a changed core -----------------------------------------------------------
# The same goldens against a core whose drives leave DSC out of Status.
cp -r "$ATALAB_ROOT/qemu-device/core" "$WORK/core"
sed -i 's/^#define ATA_STAT_DSC            0x10 /#define ATA_STAT_DSC            0x00 /' "$WORK/core/ata/ata-internal.h"
if cmp -s "$WORK/core/ata/ata-internal.h" "$ATALAB_ROOT/qemu-device/core/ata/ata-internal.h"; then
	bad "the mutation did not apply"
fi
read -r -a glib <<<"$(pkg-config --cflags --libs glib-2.0)"
if gcc -std=gnu11 -O1 -w -I"$WORK/core" -I"$ATALAB_ROOT/tools/trace" -o "$WORK/mutant" \
	"$ATALAB_ROOT/tools/trace"/*.c "$WORK/core"/*.c "$WORK/core"/*/*.c "${glib[@]}"; then
	replay_is 1 "  replayed: 0 ata0 r 0x7 1 0x40 reg=Status bits=DRDY " "$WORK/mutant" replay "$G"
	replay_is 1 "replay diverges" "$WORK/mutant" replay "$GOLDEN/ich5-sata-atalab_piix-pio.trace"
else
	bad "the mutant core did not build"
fi

# Cores that change a byte of the data they move: PIO in, PIO out.
mutant() {
	local name=$1 file=$2 before=$3 insert=$4
	rm -rf "$WORK/core" && cp -r "$ATALAB_ROOT/qemu-device/core" "$WORK/core"
	BEFORE=$before INSERT=$insert perl -0pi -e \
		's/\Q$ENV{BEFORE}\E/$ENV{INSERT}$ENV{BEFORE}/ or die "no match\n"' "$WORK/core/$file" ||
		bad "mutation $name did not apply"
	gcc -std=gnu11 -O1 -w -I"$WORK/core" -I"$ATALAB_ROOT/tools/trace" -o "$WORK/$name" \
		"$ATALAB_ROOT/tools/trace"/*.c "$WORK/core"/*.c "$WORK/core"/*/*.c "${glib[@]}" || bad "mutant $name did not build"
}
mutant pio-in ata/ata-io.c "    d->lba += d->cur_block;" "    d->pio_buf[5] ^= 0x20;
"
replay_is 1 "the data port gave bytes the backend did not serve for this command" "$WORK/pio-in" replay "$P"
mutant pio-out ata/ata-io.c "    atalab_ata_io_write(d, d->lba, d->cur_block, d->pio_buf," "    d->pio_buf[7] ^= 0x01;
"
replay_is 1 "drive 0's backend write does not hold the bytes the data port was given" "$WORK/pio-out" replay "$P"

# ---- bad input ----------------------------------------------------------------
sed 's/^# personality piix4$/# personality piix9/' "$G" >"$WORK/pers.trace"
replay_is 2 "pers.trace: the header names no personality this core has" "$TOOL" replay "$WORK/pers.trace"
sed 's/^# drive0 sectors=32768$/# drive0 sectors=lots/' "$G" >"$WORK/drive.trace"
replay_is 2 "drive.trace: header drive0 is 'sectors=lots'" "$TOOL" replay "$WORK/drive.trace"
sed '/^# fault-seed/a # fault unc drive=7' "$G" >"$WORK/rule.trace"
replay_is 2 "rule.trace:16:11: drive wants 0-3 or any, got '7'" "$TOOL" replay "$WORK/rule.trace"
awk 'NR == 40 { print "0 ata0 r 0x7 1 0x5 reg=Status" } { print }' "$G" >"$WORK/malformed.trace"
replay_is 2 "malformed.trace:40: value '0x5'" "$TOOL" replay "$WORK/malformed.trace"
awk '/ ctl0 r 0x0 1 / && !done { print "0 ctl0 r 0x0 1 0x50 reg=AltStatus bits=DRDY|DSC dev=0 seq=0 polls=4000000000"; done = NR }
	{ print }' "$G" >"$WORK/polls.trace"
replay_is 2 "polls=4000000000 is more than replay does (10000000)" "$TOOL" replay "$WORK/polls.trace"
sed '0,/ repeat d0 cycles=[0-9]* records=[0-9]* /s/ records=[0-9]* / records=99 /' "$P" >"$WORK/repeat.trace"
replay_is 2 "a repeat of 99 records does not follow a cycle of as many" "$TOOL" replay "$WORK/repeat.trace"
replay_is 2 "--max-accesses wants a number" "$TOOL" replay --max-accesses 0 "$P"
replay_is 2 "No such file" "$TOOL" replay "$WORK/none.trace"
finish
