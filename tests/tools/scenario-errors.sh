#!/usr/bin/env bash
# A bad scenario file stops before any guest boots with FILE:LINE:COLUMN
# and exit status 2: its INI syntax, every group, key and value, and its
# fault rules (through the core's own rule parser, located in the file).
# --driver is checked and carried into emitted jobs.
. "$(dirname "$0")/lib.sh"
good='[workload]\nrun = true\n'
bad_file() {    # bad_file NAME CONTENT (printf format)
	# shellcheck disable=SC2059
	printf "$2" >"$WORK/$1.scenario"
}
bad_file syntax '[scenario]\ndescription = x\n[workload\nrun = true\n'
expect 2 "^$WORK/syntax.scenario:3:1: expected \\[group\\], key = value or # comment, got '\\[workload'$" -- \
	scenario --check "$WORK/syntax.scenario"
bad_file model "[scenario]\nmodel = piix9\n$good"
expect 2 "^$WORK/model.scenario:2:9: model wants piix4, piix3, ich5 or ich5-sata, got 'piix9'$" -- \
	scenario --check "$WORK/model.scenario"
bad_file idemode "[scenario]\nmodel = ich5\nide-mode = pci\n$good"
expect 2 "^$WORK/idemode.scenario:3:12: ide-mode wants legacy, native, native0 or native1, got 'pci'$" -- \
	scenario --check "$WORK/idemode.scenario"
bad_file idemodel "[scenario]\nide-mode = native\n$good"
expect 2 "^$WORK/idemodel.scenario:2:12: ide-mode native wants model ich5 or ich5-sata \\(the PIIX channels are legacy only\\), got model piix4$" -- \
	scenario --check "$WORK/idemodel.scenario"
bad_file key "[scenario]\nbogus = 1\n$good"
expect 2 "^$WORK/key.scenario:2:1: unknown key 'bogus' in \\[scenario\\]$|^$WORK/key.scenario:2:9: unknown key 'bogus'" -- \
	scenario --check "$WORK/key.scenario"
bad_file rule "[scenario]\n[faults]\nrule = unc drive=0 lba=5\nrule.2 =   abrt   cmd=0xzz\n$good"
expect 2 "^$WORK/rule.scenario:4:23: cmd wants an opcode \\(0x00-0xff\\), got '0xzz'$" -- \
	scenario --check "$WORK/rule.scenario"
bad_file deterministic "[scenario]\ndeterministic = often\n$good"
expect 2 "^$WORK/deterministic.scenario:2:17: deterministic wants true or false$" -- \
	scenario --check "$WORK/deterministic.scenario"
bad_file cdrom "[scenario]\ndisks = 3\ncdrom = true\n$good"
expect 2 "^$WORK/cdrom.scenario:3:9: cdrom takes the secondary master: disks wants 1 or 2 with it, got 3$" -- \
	scenario --check "$WORK/cdrom.scenario"
bad_file sense "[scenario]\ncdrom = true\n[faults]\nrule = sense id=s drive=2 sense=3/11\n$good"
expect 2 "^$WORK/sense.scenario:4:33: sense wants KEY/ASC/ASCQ in hex" -- \
	scenario --check "$WORK/sense.scenario"
bad_file exit "[scenario]\n$good[expect]\nexit = abc\n"
expect 2 "^$WORK/exit.scenario:5:8: exit wants a number from 0 to 255, got 'abc'$" -- \
	scenario --check "$WORK/exit.scenario"
bad_file fired "[scenario]\n[faults]\nrule = unc id=a drive=0 lba=5\n$good[expect]\nfired = b=1\n"
expect 2 "^$WORK/fired.scenario:7:9: fired names rule 'b', which \\[faults\\] does not have$" -- \
	scenario --check "$WORK/fired.scenario"
bad_file pattern "[scenario]\n$good[expect]\npattern = 1:0:1M:5\n"
expect 2 "^$WORK/pattern.scenario:5:11: pattern wants POSITION:OFFSET:SIZE:SEED with a position below disks=1" -- \
	scenario --check "$WORK/pattern.scenario"
# Running one refuses it the same way, and no guest boots.
expect 2 "^$WORK/rule.scenario:4:23: " -- scenario --work "$WORK/runs" "$WORK/rule.scenario"
[ ! -e "$WORK/runs" ] && ok "nothing ran" || bad "a run started for a bad scenario"
# --driver: a module name, only where a guest runs; emitted jobs carry it.
expect 2 "--driver wants a module name, got 'a b'" -- scenario --driver 'a b' "$ATALAB_ROOT/tests/scenarios"
expect 2 "--check runs no guest: no --driver" -- scenario --check --driver atalab_piix "$ATALAB_ROOT/tests/scenarios"
expect 0 "1 jobs in " -- scenario --emit-jobs "$WORK/jobs" --driver atalab_piix "$ATALAB_ROOT/tests/scenarios/amnf.scenario"
grep -q -- "--run-one .* --driver atalab_piix\$" "$WORK/jobs/amnf/job.sh" && ok "the job runs with --driver atalab_piix" ||
	bad "the job does not carry --driver: $(tail -n 1 "$WORK/jobs/amnf/job.sh")"
# The library itself is good.
expect 0 "scenario file\\(s\\) good" -- scenario --check "$ATALAB_ROOT/tests/scenarios"
finish
