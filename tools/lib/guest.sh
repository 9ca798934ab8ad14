# shellcheck shell=bash
# One guest from start to end, for run, debug and shell: the QEMU command
# line, the host-guest channels, a wall-clock deadline, and the account of
# how the run ended.

ATALAB_RUN_STATUS_TIMEOUT=124   # the guest did not finish in time
ATALAB_RUN_STATUS_BROKEN=125    # QEMU or the guest's init failed

# Quote each argument for a POSIX shell: 'it'\''s'.
shell_quote_args() {
	local a
	printf 'set --'
	for a in "$@"; do
		printf " '%s'" "${a//\'/\'\\\'\'}"
	done
	printf '\n'
}

# The machine every guest boots, into the caller's array "machine": q35,
# the firmware search path (our option ROMs, Debian's SeaBIOS), a kernel
# (ACCEL MEMORY [KERNEL]; default the kit's) and the kit's initramfs.
qemu_machine_args() {
	machine=("$(qemu_binary)" -M q35 -accel "$1" -m "$2" -smp 1
		-nodefaults -display none -vga none -no-reboot
		-L "$(qemu_build_dir)/pc-bios/optionrom" -L /usr/share/seabios
		-kernel "${3:-$(kernel_bzimage)}" -initrd "$(initramfs_path)")
}

# Kill what this run started (QEMU, helpers), remove its directory.
guest_cleanup() {
	local pid
	for pid in ${RUN_QPID:-} "${RUN_HELPERS[@]+"${RUN_HELPERS[@]}"}"; do
		pkill -KILL -P "$pid" 2>/dev/null || true
		kill -KILL "$pid" 2>/dev/null || true
	done
	[ -z "${RUN_DIR:-}" ] || rm -rf "$RUN_DIR"
}

# The run's own directory (channels, QEMU's output), removed at exit.
guest_make_dir() {
	[ -z "${RUN_DIR:-}" ] || return 0
	RUN_HELPERS=()
	RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/atalab-run.XXXXXX")
	trap guest_cleanup EXIT
}

# guest_qemu_args MODE COMMAND...: the run directory and RUN_QEMU.  MODE is
# run or debug (console to the log) or shell (console on this terminal).
# Callers may set RUN_EXTRA_QEMU (array) and RUN_EXTRA_APPEND first.
guest_qemu_args() {
	local mode=$1 console
	shift
	guest_make_dir
	shell_quote_args "$@" >"$RUN_DIR/command"
	printf '%s' "$RUN_DRIVER" >"$RUN_DIR/driver"
	printf '%s' "$mode" >"$RUN_DIR/mode"
	: >"$RUN_DIR/stdout"
	: >"$RUN_DIR/stderr"
	: >"$RUN_DIR/status"
	local d=$RUN_DIR
	case "$mode" in
	shell) console="stdio,id=console,mux=on,signal=off,logfile=$(qemu_escape "$RUN_LOG")" ;;
	*) console="file,id=console,path=$(qemu_escape "$RUN_LOG")" ;;
	esac
	local -a machine
	qemu_machine_args "$RUN_ACCEL" "$RUN_MEMORY" "$RUN_KERNEL"
	# no_timer_check: a TCG vCPU on a busy host can be too slow for the
	# kernel's IO-APIC timer check, which then panics at boot.
	RUN_QEMU=(
		"${machine[@]}"
		-append "console=ttyS0 panic=-1 no_timer_check rdinit=/init$RUN_APPEND${RUN_EXTRA_APPEND:-}"
		-chardev "$console"
		-chardev "file,id=stdout,path=$(qemu_escape "$d/stdout")"
		-chardev "file,id=stderr,path=$(qemu_escape "$d/stderr")"
		-chardev "file,id=status,path=$(qemu_escape "$d/status")"
		-serial chardev:console -serial chardev:stdout
		-serial chardev:stderr -serial chardev:status
		-fw_cfg "name=opt/atalab/command,file=$(qemu_escape "$d/command")"
		-fw_cfg "name=opt/atalab/driver,file=$(qemu_escape "$d/driver")"
		-fw_cfg "name=opt/atalab/mode,file=$(qemu_escape "$d/mode")"
		"${RUN_DRIVE_ARGS[@]}" "${RUN_DEVICE_ARGS[@]}"
		"${RUN_EXTRA_QEMU[@]}" "${RUN_QEMU_ARGS[@]}"
	)
	[ "$mode" != shell ] || RUN_QEMU+=(-mon chardev=console,mode=readline)
}

# guest_start MODE COMMAND...: QEMU in the background, the guest's stdout
# and stderr streamed here; the console on the terminal for MODE run
# unless --quiet.  The deadline (--timeout) starts now.
guest_start() {
	local mode=$1
	guest_qemu_args "$@"
	local -a session=()
	# Under gdb, Ctrl-C is gdb's (it interrupts the guest): QEMU, which
	# quits on SIGINT, gets a session of its own, away from the terminal.
	[ "$mode" != debug ] || session=(setsid)
	RUN_T0=$(now_cs)
	"${session[@]}" "${RUN_QEMU[@]}" </dev/null >"$RUN_DIR/qemu.out" 2>&1 &
	RUN_QPID=$!
	guest_stream "$mode" "$RUN_QPID"
}

# guest_stream MODE PID: copy the guest's stdout and stderr (and for MODE
# run the console, on a terminal) here while PID lives.
guest_stream() {
	local mode=$1 pid=$2
	tail -q -s 0.1 --pid="$pid" -c +1 -f "$RUN_DIR/stdout" &
	RUN_TAILS=($!)
	tail -q -s 0.1 --pid="$pid" -c +1 -f "$RUN_DIR/stderr" >&2 &
	RUN_TAILS+=($!)
	if [ "$mode" = run ] && [ "$RUN_QUIET" = 0 ] && { : >/dev/tty; } 2>/dev/null; then
		tail -q -s 0.1 --pid="$pid" -c +1 -f "$RUN_LOG" >/dev/tty 2>/dev/null &
		RUN_TAILS+=($!)
	fi
}

# While this shell is busy in the foreground (an interactive gdb), kill
# QEMU at the deadline; guest_wait then reports the timeout.
guest_watchdog() {
	[ -n "$RUN_TIMEOUT" ] || return 0
	(
		trap '' INT     # Ctrl-C at the gdb prompt is not for the watchdog
		while ! guest_past_deadline; do sleep 1; done
		: >"$RUN_DIR/timed-out"
		kill -TERM "$RUN_QPID" 2>/dev/null
	) &
	RUN_HELPERS+=($!)
}

# Past the --timeout deadline?
guest_past_deadline() {
	[ -n "$RUN_TIMEOUT" ] && [ "$(now_cs)" -ge $((RUN_T0 + RUN_TIMEOUT * 100)) ]
}

# Wait for QEMU to end, killing it at the deadline.  Sets RUN_QRC and
# RUN_TIMED_OUT.
guest_wait() {
	local i
	RUN_QRC=0
	RUN_TIMED_OUT=0
	while kill -0 "$RUN_QPID" 2>/dev/null; do
		if guest_past_deadline; then
			RUN_TIMED_OUT=1
			kill -TERM "$RUN_QPID" 2>/dev/null || true
			for i in $(seq 20); do
				kill -0 "$RUN_QPID" 2>/dev/null || break
				sleep 0.1
			done
			kill -KILL "$RUN_QPID" 2>/dev/null || true
			break
		fi
		sleep 0.1
	done
	wait "$RUN_QPID" || RUN_QRC=$?
	RUN_QPID=""
	[ ! -e "$RUN_DIR/timed-out" ] || RUN_TIMED_OUT=1
	wait "${RUN_TAILS[@]}" 2>/dev/null || true
}

# The guest's status record, if it sent one.
guest_status() {
	sed -n 's/^ATALAB-STATUS \([0-9][0-9]*\)$/\1/p' "$RUN_DIR/status" | head -n1
}

# Indented lines on stderr.
indent() { sed "s/^/  ${1:-}/" >&2; }

# Why there is no status: QEMU refused to start, the kernel panicked, the
# console stayed empty, or the guest just ended.
guest_explain_no_status() {
	local out=$RUN_DIR/qemu.out log=$RUN_LOG
	if [ "$RUN_QRC" != 0 ] && [ ! -s "$log" ]; then
		msg "QEMU refused to start (exit $RUN_QRC):"
		indent "qemu: " <"$out"
		return
	fi
	if grep -q 'Kernel panic - not syncing' "$log"; then
		msg "the guest kernel panicked:"
		grep -E 'Kernel panic|Oops|BUG:|RIP:|general protection|Unable to handle' "$log" | head -n 20 | indent
		msg "last console lines:"
		tail -n 15 "$log" | indent
	elif [ ! -s "$log" ]; then
		msg "the guest printed nothing on its console: its kernel never started (too little memory for it? QEMU exit $RUN_QRC)"
		[ ! -s "$out" ] || indent "qemu: " <"$out"
	else
		msg "the guest ended without reporting a status (QEMU exit $RUN_QRC)"
		[ ! -s "$out" ] || indent "qemu: " <"$out"
		msg "last console lines:"
		tail -n 15 "$log" | indent
	fi
	msg "console log: $log"
}

# The run's exit status (and messages) after guest_wait.
guest_outcome() {
	local status
	if [ "$RUN_TIMED_OUT" = 1 ]; then
		msg "guest still running after ${RUN_TIMEOUT}s: killed (console log: $RUN_LOG)"
		return $ATALAB_RUN_STATUS_TIMEOUT
	fi
	status=$(guest_status)
	if [ -z "$status" ]; then
		guest_explain_no_status
		return $ATALAB_RUN_STATUS_BROKEN
	fi
	# QEMU's own warnings (none in a clean run).
	[ ! -s "$RUN_DIR/qemu.out" ] || sed 's/^/qemu: /' "$RUN_DIR/qemu.out" >&2
	return "$status"
}
