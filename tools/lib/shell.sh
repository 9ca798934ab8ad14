# shellcheck shell=bash
# tools/atalab shell: a guest's shell on this terminal, for exploring.

shell_usage() {
	cat <<USAGE
usage: atalab shell [run options] [-- command [arg ...]]

Boots a guest like 'atalab run' (same options: --model, --disk, --driver,
--trace, ...) and runs an interactive shell in it (or the command given) on
its serial console, which is this terminal.  The kernel's warnings and errors
appear there too.  'exit' ends the run with the shell's status; Ctrl-A x
kills the guest, Ctrl-A c switches to QEMU's monitor and back.  There is no
--timeout unless one is given.  Needs a terminal: for commands without one,
use 'atalab run' (whose guest command reads an empty stdin).

options: those of 'atalab run' (see 'atalab run --help').

example:
  tools/atalab shell --model ich5 --cable 80
USAGE
}

shell_options() { run_options; }

cmd_shell() {
	! opt_given --list-models && ! opt_given --list-device-opts ||
		usage_error "--list-models and --list-device-opts are 'atalab run' options"
	[ ${#OPT_ARGS[@]} -gt 0 ] || OPT_ARGS=(sh -l)
	run_check_options ""
	[ -t 0 ] && [ -t 1 ] || usage_error "needs a terminal on stdin and stdout (for commands without one: atalab run)"
	run_prepare
	guest_qemu_args shell "${OPT_ARGS[@]}"
	RUN_T0=$(now_cs)
	RUN_QRC=0
	RUN_TIMED_OUT=0
	if [ -n "$RUN_TIMEOUT" ]; then
		timeout --foreground "$RUN_TIMEOUT" "${RUN_QEMU[@]}" 2>"$RUN_DIR/qemu.out" || RUN_QRC=$?
		[ "$RUN_QRC" != 124 ] || RUN_TIMED_OUT=1
	else
		"${RUN_QEMU[@]}" 2>"$RUN_DIR/qemu.out" || RUN_QRC=$?
	fi
	# The guest's stdout/stderr channels are unused: all went to the console.
	guest_outcome
}
