#!/usr/bin/env bash
# guest-fuzz (tools/guest-fuzz) in a booted guest, on a disk and a CD-ROM:
# its self-test of the contract checks passes there; a seed's calls are the
# ones the host's --dry-run prints for that seed (a workload is its seed);
# the calls reach libata and sr (pass-through commands the disk completed,
# ones it refused with sense data, MMC commands sr completed, ioctls
# answered, sysfs attributes read); 6.1 keeps every contract on them and
# prints no kernel warning; and --classes limits the draws.
. "$(dirname "$0")/lib.sh"

gf=$ATALAB_CACHE_BIN/guest-fuzz
[ -x "$gf" ] || fail "$gf missing (tools/atalab build makes it)"
head -c 2097152 /dev/urandom >"$WORK/disc.iso"
seed=11
ops=150
# A disk of its own: the calls write to it.
expect_status 0 --disk "$WORK/disk.img" --disk-size 16M --cdrom "$WORK/disc.iso" --timeout 400 -- \
	sh -c "guest-fuzz --self-test | tail -n 1; guest-fuzz --seed $seed --ops $ops --time-limit 300 /dev/sda /dev/sr0; echo rc=\$?"
out=$WORK/stdout
grep -qx 'self-test: ok (0 checks failed)' "$out" || fail "the self-test in the guest: $(head -n 3 "$out")"
grep -qx 'rc=0' "$out" && grep -qx 'guest-fuzz: 0 contract breaches' "$out" ||
	fail "guest-fuzz found breaches or failed: $(grep -E '^(guest-fuzz|rc=)' "$out")"
[ "$(grep -c '^op ' "$out")" = $ops ] || fail "$(grep -c '^op ' "$out") calls made, not $ops: $(tail -n 3 "$out")"
echo "ok: $ops calls in the guest, no contract breach"

# The same seed's calls, drawn on the host: the same lines before " -> "
# (sysfs draws name what the guest has: compared by their number only).
calls() { grep '^op ' | sed 's/ -> .*//; s/^\(op [0-9]* sysfs\).*/\1/'; }
"$gf" --dry-run --seed $seed --ops $ops /dev/sda /dev/sr0 | calls >"$WORK/host.calls"
calls <"$out" >"$WORK/guest.calls"
diff -u "$WORK/host.calls" "$WORK/guest.calls" >"$WORK/calls.diff" ||
	fail "the guest's calls are not the seed's: $(head -n 20 "$WORK/calls.diff")"
echo "ok: the guest made the $ops calls --dry-run draws for seed $seed"

# The calls reached the kernel's layers and the drives.
want() {  # want WHAT PATTERN: some call's line matches
	grep -Eq -- "$2" "$out" || fail "no call $1 (pattern $2)"
	echo "ok: $1: $(grep -Ec -- "$2" "$out") calls"
}
want "of ATA pass-through the disk completed" '^op [0-9]+ ata(12|16|32) .* -> status=0 host=0 driver=0 '
want "of ATA pass-through refused with sense data" '^op [0-9]+ ata(12|16|32) .* -> status=0x2 .* sense=(70|72)/'
want "of SCSI translated by libata, completed" '^op [0-9]+ scsi .* -> status=0 host=0 driver=0 '
want "of MMC the CD-ROM completed" '^op [0-9]+ mmc .* -> status=0 host=0 driver=0 '
want "of an ioctl answered" '^op [0-9]+ ioctl [A-Z_0-9]+ -> 0$'
want "of a sysfs attribute read" '^op [0-9]+ sysfs /sys/.* -> [0-9]+ bytes$'
bad=$(grep -E 'WARNING:|BUG:|Oops|general protection' "$WORK/console.log" || true)
[ -z "$bad" ] || fail "the kernel warned under seed $seed: $bad"
echo "ok: no kernel warning"

# --classes: only ioctl and sysfs calls; an unknown class is refused.
"$gf" --dry-run --seed 3 --ops 40 --classes ioctl,sysfs /dev/sda /dev/sr0 >"$WORK/classes"
[ "$(grep -Ec '^op [0-9]+ (ioctl|sysfs)' "$WORK/classes")" = 40 ] ||
	fail "--classes ioctl,sysfs drew: $(grep '^op ' "$WORK/classes" | grep -Ev ' (ioctl|sysfs)' | head -n 3)"
rc=0
"$gf" --dry-run --classes ioctl,disk /dev/sda 2>"$WORK/err" >/dev/null || rc=$?
[ $rc = 2 ] && grep -q "unknown class 'disk'" "$WORK/err" || fail "--classes disk: exit $rc: $(cat "$WORK/err")"
echo "ok: --classes limits the draws; an unknown class exits 2"
