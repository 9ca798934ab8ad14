#!/usr/bin/env bash
# tools/atalab explore's parts without a guest: the oracles' verdicts on
# hand-made runs (an oops line, a hung task, a guest killed at its timeout
# silent or still working,
# a broken QEMU, a core bug record, data read back wrong with and without a
# rule that may change it (also among thousands of firings), acknowledged writes the image lacks (with and
# without such a rule, and unacknowledged), a clean run), one signature for one bug
# found twice, the draws (deterministic per seed, every draw and mutation a
# scenario the checker accepts), the minimizer's variants and the coverage
# set (new lines counted
# once, per-file figures).
. "$(dirname "$0")/lib.sh"
load_atalab
set +u
build_all >/dev/null 2>&1 || { echo "FAIL: the build failed" >&2; exit 1; }
ex=$(explore_binary)
TRACE_HEAD=$(grep '^#' "$ATALAB_ROOT/traces/golden/piix4-ata_piix-dma.trace")

# job NAME CONSOLE-LINE [TRACE-RECORD]: a finished run's folder.
job() {
	mkdir -p "$WORK/$1"
	printf '[    0.100000] Linux version 6.1\n%s\n[    1.200000] reboot: Power down\n' "$2" >"$WORK/$1/console.log"
	printf '%s\n%s\n' "$TRACE_HEAD" "${3:-}" | sed '/^$/d' >"$WORK/$1/trace"
	echo "atalab-scenario: $1: guest run ended" >"$WORK/$1/stderr"
}
verdict() {     # verdict NAME STATUS WANT-PREFIX
	local v
	v=$(explore_judge "$WORK/$1" "$2")
	[[ "$v" == "$3"* ]] && ok "$1 (exit $2): $v" || bad "$1 (exit $2): '$v', wanted '$3...'"
}
job clean "[    0.900000] ata1.00: configured for UDMA/33"
verdict clean 0 ok
# The debugging kernel's boot banner names lockdep; it is no report.
job banner "$(printf '[    0.000000] rcu: \tRCU lockdep checking is enabled.\n[    0.000000] ... MAX_LOCKDEP_KEYS:        8192')"
verdict banner 0 ok
job warn "[    0.950000] WARNING: CPU: 0 PID: 61 at drivers/ata/libata-eh.c:1234 ata_eh_finish+0x3c/0x90"
verdict warn 0 "oops: WARNING: CPU: 0 PID: 61 at drivers/ata/libata-eh.c:1234"
job null "[    0.950000] BUG: kernel NULL pointer dereference, address: 0000000000000008"
verdict null 1 "oops: BUG: kernel NULL pointer"
job hung "[  122.950000] INFO: task dd:77 blocked for more than 120 seconds."
verdict hung 0 "oops: INFO: task dd:77 blocked"
job lock "[    0.950000] WARNING: possible recursive locking detected"
verdict lock 0 "oops: WARNING: possible recursive locking"
job nobody "$(printf '[   12.100000] irq 18: nobody cared (try booting with the "irqpoll" option)\n[   12.200000] Disabling IRQ #18')"
verdict nobody 0 "oops: irq 18: nobody cared"
job disabling "[   12.200000] Disabling IRQ #18"
verdict disabling 0 "oops: Disabling IRQ #18"
# guest-fuzz's contract lines (tools/guest-fuzz): a finding of their own.
job contract "[    0.900000] ata1.00: configured for UDMA/33"
printf 'op 3 ioctl HDIO_GET_32BIT -> 0\nguest-fuzz: contract: op 3: HDIO_GET_32BIT left byte 1 of its 8 unwritten\n' >"$WORK/contract/stdout"
verdict contract 0 "contract: op 3: HDIO_GET_32BIT left byte 1 of its 8 unwritten"
job nocontract "[    0.900000] ata1.00: configured for UDMA/33"
printf 'op 3 ioctl HDIO_GET_32BIT -> 0\nguest-fuzz: 0 contract breaches\n' >"$WORK/nocontract/stdout"
verdict nocontract 0 ok
# guest-fuzz's own checks on made-up results, on the host; its made-up
# breaches are no contract line.
gf=$(guest_fuzz_binary)
"$gf" --self-test >"$WORK/selftest" && grep -qx 'self-test: ok (0 checks failed)' "$WORK/selftest" &&
	grep -q '^self-test: caught: ' "$WORK/selftest" && ! grep -q '^guest-fuzz: contract' "$WORK/selftest" &&
	grep -A1 -x 'op 0 ioctl FAKE_HALF -> 0' "$WORK/selftest" | grep -qx 'self-test: caught: op 0: FAKE_HALF left byte 4 of its 8 unwritten' &&
	ok "guest-fuzz --self-test: $(grep -c caught "$WORK/selftest") breaches caught" ||
	bad "guest-fuzz --self-test: $(cat "$WORK/selftest")"
job slow "[    0.900000] ata1: soft resetting link"
verdict slow 124 "hang: the guest stopped: nothing on its console or its registers after 1.200 s"
verdict slow 125 "broken: "
verdict slow none "broken: "
# Killed at its timeout while still printing, or still moving data: slow.
job busy "[   84.100000] ata1: soft resetting link"
verdict busy 124 "slow: killed at its 90 s timeout while still working (last sign at 84.100 s)"
job polling "[    3.000000] ata1: soft resetting link" "3000000000 ata0 r 0x7 1 0x50 reg=Status bits=DRDY|DSC dev=0 seq=3 polls=900 last=88500000000"
verdict polling 124 "slow: killed at its 90 s timeout while still working (last sign at 88.500 s)"
[[ "$(explore_judge "$WORK/polling" 124 200)" == hang:* ]] && ok "the same run with a 200 s timeout: a hang" ||
	bad "the polling run with a 200 s timeout: $(explore_judge "$WORK/polling" 124 200)"
job bug "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 bug d0 drq-without-command seq=3"
verdict bug 0 "core-bug: "
job mode "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 violation d0 udma-timing reg=UDMATIM expected=0x2 actual=0x0 xfer=dma seq=3"
verdict mode 0 "mode: a transfer broke a timing rule"
job nodrq "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 violation d0 data-read-no-drq status=0x50 seq=3"
verdict nodrq 0 ok
job baddata "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 fault d0 rule=r1 kind=bm-error cmd=0xc8 lba=100 seq=3"
echo "ata-pattern: 924 of 2048 sectors differ" >>"$WORK/baddata/stderr"
verdict baddata 1 "data: ata-pattern: 924 of 2048 sectors differ"
job corrupted "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 fault d0 rule=r1 kind=corrupt cmd=0xc8 lba=100 seq=3"
echo "ata-pattern: 3 of 2048 sectors differ" >>"$WORK/corrupted/stderr"
verdict corrupted 1 ok
# ... and so may an identify-data rule (the drive's capacity or sector size).
job geometry "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 fault d0 rule=r1 kind=identify-data cmd=0xec lba=0 seq=3"
echo "ata-pattern: 3 of 2048 sectors differ" >>"$WORK/geometry/stderr"
verdict geometry 1 ok
# ... also when the corrupt firing is followed by thousands of others (a
# pipe that a grep -q closes early failed under pipefail: a false "data").
job manyfaults "[    0.900000] ata1.00: configured for UDMA/33" "$(
	echo "5 ata0 fault d0 rule=r1 kind=corrupt cmd=0xc8 lba=100 seq=3"
	for i in $(seq 6 6000); do echo "$i ata0 fault d0 rule=r2 kind=abrt cmd=0xc8 lba=100 seq=3"; done)"
echo "ata-pattern: 3 of 2048 sectors differ" >>"$WORK/manyfaults/stderr"
verdict manyfaults 1 ok
# lost-write: acknowledged (the workload's line), the image check failed.
lostrow=$(printf 'lost\tdata on disk 0: 1M bytes at 0, seed 5\tata-pattern: 8 of 2048 sectors differ\tFAIL')
job lost "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 fault d0 rule=r1 kind=timeout cmd=0xca lba=100 seq=3"
echo "explore: pattern written" >"$WORK/lost/stdout"
echo "$lostrow" >"$WORK/lost/result.tsv"
verdict lost 0 "lost-write: the guest's writes were acknowledged but the disk image does not hold them (ata-pattern: 8 of 2048 sectors differ)"
job unacked "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 fault d0 rule=r1 kind=write-fault cmd=0xca lba=100 seq=3"
echo "$lostrow" >"$WORK/unacked/result.tsv"
verdict unacked 1 ok
job powercut "[    0.900000] ata1.00: configured for UDMA/33" "5 ata0 fault d0 rule=r1 kind=power-cut cmd=0xca lba=100 seq=3"
echo "explore: pattern written" >"$WORK/powercut/stdout"
echo "$lostrow" >"$WORK/powercut/result.tsv"
verdict powercut 0 ok
job kept "[    0.900000] ata1.00: configured for UDMA/33"
echo "explore: pattern written" >"$WORK/kept/stdout"
sed 's/FAIL$/pass/' <<<"$lostrow" >"$WORK/kept/result.tsv"
verdict kept 0 ok
a=$(explore_signature "oops: WARNING: CPU: 0 PID: 61 at drivers/ata/libata-eh.c:1234 ata_eh_finish+0x3c/0x90")
b=$(explore_signature "oops: WARNING: CPU: 1 PID: 803 at drivers/ata/libata-eh.c:1234 ata_eh_finish+0x40/0x90")
c=$(explore_signature "oops: WARNING: CPU: 0 PID: 61 at drivers/ata/libata-sff.c:1234 ata_sff_hsm_move+0x3c/0x90")
[ "$a" = "$b" ] && ok "one bug found twice is one finding: $a" || bad "two signatures for one bug: $a / $b"
[ "$a" != "$c" ] && ok "two bugs are two findings" || bad "one signature for two bugs: $a"

# Draws: the same seed, the same scenario; fresh draws and mutations check.
"$ex" gen 42 >"$WORK/g1.scenario" && "$ex" gen 42 >"$WORK/g2.scenario" &&
	cmp -s "$WORK/g1.scenario" "$WORK/g2.scenario" && ok "gen 42 twice: the same scenario" ||
	bad "gen 42 drew two different scenarios"
mkdir -p "$WORK/draws"
for i in $(seq 1 150); do
	"$ex" gen "$i" >"$WORK/draws/fresh$i.scenario" || bad "gen $i failed"
	"$ex" gen $((i + 5000)) "$WORK/draws/fresh$i.scenario" >"$WORK/draws/mut$i.scenario" || bad "gen mutating $i failed"
done
cmp -s "$WORK/draws/fresh1.scenario" "$WORK/draws/mut1.scenario" && bad "a mutation changed nothing"
kinds=$(sed -n 's/^rule[.0-9]* = \([a-z-]*\) .*/\1/p' "$WORK"/draws/*.scenario | sort -u | wc -l)
[ "$kinds" = 19 ] && ok "300 draws use all 19 fault kinds" || bad "300 draws use $kinds fault kinds, not 19"
# The controller: every personality, ICH5's both channels native in some
# runs and on no other; timed rules (no class, no range) among the rules.
models=$(sed -n 's/^model = //p' "$WORK"/draws/fresh*.scenario | sort -u | paste -sd' ')
[ "$models" = "ich5 ich5-sata piix3 piix4" ] && ok "150 fresh draws: personalities $models" ||
	bad "150 fresh draws: personalities '$models'"
native=$(grep -l '^ide-mode = native$' "$WORK"/draws/*.scenario | wc -l)
wrong=$(grep -l '^ide-mode' "$WORK"/draws/*.scenario | xargs grep -L '^model = ich5' | wc -l)
[ "$native" -gt 0 ] && [ "$wrong" = 0 ] && ok "$native draws native, all on ICH5" ||
	bad "native draws: $native, on another personality: $wrong"
timed=$(grep -h '^rule.* on=time:' "$WORK"/draws/*.scenario | sort -u)
[ -n "$timed" ] && ! grep -Eq ' (class|lba)=' <<<"$timed" &&
	! grep -Evq '^rule[.0-9]* = (spurious-irq|remove|power-cut) ' <<<"$timed" &&
	ok "$(wc -l <<<"$timed") timed rules, of the three kinds, none with a class or range" ||
	bad "timed rules: $(head -n 3 <<<"$timed")"
moved=0
for i in $(seq 1 150); do
	[ "$(grep '^model' "$WORK/draws/fresh$i.scenario")" = "$(grep '^model' "$WORK/draws/mut$i.scenario")" ] ||
		moved=$((moved + 1))
done
[ $moved -gt 0 ] && [ $moved -lt 75 ] && ok "$moved of 150 mutations drew the controller again" ||
	bad "$moved of 150 mutations changed the personality"
"$ex" gen 9 --model ich5-sata >"$WORK/m.scenario" && "$ex" gen 10 --model ich5-sata "$WORK/draws/fresh1.scenario" >"$WORK/m2.scenario" &&
	grep -qx 'model = ich5-sata' "$WORK/m.scenario" && grep -qx 'model = ich5-sata' "$WORK/m2.scenario" &&
	ok "--model ich5-sata: fresh draws and mutations keep it" || bad "--model ich5-sata: $(grep -h '^model' "$WORK"/m*.scenario)"
"$ex" gen 9 --model piix5 >/dev/null 2>"$WORK/err" && bad "--model piix5 taken" || ok "--model piix5: $(cat "$WORK/err")"
works=$(sed -n 's/^description = explore workload=\([a-z-]*\).*/\1/p' "$WORK"/draws/*.scenario | sort -u | wc -l)
[ "$works" = 11 ] && ok "300 draws use all 11 workloads" || bad "300 draws use $works workloads, not 11"
# guest-fuzz's workloads: a seed in the description and on the run line,
# the CD-ROM there; a mutation keeps the parent's seed or draws another.
g=$(grep -l 'workload=passthrough' "$WORK"/draws/fresh*.scenario | head -n 1)
seed=$(sed -n 's/.* guest-seed=\([0-9]*\) guest-ops=60$/\1/p' "$g")
[ -n "$seed" ] && grep -qx "run = guest-fuzz --seed $seed --ops 60 --classes passthrough,scsi --time-limit 45 /dev/\$DISK0 /dev/\$CDROM" "$g" &&
	grep -qx 'cdrom = true' "$g" && ok "a passthrough draw: seed $seed, the CD-ROM" ||
	bad "a passthrough draw: $(grep -E '^(desc|run|cdrom)' "$g")"
kept=$(grep -l "guest-seed=" "$WORK"/draws/mut*.scenario | wc -l)
[ "$kept" -gt 0 ] && ok "$kept mutations with a guest-fuzz seed" || bad "no mutation kept or drew a guest-fuzz seed"
out=$("$(scenario_binary)" check "$WORK"/draws/*.scenario 2>&1) && ok "300 draws: $out" ||
	bad "drawn scenarios the checker refuses: $(head -n 5 <<<"$out")"
"$ex" gen 1 "$WORK/clean/console.log" >/dev/null 2>"$WORK/err" && bad "a parent that is no scenario was taken" ||
	ok "a bad parent: $(cat "$WORK/err")"

# Shrinking: each rule dropped, the probe workload (without the pattern
# expectation), each rule firing once, each at its first match (an nth
# rule is left as it is), each LBA range of two sectors or more halved;
# then no more.
cat >"$WORK/big.scenario" <<'SCEN'
[scenario]
description = explore workload=read-dma
disks = 1
timeout = 90

[faults]
rule = timeout id=r1 drive=0 class=read lba=1000+9 on=every:3
rule.2 = lost-irq id=r2 drive=0 class=other lba=50+1 on=nth:2
rule.3 = abrt id=r3 drive=0 times=once

[workload]
scsi-timeout = 2
run = dd if=/dev/$DISK0 of=/dev/null bs=64k count=128 iflag=direct

[expect]
pattern = 0:4M:2M:9
SCEN
want=("rule 1 dropped" "rule 2 dropped" "rule 3 dropped" "the probe workload" "rule 1 firing once"
	"rule 1 at its first match" "rule 3 at its first match" "rule 1's LBA range, its first half"
	"rule 1's LBA range, its second half")
for ((k = 0; k < ${#want[@]}; k++)); do
	"$ex" shrink "$WORK/big.scenario" $k >"$WORK/shrunk$k.scenario" || bad "shrink variant $k: none"
	got=$(sed -n '1s/^# Shrunk by tools\/atalab explore: \(.*\)\.$/\1/p' "$WORK/shrunk$k.scenario")
	[ "$got" = "${want[k]}" ] && ok "shrink variant $k: $got" || bad "shrink variant $k: '$got', not '${want[k]}'"
done
"$ex" shrink "$WORK/big.scenario" ${#want[@]} >/dev/null && bad "a variant past the last" ||
	ok "no variant ${#want[@]}"
[ "$(grep -c '^rule' "$WORK/shrunk1.scenario")" = 2 ] && ! grep -q 'lost-irq' "$WORK/shrunk1.scenario" &&
	ok "rule 2 dropped: two rules left, no lost-irq" || bad "rule 2 dropped: $(grep '^rule' "$WORK/shrunk1.scenario")"
grep -qx 'run *= *true' "$WORK/shrunk3.scenario" && grep -q 'workload=probe' "$WORK/shrunk3.scenario" &&
	! grep -q '^pattern' "$WORK/shrunk3.scenario" &&
	ok "the probe workload runs true" || bad "the probe variant: $(grep -E '^(run|desc)' "$WORK/shrunk3.scenario")"
grep -q 'timeout id=r1 drive=0 class=read lba=1000+9 on=every:3 times=once' "$WORK/shrunk4.scenario" &&
	ok "rule 1 firing once" || bad "rule 1 firing once: $(grep '^rule ' "$WORK/shrunk4.scenario")"
grep -q 'abrt id=r3 drive=0 times=once on=nth:1' "$WORK/shrunk6.scenario" &&
	ok "rule 3 at its first match" || bad "rule 3 at its first match: $(grep '^rule.3' "$WORK/shrunk6.scenario")"
grep -q 'timeout id=r1 drive=0 class=read lba=1000+4 on=every:3$' "$WORK/shrunk7.scenario" &&
	grep -q 'timeout id=r1 drive=0 class=read lba=1004+5 on=every:3$' "$WORK/shrunk8.scenario" &&
	ok "rule 1's range halved: 1000+4, 1004+5" || bad "halves: $(grep -h '^rule=' "$WORK"/shrunk[78].scenario)"
# A guest-fuzz workload shrinks to its first half of calls (after the
# probe), down to one.
sed -e 's/^description = .*/description = explore workload=ioctl guest-seed=77 guest-ops=5/' \
	-e 's|^run = .*|run = guest-fuzz --seed 77 --ops 5 --classes ioctl,sysfs --time-limit 45 /dev/$DISK0 /dev/$CDROM|' \
	-e 's/^timeout = 90/&\ncdrom = true/' "$WORK/big.scenario" >"$WORK/gf.scenario"
"$ex" shrink "$WORK/gf.scenario" 4 >"$WORK/shrunkgf.scenario"
head -n 1 "$WORK/shrunkgf.scenario" | grep -q "guest-fuzz's first 2 calls" &&
	grep -q 'guest-seed=77 guest-ops=2$' "$WORK/shrunkgf.scenario" &&
	grep -q -- '--seed 77 --ops 2 ' "$WORK/shrunkgf.scenario" && ok "guest-fuzz's first 2 calls of 5" ||
	bad "the guest-fuzz variant: $(grep -E '^(#|desc|run)' "$WORK/shrunkgf.scenario")"
sed -i 's/guest-ops=5/guest-ops=1/; s/--ops 5/--ops 1/' "$WORK/gf.scenario"
"$ex" shrink "$WORK/gf.scenario" 4 | head -n 1 | grep -q "first 0 calls" && bad "one call halved to none" ||
	ok "one call is not halved"
out=$("$(scenario_binary)" check "$WORK"/shrunk*.scenario 2>&1) && ok "the variants check: $out" ||
	bad "variants the checker refuses: $out"

# The coverage set: two lcov tracefiles.
lcov_info "$WORK/a.info" "libata-eh.c 10,1 11,0 12,5" "libata-sff.c 3,0" "other.c 1,9"
lcov_info "$WORK/b.info" "libata-eh.c 10,2 11,1 13,0" "libata-sff.c 3,0 4,0"
set1=$("$ex" cover "$WORK/cov.set" "$WORK/a.info")
set2=$("$ex" cover "$WORK/cov.set" "$WORK/b.info")
set3=$("$ex" cover "$WORK/cov.set" "$WORK/b.info")
[ "$set1" = "new 2 hit 2 found 4" ] && ok "first run: $set1" || bad "first run: $set1 (want new 2 hit 2 found 4)"
[ "$set2" = "new 1 hit 3 found 6" ] && ok "second run: $set2" || bad "second run: $set2 (want new 1 hit 3 found 6)"
[ "$set3" = "new 0 hit 3 found 6" ] && ok "the same run again: $set3" || bad "the same run again: $set3"
[ "$("$ex" count "$WORK/cov.set")" = "hit 3 found 6" ] && ok "count: hit 3 found 6" || bad "count: $("$ex" count "$WORK/cov.set")"
"$ex" summary "$WORK/cov.set" | grep -qx 'coverage: libata-eh.c     75.0% of lines (3 of 4)' &&
	ok "summary: libata-eh.c 3 of 4" || bad "summary: $("$ex" summary "$WORK/cov.set")"
echo "junk" >>"$WORK/cov.set"
"$ex" count "$WORK/cov.set" 2>"$WORK/err" >/dev/null && bad "a broken set was read" ||
	ok "a broken set: $(cat "$WORK/err")"
finish
