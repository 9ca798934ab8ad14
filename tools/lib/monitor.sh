# shellcheck shell=bash
# tools/atalab monitor: a client for the HMP monitor of a running guest.

monitor_usage() {
	cat <<USAGE
usage: atalab monitor [--wait SECONDS] SOCKET COMMAND [COMMAND ...]

Runs each HMP COMMAND on the monitor of a guest started with
'atalab run --monitor SOCKET' (or QEMU's -monitor unix:SOCKET,server=on,wait=off)
and prints the answers.  Waits up to SECONDS (default 30) for the socket to
appear, so it can follow a run started in the background at once.

examples:
  tools/atalab monitor mon.sock 'info atalab'
  tools/atalab monitor mon.sock 'qom-get /machine/peripheral/ata timing0'
  tools/atalab monitor mon.sock quit
USAGE
}

# monitor_send SOCKET WAIT COMMAND...: the client (also used by debug).
monitor_send() {
	python3 "$ATALAB_ROOT/tools/lib/hmp-client.py" "$@"
}

cmd_monitor() {
	local wait=30
	while [ $# -gt 0 ]; do
		case "$1" in
		-h | --help) monitor_usage; return 0 ;;
		--wait) [ $# -ge 2 ] || usage_error "option --wait needs a value (SECONDS)"
			wait=$2; shift 2 ;;
		--wait=*) wait=${1#*=}; shift ;;
		--) shift; break ;;
		-*) usage_error "unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[[ "$wait" =~ ^[0-9]+$ ]] || usage_error "--wait wants a number of seconds, got '$wait'"
	[ $# -ge 2 ] || usage_error "wants a SOCKET and at least one COMMAND"
	monitor_send "$1" "$wait" "${@:2}"
}
