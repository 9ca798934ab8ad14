# shellcheck shell=bash
# tools/atalab fault: change the fault rules of a running guest over QMP
# (the atalab-ide QOM properties fault-add, fault-remove, fault-clear and
# fault-list; docs/faults.md).

fault_options() {
	opt_words
	opt --qmp SOCKET "the guest's QMP socket (needed)"
	opt --path QOM-PATH "the device's QOM path (default /machine/peripheral/ata: tools/atalab run names the device \"ata\")"
}

fault_usage() {
	cat <<USAGE
usage: atalab fault add|remove|list|clear --qmp SOCKET [--path QOM-PATH] [ARG...]
  add RULE...     add rules (one argument each, docs/faults.md syntax)
  remove ID...    remove rules by id
  list            the rules with their match and firing counts
  clear           remove every rule
The guest must run with a QMP socket, e.g. tools/atalab run
--qemu-arg -qmp --qemu-arg unix:SOCKET,server=on,wait=off.

options:
$(options_help fault_options)

examples:
  tools/atalab fault add --qmp qmp.sock 'unc id=bad drive=0 lba=20000+8'
  tools/atalab fault list --qmp qmp.sock
  tools/atalab fault clear --qmp qmp.sock
USAGE
}

cmd_fault() {
	local sub=${OPT_ARGS[0]:-} sock=${OPT[--qmp]:-} path=${OPT[--path]:-/machine/peripheral/ata}
	local -a args=("${OPT_ARGS[@]:1}")
	case "$sub" in
	"") fault_usage >&2; return $ATALAB_EXIT_USAGE ;;
	add | remove | list | clear) ;;
	*) usage_error "unknown subcommand '$sub'" ;;
	esac
	[ -n "$sock" ] || usage_error "$sub needs --qmp SOCKET"
	local qmp=$ATALAB_ROOT/tools/lib/qmp-client a
	case "$sub" in
	add | remove)
		[ ${#args[@]} -gt 0 ] || usage_error "$sub needs an argument"
		for a in "${args[@]}"; do
			"$qmp" "$sock" qom-set "$(fault_qom_args "$path" "fault-$sub" "$a")" >/dev/null || return 1
		done
		;;
	list | clear)
		[ ${#args[@]} = 0 ] || usage_error "$sub takes no argument (got '${args[0]}')"
		if [ "$sub" = clear ]; then
			"$qmp" "$sock" qom-set "{\"path\": \"$path\", \"property\": \"fault-clear\", \"value\": true}" >/dev/null
		else
			"$qmp" "$sock" qom-get "{\"path\": \"$path\", \"property\": \"fault-list\"}" |
				python3 -c 'import json, sys; sys.stdout.write(json.load(sys.stdin))'
		fi
		;;
	esac
}

# The JSON arguments of a qom-set of a string property.
fault_qom_args() {
	python3 -c 'import json, sys; print(json.dumps({"path": sys.argv[1], "property": sys.argv[2], "value": sys.argv[3]}))' "$@"
}
