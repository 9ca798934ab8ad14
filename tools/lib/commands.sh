# shellcheck shell=bash
# The commands of tools/atalab, one row each: NAME, its library in
# tools/lib, what it does.  This table alone says which libraries are
# sourced, what 'atalab --help' lists, what runs, and what completion
# offers ('atalab --commands').  A command NAME's library defines cmd_NAME,
# NAME_usage (its --help text) and NAME_options (its option table,
# tools/lib/options.sh); cmd_NAME starts with the options parsed (OPT,
# OPT_ARGS).  Only trace has no option table: each of its subcommands
# parses its own command line (atalab-trace, trace bless).
ATALAB_COMMANDS=(
	"setup|setup|install host packages and fetch the QEMU and kernel sources"
	"build|build|build QEMU with atalab-ide, the kernel, the driver and the initramfs"
	"run|run|boot a guest on the emulated controller and run a command in it"
	"shell|shell|boot a guest and give its shell on this terminal"
	"debug|debug|boot a guest under gdb (QEMU's gdbstub), or QEMU itself under gdb"
	"monitor|monitor|send a command to a running guest's HMP monitor"
	"fault|fault|add, remove, list or clear fault rules of a running guest (QMP)"
	"scenario|scenario|fault-injection runs with a verdict (tests/scenarios/)"
	"trace|trace|check, select, diff, replay and draw register traces"
	"explore|explore|coverage-guided search of fault space for error-path bugs"
	"matrix|matrix|every transfer mode on every drive position, checked by the model"
	"driver|driver|driver/ as a kernel patch series, and built in the kernel tree"
	"test|test|run the test suites (unit, style, tools, guest, debug, fuzz)"
	"bench|bench|disk throughput: atalab-ide against QEMU's stock piix4-ide"
	"fuzz|fuzz|coverage-guided fuzzing of the emulator core (libFuzzer)"
	"zoo|zoo|the bug zoo: which real libata bugs, brought back by a patch, the detectors catch"
)
# Libraries the commands share, sourced before the commands' own.
ATALAB_SHARED_LIBS=(common progress options accel disks coverage golden)

# The command names, one per line.
atalab_command_names() {
	local row
	for row in "${ATALAB_COMMANDS[@]}"; do echo "${row%%|*}"; done
}

# The libraries to source, in order, one per line (each once).
atalab_libs() {
	local row lib
	local -A seen=()
	for lib in "${ATALAB_SHARED_LIBS[@]}"; do
		seen[$lib]=1
		echo "$lib"
	done
	for row in "${ATALAB_COMMANDS[@]}"; do
		row=${row#*|}
		lib=${row%%|*}
		[ -n "${seen[$lib]:-}" ] || echo "$lib"
		seen[$lib]=1
	done
}

# NAME's row of the table, or nothing.
atalab_command_row() {
	local row
	for row in "${ATALAB_COMMANDS[@]}"; do
		[ "${row%%|*}" != "$1" ] || { echo "$row"; return 0; }
	done
	return 1
}
