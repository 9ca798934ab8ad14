#!/usr/bin/env bash
# The effect expectation (docs/scenarios.md) judges what a rule's firings
# did from the trace, not that they happened: a latency rule's command must
# end its delay after the firing, a spurious-irq firing must raise INTRQ, a
# lost-irq command must end without it.  The scenario runner is given, in
# place of a guest, an atalab that only hands it a trace written here: one
# where the rule's effect is there and one where it is not.
. "$(dirname "$0")/lib.sh"
load_atalab
set +u
build_host_tools >/dev/null 2>&1 || { bad "the host tools do not build"; finish; }
runner=$(scenario_binary)
root=$WORK/root
mkdir -p "$root/tools"
cat >"$root/tools/atalab" <<'FAKE'
#!/usr/bin/env bash
# atalab run, faked: the trace in $FAKE_TRACE, an empty console, exit 0.
while [ $# -gt 0 ]; do
	case $1 in
	--trace) cp "$FAKE_TRACE" "$2"; shift ;;
	--log) : >"$2"; shift ;;
	--) break ;;
	esac
	shift
done
echo "@exit 0"
FAKE
chmod +x "$root/tools/atalab"
head() {
	printf '# atalab-trace 2\n# personality piix4\n# cable0 40\n# cable1 40\n'
	printf '# trace-data block\n# trace-time absolute\n# drive0 sectors=32768\n'
	printf '# drive1 absent\n# drive2 absent\n# drive3 absent\n'
}
scenario() {
	printf '[scenario]\ndescription = %s\n[faults]\nrule = %s\n[workload]\nrun = true\n' "$1" "$2"
	printf '[expect]\neffect = %s\n' "$3"
}
# judge NAME RULE ID TRACE-BODY WANT-PASS WANT-SEEN
judge() {
	local name=$1 out rc=0
	scenario "$name" "$2" "$3" >"$WORK/$name.scenario"
	{ head; printf '%s\n' "$4"; } >"$WORK/$name.trace"
	out=$(FAKE_TRACE=$WORK/$name.trace ATALAB_ROOT=$root "$runner" run "$WORK/$name.scenario" 2>&1) || rc=$?
	row=$(printf '%s\n' "$out" | grep "rule $3:")
	if [ -z "$row" ]; then
		bad "$name: no effect row: $out"
	elif [[ "$row" == *" $5  "* && "$row" == *"$6"* ]]; then
		ok "$name: $row"
	else
		bad "$name: want '$5 ... $6', got: $row"
	fi
}
LAT='latency id=slow delay=500ms drive=0 class=read lba=0+8'
judge latency-there "$LAT" slow "1000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1
1010 ata0 fault d0 rule=slow kind=latency cmd=0xc8 lba=0 seq=1
500001020 ata0 done d0 0xc8 status=0x50 seq=1" yes "1 ended, the soonest after 500.0 ms"
judge latency-missing "$LAT" slow "1000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1
1010 ata0 fault d0 rule=slow kind=latency cmd=0xc8 lba=0 seq=1
2000000 ata0 done d0 0xc8 status=0x50 seq=1" NO "1 ended, the soonest after 2.0 ms"
judge latency-unended "$LAT" slow "1000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1
1010 ata0 fault d0 rule=slow kind=latency cmd=0xc8 lba=0 seq=1" NO "1 firings, no command ended"
SPUR='spurious-irq id=idle drive=0 on=time:3s-forever'
judge spurious-there "$SPUR" idle "3000000000 ata0 fault d0 rule=idle kind=spurious-irq cmd=none lba=0 seq=2
3000000010 irq0 1 dev=0 seq=2" yes "after 1 of 1"
# INTRQ rising only for the next command is not the firing's
judge spurious-missing "$SPUR" idle "3000000000 ata0 fault d0 rule=idle kind=spurious-irq cmd=none lba=0 seq=2
3100000000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=3
3100000500 irq0 1 dev=0 seq=3" NO "after 0 of 1"
LOST='lost-irq id=lost drive=0 class=read lba=0+8 times=once'
judge lost-there "$LOST" lost "1000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1
1010 ata0 fault d0 rule=lost kind=lost-irq cmd=0xc8 lba=0 seq=1
2000 ata0 done d0 0xc8 status=0x50 seq=1" yes "1 of 1 ended without"
judge lost-missing "$LOST" lost "1000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1
1010 ata0 fault d0 rule=lost kind=lost-irq cmd=0xc8 lba=0 seq=1
1990 irq0 1 dev=0 seq=1
2000 ata0 done d0 0xc8 status=0x50 seq=1" NO "0 of 1 ended without"
# Refused before a guest boots, at the value.
scenario bad "unc id=u drive=0 lba=0" u >"$WORK/kind.scenario"
expect 2 "kind.scenario:8:10: effect checks latency, spurious-irq and lost-irq rules; 'u' is a unc rule" -- \
	scenario --check "$WORK/kind.scenario"
scenario bad "$LAT" nosuch >"$WORK/name.scenario"
expect 2 "name.scenario:8:10: effect names rule 'nosuch', which \[faults\] does not have" -- \
	scenario --check "$WORK/name.scenario"
finish
