#!/usr/bin/env bash
# Bad command lines stop with exit status 2 and a message naming the
# problem, before anything boots; bad input QEMU itself refuses stops with
# 125 and QEMU's message.
. "$(dirname "$0")/lib.sh"
d=$WORK/d.img
: >"$WORK/empty.gdb"

expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 2 "usage: atalab COMMAND" --
# Every command, and every trace subcommand, refuses an option it lacks.
for c in $("$ATALAB" --commands); do
	[ "$c" = trace ] || expect 2 "^atalab: $c: unknown option '--no-such-option'" -- "$c" --no-such-option
done
for s in check grep header forms diff normalize replay vcd report; do
	expect 2 "^atalab-trace $s: unknown option '--no-such-option'" -- trace "$s" --no-such-option x
done
expect 2 "^atalab: trace: unknown option '--no-such-option'" -- trace bless --no-such-option
expect 2 "unknown option '-q'" -- test -q
expect 2 "test: --num-processes wants a positive number, got 'x'" -- test --num-processes x
expect 2 "bench: --diff and --report exclude each other" -- bench --diff --report
expect 2 "bench: --trace has no effect with --diff or --report" -- bench --report --trace
expect 2 "fuzz: --make-seeds runs no fuzzer: no --time" -- fuzz --make-seeds --time 5
expect 2 "fuzz: --target wants core or trace, got 'kernel'" -- fuzz --target kernel
expect 2 "fault: list takes no argument \(got 'x'\)" -- fault list --qmp "$WORK/sock" x
expect 2 "driver: takes one subcommand" -- driver patches check
expect 2 "usage: atalab driver" -- driver ""
expect 2 "monitor: option --wait wants a value \(SECONDS\), got an empty one" -- monitor --wait "" "$WORK/sock" info
expect 2 "run: option --timeout wants a value \(SECONDS\), got an empty one" -- run --timeout=""
expect 2 "monitor: --wait wants a number of seconds, got 'x'" -- monitor --wait x "$WORK/sock" info
expect 2 "scenario: --merge and --check exclude each other" -- scenario --check --merge "$WORK" x
expect 2 "unknown option '--bogus'" -- run --bogus
expect 2 "unexpected argument 'true'" -- run true
expect 2 "option --timeout needs a value" -- run --timeout
expect 2 "--timeout wants a positive number of seconds, got 'soon'" -- run --timeout soon
expect 2 "--quiet takes no value" -- run --quiet=yes
expect 2 "--cable wants 40 or 80, got '50'" -- run --cable 50
expect 2 "--ide-mode wants legacy, native, native0 or native1, got 'both'" -- run --ide-mode both
expect 2 "--accel wants auto, tcg or kvm, got 'hvf'" -- run --accel hvf
expect 2 "--controller wants atalab, piix4-ide or none, got 'ahci'" -- run --controller ahci
expect 2 "--driver wants a module name, got 'a/b'" -- run --driver a/b
expect 2 "at most 4 --disk" -- run --disk a --disk b --disk c --disk d --disk e
expect 2 "--disk-size wants a size like 128M, got '12 parsecs'" -- run --disk-size '12 parsecs'
expect 2 "--cdrom $WORK/no.iso: no such file \(give a disc image, or 'empty'\)" -- run --cdrom "$WORK/no.iso"
expect 2 "--cdrom takes the position of --disk number 3 \('c'\): give 'none' there" -- \
	run --cdrom empty --disk a --disk b --disk c
expect 2 "--cdrom has no effect with --controller piix4-ide" -- run --controller piix4-ide --cdrom empty
expect 2 "--memory 32M is too little: the guest kernel needs at least 64M" -- run --memory 32M
expect 2 "--memory wants a size like 512M, got 'lots'" -- run --memory lots
expect 2 "--disk $WORK/no/such/dir/x.img: folder '$WORK/no/such/dir' does not exist" -- \
	run --disk "$WORK/no/such/dir/x.img"
expect 2 "--disk $WORK: not a file or block device" -- run --disk "$WORK"
# Options without effect are refused, not ignored.
expect 2 "--trace has no effect with --controller piix4-ide" -- run --controller piix4-ide --trace "$WORK/t"
expect 2 "--model has no effect with --controller piix4-ide" -- run --controller piix4-ide --model ich5
expect 2 "--device-opt has no effect with --controller none" -- run --controller none --device-opt strict=on
expect 2 "--cable has no effect with --controller none" -- run --controller none --cable 80
expect 2 "--disk has no effect with --controller none" -- run --controller none --disk "$d"
expect 2 "takes no arguments \(got 'now'\)" -- build now
expect 2 "takes no arguments" -- setup again
expect 2 "--runs wants a positive number, got '0'" -- bench --runs 0
expect 2 "--kernel /nonexistent/bzImage: no such file" -- run --kernel /nonexistent/bzImage
expect 2 "--fault-seed wants a non-negative number, got 'x'" -- run --fault-seed x
expect 2 "--trace-data wants block or raw, got 'folded'" -- run --trace t.txt --trace-data folded
expect 2 "no golden trace 'nosuch'; trace bless --help lists them" -- trace bless nosuch
expect 2 "--trace-time wants absolute or relative, got 'wall'" -- run --trace t.txt --trace-time wall
expect 2 "--trace-data has no effect without --trace" -- run --trace-data raw
expect 2 "--deterministic counts instructions: TCG only, not --accel kvm" -- run --deterministic --accel kvm
expect 2 "--deterministic has no effect with --controller piix4-ide" -- run --deterministic --controller piix4-ide
expect 2 "--faults $WORK/none.rules: no such readable file" -- run --faults "$WORK/none.rules"
expect 2 "--faults has no effect with --controller piix4-ide" -- run --controller piix4-ide --faults "$WORK/empty.gdb"
expect 2 "matrix: unknown personality 'ich6' \(known: piix3 piix4 ich5-80 ich5-40 ich5-sata\)" -- \
	matrix --personality ich6
expect 2 "--jobs wants a positive number, got '0'" -- matrix --jobs 0
expect 2 "--ide-mode native: piix4 has no native PCI mode" -- matrix --personality piix4 --ide-mode native
expect 2 "--ide-mode wants legacy or native, got 'native0'" -- matrix --ide-mode native0
expect 2 "matrix: unknown option '--fast'" -- matrix --fast
expect 2 "explore: --budget wants a time like 90s, 30m or 2h, got '10x'" -- explore --budget 10x /tmp/x
expect 2 "explore: --personality wants one of piix3 piix4 ich5 ich5-sata, got 'ich6'" -- explore --personality ich6 /tmp/x
expect 2 "explore: wants one DIR \(the corpus and findings\), got 0 words" -- explore --runs 3
expect 2 "explore: --runs wants a positive number, got '0'" -- explore --runs 0 /tmp/x
expect 2 "explore: unknown option '--fast'" -- explore --fast /tmp/x
expect 2 "explore: --emit-jobs wants 1 to 99 jobs, got '0'" -- explore --emit-jobs 0 /tmp/x
expect 2 "explore: --against /nonexistent.info: no such file" -- explore --against /nonexistent.info /tmp/x
expect 2 "explore: --merge takes only --against, not --runs" -- explore --merge --runs 3 /tmp/x
expect 2 "usage: atalab driver patches" -- driver
expect 2 "driver: unknown subcommand 'publish'" -- driver publish
expect 2 "fuzz: --time wants a positive number, got 'x'" -- fuzz --time x
expect 2 "fuzz: --runs wants a positive number, got '0'" -- fuzz --runs 0
expect 2 "fuzz: --runs counts one job's executions: not with --jobs" -- fuzz --runs 5 --jobs 2
expect 2 "fault: unknown subcommand 'zap'" -- fault zap
expect 2 "fault: list needs --qmp SOCKET" -- fault list
expect 2 "scenario: unknown option '--fast'" -- scenario --fast x
expect 2 "scenario: needs a scenario file" -- scenario --jobs 2
expect 2 "--trace and --compare-driver go with a run of scenarios, not --check" -- scenario --check --trace "$WORK/tr" x.scenario
expect 2 "--compare-driver runs twice: no --coverage" -- scenario --compare-driver atalab_piix --coverage x.scenario
expect 2 "--compare-driver wants a module name, got 'a b'" -- scenario --compare-driver "a b" x.scenario
expect 2 "unknown option '--fast'" -- bench --fast
expect 2 "wants a SOCKET and at least one COMMAND" -- monitor "$WORK/sock"
expect 2 "needs a terminal" -- shell --disk "$d"
expect 2 "--gdb-batch $WORK/none.gdb: no such readable file" -- debug --gdb-batch "$WORK/none.gdb"
expect 2 "--gdb-port wants a TCP port number, got '70000'" -- debug --gdb-port 70000
expect 2 "--stop-on wants violation\[=RULE\], cmd=OPCODE, write=REGISTER or fault\[=RULE-ID\], got 'cmd=c8h'" -- \
	debug --stop-on cmd=c8h
expect 2 "--stop-on wants .* got 'fault=a b'" -- debug --stop-on 'fault=a b'
expect 2 "--stop-on has no effect with --controller piix4-ide" -- debug --controller piix4-ide --stop-on violation
expect 2 "with --debug-qemu, break in atalab_host_event instead" -- debug --debug-qemu --stop-on violation
expect 2 "--list-models and --list-device-opts are 'atalab run' options" -- debug --list-models
# These need the build (the model table, qemu-img), still before QEMU.
expect 2 "--model: unknown personality 'pentium' \(known: piix4, piix3, ich5, ich5-sata\)" -- \
	run --quiet --log "$WORK/log" --disk "$d" --disk-size 1M --model pentium -- true
expect 2 "--disk $d,format=vhs: unknown format 'vhs'" -- \
	run --quiet --log "$WORK/log" --disk "$d,format=vhs" -- true
# QEMU refuses a bad device property, naming it.
expect 125 "QEMU refused to start" -- \
	run --quiet --log "$WORK/log" --disk "$d" --disk-size 1M --device-opt cable0=60 -- true
expect 125 "cable0 must be 40 or 80" -- \
	run --quiet --log "$WORK/log" --disk "$d" --device-opt cable0=60 -- true
expect 125 "mode must be legacy, native, native0 or native1, not 'pci'" -- \
	run --quiet --log "$WORK/log" --disk "$d" --model ich5 --device-opt mode=pci -- true
expect 125 "model piix4 has no native PCI mode" -- \
	run --quiet --log "$WORK/log" --disk "$d" --device-opt mode=native -- true
expect 125 "kind2 must be disk or cd, not 'tape'" -- \
	run --quiet --log "$WORK/log" --disk "$d" --device-opt kind2=tape -- true
expect 125 "kind1=cd needs drive1" -- \
	run --quiet --log "$WORK/log" --disk "$d" --device-opt kind1=cd -- true
expect 125 "stop-on: write wants a register of model piix3, got 'UDMATIM'" -- \
	run --quiet --log "$WORK/log" --disk "$d" --model piix3 --device-opt stop-on=write=UDMATIM -- true
expect 125 "stop-on: unknown rule 'udma-late' \(known: pio-overclock" -- \
	debug --quiet --log "$WORK/log" --disk "$d" --stop-on violation=udma-late --gdb-batch "$WORK/empty.gdb" -- true
# A bad fault rule file stops before any guest boots, naming the token.
printf 'unc drive=0 lba=100+8   # fine\nabrt cmd=0xzz\n' >"$WORK/bad.rules"
expect 2 "^$WORK/bad.rules:2:10: cmd wants an opcode \\(0x00-0xff\\), got '0xzz'$" -- \
	run --quiet --log "$WORK/fault.log" --disk "$d" --faults "$WORK/bad.rules" -- true
[ ! -s "$WORK/fault.log" ] && ok "no guest booted with a bad rule file" || bad "a guest booted with a bad rule file"
printf 'unc drive=0 lbx=5\n' >"$WORK/bad2.rules"
expect 2 "bad2.rules:1:13: unknown key 'lbx'" -- run --disk "$d" --faults "$WORK/bad2.rules" -- true
finish
