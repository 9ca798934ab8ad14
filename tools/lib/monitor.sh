# shellcheck shell=bash
# tools/atalab monitor: a client for the HMP monitor of a running guest.

monitor_options() {
	opt_words
	opt --wait SECONDS "how long to wait for the socket to appear (default 30), so a run started in the background can be followed at once"
}

monitor_usage() {
	cat <<USAGE
usage: atalab monitor [--wait SECONDS] SOCKET COMMAND [COMMAND ...]

Runs each HMP COMMAND on the monitor of a guest started with
'atalab run --monitor SOCKET' (or QEMU's -monitor unix:SOCKET,server=on,wait=off)
and prints the answers.

options:
$(options_help monitor_options)

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
	local wait=${OPT[--wait]:-30}
	[[ "$wait" =~ ^[0-9]+$ ]] || usage_error "--wait wants a number of seconds, got '$wait'"
	[ ${#OPT_ARGS[@]} -ge 2 ] || usage_error "wants a SOCKET and at least one COMMAND"
	monitor_send "${OPT_ARGS[0]}" "$wait" "${OPT_ARGS[@]:1}"
}
