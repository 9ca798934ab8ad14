# shellcheck shell=bash
# tools/atalab fault: change the fault rules of a running guest over QMP
# (the atalab-ide QOM properties fault-add, fault-remove, fault-clear and
# fault-list; docs/faults.md).

cmd_fault() {
	local sub=${1:-} sock="" path=/machine/peripheral/ata
	[ $# -gt 0 ] && shift
	case "$sub" in
	-h | --help | "")
		cat <<USAGE
usage: atalab fault add|remove|list|clear --qmp SOCKET [--path QOM-PATH] [ARG...]
  add RULE...     add rules (one argument each, docs/faults.md syntax)
  remove ID...    remove rules by id
  list            the rules with their match and firing counts
  clear           remove every rule
The guest must run with a QMP socket, e.g. tools/atalab run
--qemu-arg -qmp --qemu-arg unix:SOCKET,server=on,wait=off.  The device is
$path unless --path says otherwise (tools/atalab run names it "ata").

examples:
  tools/atalab fault add --qmp qmp.sock 'unc id=bad drive=0 lba=20000+8'
  tools/atalab fault list --qmp qmp.sock
  tools/atalab fault clear --qmp qmp.sock
USAGE
		[ -n "$sub" ] && return 0
		return 2
		;;
	add | remove | list | clear) ;;
	*) usage_error "unknown subcommand '$sub'" ;;
	esac
	local -a args=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--qmp | --path)
			[ $# -ge 2 ] || usage_error "option $1 needs a value"
			[ "$1" = --qmp ] && sock=$2 || path=$2
			shift 2
			;;
		*) args+=("$1"); shift ;;
		esac
	done
	[ -n "$sock" ] || usage_error "$sub needs --qmp SOCKET"
	local qmp=$ATALAB_ROOT/tools/lib/qmp-client a
	case "$sub" in
	add | remove)
		[ ${#args[@]} -gt 0 ] || usage_error "$sub needs an argument"
		for a in "${args[@]}"; do
			"$qmp" "$sock" qom-set "$(fault_qom_args "$path" "fault-$sub" "$a")" >/dev/null || return 1
		done
		;;
	clear)
		"$qmp" "$sock" qom-set "{\"path\": \"$path\", \"property\": \"fault-clear\", \"value\": true}" >/dev/null
		;;
	list)
		"$qmp" "$sock" qom-get "{\"path\": \"$path\", \"property\": \"fault-list\"}" |
			python3 -c 'import json, sys; sys.stdout.write(json.load(sys.stdin))'
		;;
	esac
}

# The JSON arguments of a qom-set of a string property.
fault_qom_args() {
	python3 -c 'import json, sys; print(json.dumps({"path": sys.argv[1], "property": sys.argv[2], "value": sys.argv[3]}))' "$@"
}
