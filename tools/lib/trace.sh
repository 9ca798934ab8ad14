# shellcheck shell=bash
# tools/atalab trace: read register traces (traces/FORMAT.md) with the
# trace reader library: check them, select records, print the header
# (tools/trace/atalab-trace.c).

cmd_trace() {
	local sub=${1:-}
	case "$sub" in
	-h | --help | "")
		cat <<USAGE
usage: atalab trace check FILE...
       atalab trace grep [--kind K]... [--source S] [--dev U] [--key K=V]... [--word W]...
                         [--count | --sum KEY | --field KEY|@N] FILE
       atalab trace header FILE [KEY]
       atalab trace forms
       atalab trace diff [--format report|unified|json] [--ignore CLASS,...|none]...
                         [--only SPACE] [--context N] [--max N] [--stats] A B
       atalab trace normalize FILE
       atalab trace replay [--context N] [--max-accesses N] [--quiet] FILE
       atalab trace vcd FILE [-o OUT]
       atalab trace report FILE [-o OUT] [--vcd VCD]
       atalab trace report A B [-o OUT] [--ignore CLASS,...|none]
       atalab trace bless [NAME...]
  check    parse every record strictly (FILE:LINE: message on the first
           bad one) and count the records of each kind
  grep     print the records that match every filter: --kind a form of the
           record table (ATA_FAULT, ACCESS) or a record kind (fault,
           timing-summary), several: any of them; --source ata0, bm, ...;
           --dev the device; --key K=V a key's value (K= only: the key is
           present); --word W a word of the record (--key and --word
           repeated: all of them).  --count: how many; --sum KEY: the sum of
           KEY over them; --field KEY: its value in each (@N: the N-th word
           after the head, from 0).  Exit 1 when nothing matched
  header   the header lines, or the values of one key (fault, personality)
  forms    the record table: form, source, kind, unit, words, keys
  diff     compare two traces of one scenario (docs/trace-diff.md): aligned
           by drive and command sequence, by phase and by configuration
           write, a report of what differs (timing register writes with
           their decode, commands, protocol paths, outcomes and error
           handling, fault firings, violations, data).  --format unified:
           a line diff of the normalized records; json: for tools.
           --ignore a class (timing, commands, protocol, errors, faults,
           violations, data, taskfile, polls, time, addresses; default:
           time, polls and addresses; none: nothing); --only a space (cfg,
           bm, ata0, ata1, ctl0, ctl1, irq0, irq1); --context N: unified
           context lines (3); --max N: report lines per class (40);
           --stats: time and peak memory on stderr.  Exit 0 same, 1
           different, 2 unreadable or not comparable (header personality,
           cables, drives or fault rules disagree), saying why
  normalize  the trace without what differs between two runs of the same
           thing: times 0, no polls= or last=, guest addresses (prdt=,
           at=, addr=, step=, BMIDTPX) zero, no run.atalab header line
  replay   feed the trace's inputs (guest accesses, backend answers, timer
           firings) to the emulator core alone, no QEMU or guest, and check
           that it writes the recorded records, in order, but for times and
           data (docs/trace-replay.md).  Exit 0 same; 1 at the first
           divergence, shown with the --context N records around it (5);
           2 malformed trace.  --max-accesses: the most guest accesses one
           record may stand for (10000000; a bound for untrusted traces)
  vcd      the trace as a Value Change Dump for a waveform viewer (GTKWave):
           per channel INTRQ and bus-master ACTIVE, per drive BSY and DRQ as
           the host read them, the command in progress and the decoded PIO,
           MWDMA and UDMA modes (docs/trace-vcd.md); to OUT or stdout
  report   the trace as one self-contained HTML page (docs/trace-report.md):
           the header, a summary table (commands by protocol and outcome,
           fault firings, violations, bytes, time per phase) and a zoomable
           timeline: per channel INTRQ, bus-master activity and SRST, per
           drive its commands (coloured by protocol and outcome), fault
           firings and violations, and its decoded timing; a click shows
           the records.  To OUT or stdout; --vcd also writes the VCD.
           With two traces, the runs side by side: lined up as trace diff
           lines them up (--ignore as its), every difference it reports
           listed and marked on its commands, a click shows both records
  bless    rerun the golden traces (traces/golden/README.md), every one or
           the NAMEs, and write them normalized (see trace bless --help)
Exit status 2 for a bad command line or a malformed trace.

examples:
  tools/atalab trace check run.trace
  tools/atalab trace grep --kind fault --key rule=bad --count run.trace
  tools/atalab trace grep --kind timing-summary --sum violations run.trace
  tools/atalab trace header run.trace personality
  tools/atalab trace diff ata_piix.trace atalab_piix.trace
  tools/atalab trace diff --ignore none --format unified run1.trace run2.trace
  tools/atalab trace replay traces/golden/piix4-ata_piix-dma.trace
  tools/atalab trace vcd run.trace -o run.vcd && gtkwave run.vcd
  tools/atalab trace report run.trace -o run.html && chromium run.html
  tools/atalab trace report ata_piix.trace atalab_piix.trace -o diff.html
  tools/atalab trace bless piix4-ata_piix-dma
USAGE
		[ -n "$sub" ] && return 0
		return $ATALAB_EXIT_USAGE
		;;
	check | grep | header | forms | diff | normalize | replay | vcd | report) ;;
	bless)
		shift
		cmd_trace_bless "$@"
		return
		;;
	*) usage_error "unknown subcommand '$sub'" ;;
	esac
	build_host_tools
	"$(trace_tool_binary)" "$@"
}
