#!/usr/bin/env bash
# hdparm -S/-y/-Y/-C as on a real drive, on a master, a slave and the
# secondary channel: the standby timer (-S 1: 5 s) spins an idle drive
# down, a read spins it up, -y puts it in Standby, and after -Y (SLEEP)
# libata wakes it with a soft reset ("waking up from sleep": no command
# reaches a sleeping drive), after which it is in Standby.
. "$(dirname "$0")/lib.sh"
mapfile -t disks < <(io_disks)
TRACE=$WORK/trace
expect_status 0 "${disks[@]}" --disk-size 16M --trace "$TRACE" -- sh -c '
state() { hdparm -C /dev/$(blk-of $1) | sed -n "s/.*drive state is: *//p"; }
expect() {
	for p in '"$IO_POSITIONS"'; do
		s=$(state $p)
		echo "$2 $p: $s"
		[ "$s" = "$1" ] || exit 1
	done
}
rd() {
	for p in '"$IO_POSITIONS"'; do
		dd if=/dev/$(blk-of $p) of=/dev/null bs=4k count=1 skip=$1 iflag=direct 2>/dev/null || exit 2
	done
}
expect active/idle boot
for p in '"$IO_POSITIONS"'; do hdparm -S 1 /dev/$(blk-of $p) >/dev/null; done
expect idle after-S1
sleep 7
expect standby timer
rd 10
expect active/idle read
for p in '"$IO_POSITIONS"'; do hdparm -y /dev/$(blk-of $p) >/dev/null; done
expect standby after-y
rd 20
for p in '"$IO_POSITIONS"'; do hdparm -Y /dev/$(blk-of $p) >/dev/null; done
expect standby after-Y
rd 30
expect active/idle read-after-Y'
cat "$WORK/stdout"
for p in $IO_POSITIONS; do
	ch=$((p / 2)) dev=$((p % 2))
	trace_has --kind ATA_STANDBY_EXPIRED --source "ata$ch" --dev $dev "$TRACE" ||
		fail "position $p: the standby timer did not expire"
	# SLEEP, then the reset that wakes the drive into Standby: the channel's
	# resets and the drive's power changes, in order, from the first SLEEP.
	trace_grep --kind reset --kind power --source "ata$ch" "$TRACE" |
		awk -v d="d$dev" '$3 == "power" && $4 == d && $5 == "sleep" { on = 1 }
			on && n < 2 && (($3 == "reset" && $4 == "srst=1") || ($3 == "power" && $4 == d && $5 == "standby")) {
				first = first (n++ ? " " : "") $3
			}
			END { print first }' | grep -qx 'reset power' ||
		fail "position $p: SLEEP was not ended by a reset into Standby"
done
