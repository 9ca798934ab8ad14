# shellcheck shell=bash
# tools/atalab debug: the guest kernel under gdb through QEMU's gdbstub
# (module symbols through the kernel's lx-symbols, device-side stops), or
# QEMU itself under gdb.  docs/debugging.md describes the workflow.

ATALAB_DEBUG_STATUS_GDB=126     # a --gdb-batch script failed
# Instruction counting makes port I/O end its translation block, so a stop
# requested by the device lands right after the instruction that caused it.
ATALAB_DEBUG_ICOUNT=(-icount shift=3)

# The options debug adds to run's (debug_options: all of them).
debug_only_options() {
	opt --gdb-port PORT "TCP port of QEMU's gdbstub on 127.0.0.1 (default: a free one)"
	opt --gdb-batch FILE+ "gdb script to run instead of a gdb prompt; afterwards the guest runs on to its end, and debug exits with the guest command's status, or $ATALAB_DEBUG_STATUS_GDB when a script failed"
	opt --break SYMBOL+ "breakpoint set before the guest runs; pending until the module that has SYMBOL is loaded"
	opt --stop-on EVENT+ "stop the guest at the instruction that caused EVENT: violation[=RULE], cmd=OPCODE, write=REGISTER (fault[=RULE-ID] comes with fault injection)"
	opt --debug-qemu - "run QEMU itself under gdb (the device model) instead of the guest kernel; --break then names QEMU functions"
}

debug_options() {
	run_options
	debug_only_options
}

debug_usage() {
	cat <<USAGE
usage: atalab debug [run options] [debug options] [-- guest-command [arg ...]]

Boots a guest like 'atalab run' with QEMU's gdbstub and the kernel booted
with nokaslr, and starts gdb on the kit's vmlinux with the kernel's gdb
scripts.  The guest is held until gdb has run it to start_kernel and set up
lx-symbols (pointed at the kit's kernel and driver/ module builds), so the
symbols of ata_piix or atalab_piix load the moment the module is inserted;
then the --break breakpoints are set and gdb is yours.  The atalab gdb
commands (atalab-assert, atalab-expect-frame, atalab-expect-pc-in,
atalab-expect-stop; 'help user-defined') check a stop in scripts.  When gdb
exits, stops are cleared and the guest runs on to the end of its command.

A device stop (--stop-on) pauses the guest right after the instruction that
caused the event (under TCG with instruction counting); gdb reports SIGTRAP
and the reason, 'continue' resumes.  RULE: a timing rule of docs/timing.md
or data-read-no-drq/data-write-no-drq; OPCODE: e.g. 0xC8; REGISTER: a
configuration register of the personality (IDETIM0, UDMATIM, IDE_CONFIG, ...).

options (and those of 'atalab run'):
$(options_help debug_only_options)

exit status: as 'atalab run'; with --gdb-batch, $ATALAB_DEBUG_STATUS_GDB when a script failed.
The default --timeout is none with a gdb prompt, 300 s with --gdb-batch.

examples:
  tools/atalab debug --break piix_set_dmamode
  tools/atalab debug --model ich5 --cable 80 --stop-on write=IDE_CONFIG -- true
  tools/atalab debug --gdb-batch check.gdb -- true
  tools/atalab debug --debug-qemu --break atalab_ctrl_config_write
USAGE
}

# A TCP port nobody listens on now.
debug_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Usage checks of the debug options; sets DEBUG_*.
debug_check_options() {
	local f e
	opt_values --gdb-batch DEBUG_BATCH
	opt_values --break DEBUG_BREAKS
	opt_values --stop-on DEBUG_STOPS
	DEBUG_QEMU=${OPT[--debug-qemu]:-0}
	DEBUG_PORT=${OPT[--gdb-port]:-}
	if [ -n "$DEBUG_PORT" ] && ! { [[ "$DEBUG_PORT" =~ ^[1-9][0-9]*$ ]] && [ "$DEBUG_PORT" -le 65535 ]; }; then
		usage_error "--gdb-port wants a TCP port number, got '$DEBUG_PORT'"
	fi
	for f in "${!DEBUG_BATCH[@]}"; do
		[ -f "${DEBUG_BATCH[$f]}" ] && [ -r "${DEBUG_BATCH[$f]}" ] ||
			usage_error "--gdb-batch ${DEBUG_BATCH[$f]}: no such readable file"
		DEBUG_BATCH[$f]=$(realpath "${DEBUG_BATCH[$f]}")
	done
	for e in "${DEBUG_STOPS[@]}"; do
		[[ "$e" =~ ^(violation(=[a-z0-9-]+)?|cmd=(0[xX][0-9a-fA-F]{1,2}|[0-9]{1,3})|write=[A-Za-z0-9_]+|fault(=[A-Za-z0-9_.-]{1,31})?)$ ]] ||
			usage_error "--stop-on wants violation[=RULE], cmd=OPCODE, write=REGISTER or fault[=RULE-ID], got '$e'"
	done
	if [ ${#DEBUG_STOPS[@]} -gt 0 ] && [ "$RUN_CONTROLLER" != atalab ]; then
		usage_error "--stop-on has no effect with --controller $RUN_CONTROLLER (only atalab-ide stops the guest)"
	fi
	if [ "$DEBUG_QEMU" = 1 ]; then
		[ ${#DEBUG_STOPS[@]} = 0 ] ||
			usage_error "--stop-on stops the guest for a guest debugger; with --debug-qemu, break in atalab_host_event instead"
		[ -z "$DEBUG_PORT" ] || usage_error "--gdb-port has no effect with --debug-qemu (no gdbstub)"
	fi
}

# The gdb commands every session starts with (file $RUN_DIR/setup.gdb).
debug_setup_guest() {
	local b kbuild
	kbuild=$(kernel_build_dir)
	{
		echo "set confirm off"
		echo "set breakpoint pending on"
		[ ${#DEBUG_BATCH[@]} = 0 ] || echo "set pagination off"
		echo "file \"$(kernel_vmlinux_gdb)\""
		echo "source $kbuild/vmlinux-gdb.py"
		echo "source $ATALAB_ROOT/tools/lib/atalab-gdb.py"
		echo "target remote 127.0.0.1:$DEBUG_PORT"
		echo "atalab-boot $RUN_DIR $kbuild $(driver_build_dir)"
		for b in "${DEBUG_BREAKS[@]}"; do echo "break $b"; done
	} >"$RUN_DIR/setup.gdb"
}

debug_setup_qemu() {
	local b args
	args=$(shell_quote_args "${RUN_QEMU[@]:1}")
	{
		echo "set confirm off"
		echo "set breakpoint pending on"
		[ ${#DEBUG_BATCH[@]} = 0 ] || echo "set pagination off"
		echo "file \"${RUN_QEMU[0]}\""
		echo "source $ATALAB_ROOT/tools/lib/atalab-gdb.py"
		echo "set args ${args#set -- } </dev/null >$RUN_DIR/qemu.out 2>&1"
		echo "handle SIGUSR1 SIGPIPE nostop noprint pass"
		for b in "${DEBUG_BREAKS[@]}"; do echo "break $b"; done
		echo "starti"
	} >"$RUN_DIR/setup.gdb"
}

# gdb with the setup, interactive or with the batch scripts.  Echoes gdb's
# exit status.
debug_gdb_args() {
	DEBUG_GDB=(gdb -q -iex "set auto-load python-scripts off" -x "$RUN_DIR/setup.gdb")
	if [ ${#DEBUG_BATCH[@]} -gt 0 ]; then
		local how=--guest
		[ "$DEBUG_QEMU" = 0 ] || how=--qemu
		DEBUG_GDB=(gdb -nx -q -batch -iex "set auto-load python-scripts off"
			-x "$RUN_DIR/setup.gdb" -ex "atalab-batch $how $(printf "'%s' " "${DEBUG_BATCH[@]}")")
	fi
}

# After gdb: no more device stops, and the guest runs (also if gdb left it
# stopped).  Quiet when QEMU is gone already.
debug_release_guest() {
	[ -S "$RUN_DIR/monitor.sock" ] && kill -0 "$RUN_QPID" 2>/dev/null || return 0
	{
		if [ "$RUN_CONTROLLER" = atalab ]; then
			monitor_send "$RUN_DIR/monitor.sock" 0 "qom-set /machine/peripheral/ata stop-on none" cont
		else
			monitor_send "$RUN_DIR/monitor.sock" 0 cont
		fi
	} >/dev/null 2>&1 || true
}

# A gdb with the batch scripts, in the background within the deadline.
debug_run_batch_gdb() {
	local pid rc=0
	"${DEBUG_GDB[@]}" </dev/null &
	pid=$!
	RUN_HELPERS+=("$pid")
	while kill -0 "$pid" 2>/dev/null && ! guest_past_deadline; do
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		pkill -KILL -P "$pid" 2>/dev/null || true
		kill -KILL "$pid" 2>/dev/null || true
	fi
	wait "$pid" || rc=$?
	DEBUG_GDB_RC=$rc
}

debug_guest() {
	local rc=0
	DEBUG_PORT=${DEBUG_PORT:-$(debug_free_port)}
	RUN_EXTRA_APPEND=" nokaslr"
	RUN_EXTRA_QEMU=(-gdb "tcp:127.0.0.1:$DEBUG_PORT" -S
		-monitor "unix:$(qemu_escape "$RUN_DIR/monitor.sock"),server=on,wait=off")
	if [ ${#DEBUG_STOPS[@]} -gt 0 ] && [ "$RUN_ACCEL" = tcg ]; then
		RUN_EXTRA_QEMU+=("${ATALAB_DEBUG_ICOUNT[@]}")
	fi
	guest_start debug "${OPT_ARGS[@]}"
	run_info "gdbstub on 127.0.0.1:$DEBUG_PORT; console log: $RUN_LOG"
	debug_setup_guest
	debug_gdb_args
	DEBUG_GDB_RC=0
	if [ ${#DEBUG_BATCH[@]} -gt 0 ]; then
		debug_run_batch_gdb
	else
		guest_watchdog
		"${DEBUG_GDB[@]}" || DEBUG_GDB_RC=$?
		kill -0 "$RUN_QPID" 2>/dev/null && run_info "gdb exited: the guest runs on to the end of its command"
	fi
	debug_release_guest
	guest_wait
	guest_outcome || rc=$?
	return $rc
}

debug_qemu() {
	local rc=0
	guest_qemu_args debug "${OPT_ARGS[@]}"
	debug_setup_qemu
	debug_gdb_args
	RUN_T0=$(now_cs)
	DEBUG_GDB_RC=0
	if [ ${#DEBUG_BATCH[@]} -gt 0 ]; then
		"${DEBUG_GDB[@]}" </dev/null &
		RUN_QPID=$!
		guest_stream debug "$RUN_QPID"
		guest_wait
		DEBUG_GDB_RC=$RUN_QRC
	else
		guest_stream debug $$
		RUN_HELPERS+=("${RUN_TAILS[@]}")
		"${DEBUG_GDB[@]}" || DEBUG_GDB_RC=$?
		sleep 0.3
		RUN_QRC=0 RUN_TIMED_OUT=0
	fi
	guest_outcome || rc=$?
	return $rc
}

cmd_debug() {
	local rc=0
	! opt_given --list-models && ! opt_given --list-device-opts ||
		usage_error "--list-models and --list-device-opts are 'atalab run' options"
	local timeout=""
	opt_given --gdb-batch && timeout=300
	run_check_options "$timeout"
	debug_check_options
	if [ ${#DEBUG_STOPS[@]} -gt 0 ]; then
		RUN_DEVICE_OPTS+=("stop-on=$(IFS=';' && echo "${DEBUG_STOPS[*]}")")
	fi
	run_prepare
	guest_make_dir
	if [ "$DEBUG_QEMU" = 1 ]; then
		debug_qemu || rc=$?
	else
		debug_guest || rc=$?
	fi
	if [ $rc != $ATALAB_RUN_STATUS_TIMEOUT ] && [ ${#DEBUG_BATCH[@]} -gt 0 ] && [ "$DEBUG_GDB_RC" != 0 ]; then
		msg "a gdb script failed (gdb exit $DEBUG_GDB_RC; its messages are above)"
		return $ATALAB_DEBUG_STATUS_GDB
	fi
	return $rc
}
