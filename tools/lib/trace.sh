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
       atalab trace grep [--kind K] [--source S] [--dev U] [--key K=V]... [--word W]
                         [--count | --sum KEY | --field KEY|@N] FILE
       atalab trace header FILE [KEY]
       atalab trace forms
  check    parse every record strictly (FILE:LINE: message on the first
           bad one) and count the records of each kind
  grep     print the records that match every filter: --kind a form of the
           record table (ATA_FAULT, ACCESS) or a record kind (fault,
           timing-summary); --source ata0, bm, ...; --dev the device;
           --key K=V a key's value (K= only: the key is present); --word W
           a word of the record.  --count: how many; --sum KEY: the sum of
           KEY over them; --field KEY: its value in each (@N: the N-th word
           after the head, from 0).  Exit 1 when nothing matched
  header   the header lines, or the values of one key (fault, personality)
  forms    the record table: form, source, kind, unit, words, keys
Exit status 2 for a bad command line or a malformed trace.

examples:
  tools/atalab trace check run.trace
  tools/atalab trace grep --kind fault --key rule=bad --count run.trace
  tools/atalab trace grep --kind timing-summary --sum violations run.trace
  tools/atalab trace header run.trace personality
USAGE
		[ -n "$sub" ] && return 0
		return $ATALAB_EXIT_USAGE
		;;
	check | grep | header | forms) ;;
	*) usage_error "unknown subcommand '$sub'" ;;
	esac
	build_host_tools
	"$(trace_tool_binary)" "$@"
}
