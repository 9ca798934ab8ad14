# shellcheck shell=bash
# tools/atalab run: boot a q35 guest with atalab-ide and run one command in
# it.  The options (one table, run_options) are shared by debug and shell;
# guest.sh starts and watches the machine.

# shellcheck source=tools/lib/guest.sh
. "$ATALAB_ROOT/tools/lib/guest.sh"

ATALAB_RUN_MIN_MEMORY_MIB=64    # below this the kernel does not start

run_options() {
	opt_guest_command
	opt --driver NAME "module the guest loads before the command (default ata_piix; 'none' loads nothing)"
	opt --kernel FILE "boot this bzImage instead of the kit's (e.g. the one 'atalab driver intree' built; its modules are not in the initramfs, so use it with --driver none)"
	kernel_patch_options
	opt --append TEXT+ "extra kernel command line, e.g. libata.dma=0"
	opt --disk FILE+ "disk image, in the order primary master, primary slave, secondary master, secondary slave (ich5-sata: SATA port 0, port 1, then the master and slave of the PATA side a combined --device-opt sata-map=N routes to its channels).  An existing image's format is read from its content; FILE,format=FMT forces one; 'none' leaves the position empty.  A missing image is created (qcow2 for *.qcow2, raw otherwise) in an existing folder.  Default: \$ATALAB_CACHE/disks/disk0.img, locked while a run uses it"
	opt --disk-size SIZE "size of the images this run creates (default 128M)"
	opt --cdrom 'FILE|empty' "an ATAPI CD-ROM at the secondary master (ich5-sata: SATA port 1) with the disc image FILE (read-only, 2048-byte blocks: an ISO), or with an empty tray (docs/atapi.md); that position then takes no --disk"
	opt --model NAME "atalab-ide personality, any case: piix4 (default), piix3, ich5, ich5-sata (see --list-models)"
	opt --cable '40|80' "cable of both channels (default: the personality's); the guest reads it only where the controller reports it (ich5)"
	opt --ide-mode 'legacy|native|native0|native1' "the channels the firmware leaves in native PCI mode: none (legacy, the default), both, the primary or the secondary; a native channel is decoded through its BARs and interrupts on the PCI INTA# line (ich5, ich5-sata; docs/timing.md)"
	opt --controller KIND "atalab (default), piix4-ide (QEMU's stock PIIX4 IDE, for comparisons) or none"
	opt --device-opt OPT+ "extra atalab-ide property, e.g. model0=MY DISK, strict=on (see --list-device-opts)"
	opt --trace FILE "write atalab-ide's register trace to FILE (traces/FORMAT.md); its folder is created"
	opt --trace-data 'block|raw' "block (default): a record per PIO DRQ block and per run of identical Status reads; raw: a record per register access"
	opt --trace-time 'absolute|relative' "absolute (default): the virtual clock; relative: since the channel's latest command"
	opt --faults FILE "fault rules (docs/faults.md), every line checked before the guest boots"
	opt --fault-seed N "seed of the probability triggers and bit flips of --faults (default 0)"
	opt --deterministic - "a run whose trace another run of the same command repeats exactly: TCG with -icount shift=5,sleep=off,align=off, the RTC on the virtual clock from a fixed date, -seed 1, and atalab-ide's deterministic=on (every backend request completes 100 us of virtual time after it was issued); somewhat slower than a plain run"
	opt --monitor SOCKET "HMP monitor on the unix socket SOCKET, for 'atalab monitor SOCKET COMMAND'"
	opt --timeout SECONDS "kill a guest still running SECONDS of wall-clock time after QEMU started (default 300)"
	opt --log FILE "console log (default \$ATALAB_CACHE/logs/run.log, or run-N.log while other runs use it); its folder is created"
	opt --quiet - "no console on the terminal, no informational messages (warnings and errors stay)"
	opt --accel MODE "auto (default: KVM when a bounded probe shows a KVM guest runs, else TCG), tcg, or kvm (fails at once where the probe found KVM unusable)"
	opt --memory SIZE "guest memory, e.g. 512M (default) or 1G; at least ${ATALAB_RUN_MIN_MEMORY_MIB}M"
	opt --qemu-arg ARG+ "pass ARG to QEMU"
	opt --list-models - "list the controller personalities, then exit"
	opt --list-device-opts - "list atalab-ide's properties (for --device-opt), then exit"
}

run_usage() {
	cat <<USAGE
usage: atalab run [options] [-- guest-command [arg ...]]

Boots a q35 machine with the atalab-ide controller, loads a driver in the
guest, runs the guest command and exits with its exit status.  The command's
stdout and stderr arrive on this command's stdout and stderr; its stdin is
empty (/dev/null: use 'atalab shell' to type at a guest).  The kernel console
goes to the log file and, without --quiet, to the terminal.  Default command:
a probe that prints the IDE functions, ATA devices and disks the guest found.

options:
$(options_help run_options)

exit status: the guest command's; $ATALAB_RUN_STATUS_TIMEOUT when the guest was killed after
--timeout; $ATALAB_RUN_STATUS_BROKEN when QEMU or the guest failed before reporting a status (the
message says which: QEMU refused to start, the kernel panicked, the console
stayed empty); $ATALAB_EXIT_USAGE for a bad command line (nothing booted); $ATALAB_EXIT_FAILURE for other errors.

examples:
  tools/atalab run -- sh -c 'echo "\$1"' x 'a b'
  tools/atalab run --model ich5 --cable 80 --trace trace.txt -- true
  tools/atalab run --disk a.img --disk none --disk b.qcow2 -- ls /sys/block
  tools/atalab run --faults my.rules --fault-seed 7 -- dd if=/dev/sda of=/dev/null bs=64k
USAGE
}

# Size with an optional K/M/G suffix (no suffix: MiB, as QEMU's -m) in MiB.
size_mib() {
	local v=$1
	case "$v" in
	*[Gg]) echo $((${v%?} * 1024)) ;;
	*[Mm]) echo "${v%?}" ;;
	*[Kk]) echo $((${v%?} / 1024)) ;;
	*) echo "$v" ;;
	esac
}

# Usage checks of the run options (no build needed): sets RUN_*.
# $1: the default --timeout ("" for none).
run_check_options() {
	local default_timeout=$1 d
	RUN_DRIVER=${OPT[--driver]:-ata_piix}
	RUN_TIMEOUT=${OPT[--timeout]:-$default_timeout}
	RUN_DISK_SIZE=${OPT[--disk-size]:-128M}
	RUN_CDROM=${OPT[--cdrom]:-}
	RUN_MODEL=${OPT[--model]:-piix4}
	RUN_CABLE=${OPT[--cable]:-}
	RUN_IDE_MODE=${OPT[--ide-mode]:-}
	RUN_CONTROLLER=${OPT[--controller]:-atalab}
	RUN_TRACE=${OPT[--trace]:-}
	RUN_TRACE_DATA=${OPT[--trace-data]:-}
	RUN_TRACE_TIME=${OPT[--trace-time]:-}
	RUN_MONITOR=${OPT[--monitor]:-}
	RUN_KERNEL=${OPT[--kernel]:-}
	RUN_FAULTS=${OPT[--faults]:-}
	RUN_FAULT_SEED=${OPT[--fault-seed]:-}
	RUN_ACCEL_ASKED=${OPT[--accel]:-auto}
	RUN_MEMORY=${OPT[--memory]:-512M}
	RUN_QUIET=${OPT[--quiet]:-0}
	RUN_DETERMINISTIC=${OPT[--deterministic]:-0}
	opt_values --disk RUN_DISKS
	opt_values --device-opt RUN_DEVICE_OPTS
	opt_values --qemu-arg RUN_QEMU_ARGS
	local -a appends
	opt_values --append appends
	RUN_APPEND=""
	for d in "${appends[@]}"; do RUN_APPEND+=" $d"; done

	if [ -n "$RUN_TIMEOUT" ] && ! [[ "$RUN_TIMEOUT" =~ ^[1-9][0-9]*$ ]]; then
		usage_error "--timeout wants a positive number of seconds, got '$RUN_TIMEOUT'"
	fi
	[[ "$RUN_DRIVER" =~ ^[A-Za-z0-9_-]+$ ]] || usage_error "--driver wants a module name, got '$RUN_DRIVER'"
	[[ "$RUN_DISK_SIZE" =~ ^[1-9][0-9]*[KMGT]?$ ]] ||
		usage_error "--disk-size wants a size like 128M, got '$RUN_DISK_SIZE'"
	[ ${#RUN_DISKS[@]} -le 4 ] || usage_error "at most 4 --disk (primary master/slave, secondary master/slave)"
	case "$RUN_CABLE" in "" | 40 | 80) ;; *) usage_error "--cable wants 40 or 80, got '$RUN_CABLE'" ;; esac
	case "$RUN_IDE_MODE" in "" | legacy | native | native0 | native1) ;;
	*) usage_error "--ide-mode wants legacy, native, native0 or native1, got '$RUN_IDE_MODE'" ;; esac
	[[ "$RUN_MODEL" =~ ^[A-Za-z0-9-]+$ ]] || usage_error "--model wants a personality name, got '$RUN_MODEL'"
	RUN_MODEL=${RUN_MODEL,,}

	case "$RUN_TRACE_DATA" in "" | block | raw) ;;
	*) usage_error "--trace-data wants block or raw, got '$RUN_TRACE_DATA'" ;; esac
	case "$RUN_TRACE_TIME" in "" | absolute | relative) ;;
	*) usage_error "--trace-time wants absolute or relative, got '$RUN_TRACE_TIME'" ;; esac
	for d in --trace-data --trace-time; do
		! opt_given $d || [ -n "$RUN_TRACE" ] || usage_error "$d has no effect without --trace"
	done
	case "$RUN_ACCEL_ASKED" in auto | tcg | kvm) ;;
	*) usage_error "--accel wants auto, tcg or kvm, got '$RUN_ACCEL_ASKED'" ;; esac
	if [ "$RUN_DETERMINISTIC" = 1 ]; then
		[ "$RUN_ACCEL_ASKED" != kvm ] || usage_error "--deterministic counts instructions: TCG only, not --accel kvm"
		RUN_ACCEL_ASKED=tcg
	fi
	case "$RUN_CONTROLLER" in atalab | piix4-ide | none) ;;
	*) usage_error "--controller wants atalab, piix4-ide or none, got '$RUN_CONTROLLER'" ;; esac
	[[ "$RUN_MEMORY" =~ ^[1-9][0-9]*[KMGkmg]?$ ]] || usage_error "--memory wants a size like 512M, got '$RUN_MEMORY'"
	[ "$(size_mib "$RUN_MEMORY")" -ge $ATALAB_RUN_MIN_MEMORY_MIB ] ||
		usage_error "--memory $RUN_MEMORY is too little: the guest kernel needs at least ${ATALAB_RUN_MIN_MEMORY_MIB}M"
	[ -z "$RUN_KERNEL" ] || [ -f "$RUN_KERNEL" ] || usage_error "--kernel $RUN_KERNEL: no such file"
	[ -z "$RUN_KERNEL" ] || ! opt_given --kernel-patch ||
		usage_error "--kernel boots a kernel of your own: patch it yourself, or use --kernel-patch alone"
	[ -z "$RUN_FAULT_SEED" ] || [[ "$RUN_FAULT_SEED" =~ ^[0-9]+$ ]] ||
		usage_error "--fault-seed wants a non-negative number, got '$RUN_FAULT_SEED'"
	if [ -n "$RUN_FAULTS" ] && ! { [ -f "$RUN_FAULTS" ] && [ -r "$RUN_FAULTS" ]; }; then
		usage_error "--faults $RUN_FAULTS: no such readable file"
	fi
	# Options that would have no effect are refused rather than ignored.
	if [ "$RUN_CONTROLLER" != atalab ]; then
		for d in --trace --trace-data --trace-time --model --device-opt --cable --ide-mode --faults --fault-seed --deterministic; do
			! opt_given $d || usage_error "$d has no effect with --controller $RUN_CONTROLLER (only atalab-ide has it)"
		done
	fi
	if [ "$RUN_CONTROLLER" = none ] && opt_given --disk; then
		usage_error "--disk has no effect with --controller none (no controller to attach it to)"
	fi
	if [ -n "$RUN_CDROM" ]; then
		[ "$RUN_CONTROLLER" = atalab ] || usage_error "--cdrom has no effect with --controller $RUN_CONTROLLER (only atalab-ide has it)"
		[ "$RUN_CDROM" = empty ] || [ -f "$RUN_CDROM" ] || [ -b "$RUN_CDROM" ] ||
			usage_error "--cdrom $RUN_CDROM: no such file (give a disc image, or 'empty')"
		# The CD-ROM's position is the third --disk's (the second's on
		# ich5-sata, whose drive2 is SATA port 1).
		local at=2
		[ "$RUN_MODEL" = ich5-sata ] && at=1
		if [ ${#RUN_DISKS[@]} -gt $at ] && [ "${RUN_DISKS[$at]}" != none ]; then
			usage_error "--cdrom takes the position of --disk number $((at + 1)) ('${RUN_DISKS[$at]}'): give 'none' there"
		fi
	fi
	for d in "${RUN_DISKS[@]}"; do disk_check_spec "$d"; done
	[ ${#OPT_ARGS[@]} -gt 0 ] || OPT_ARGS=(probe)
}

# The personality table (tools/atalab-models): name, PCI id, modes, cable
# reporting, native mode, registers, description.
run_models() { "$(atalab_models_binary)"; }

run_list_models() {
	local name id modes cable native regs what
	printf '%-10s %-10s %-20s %s\n' model 'PCI id' 'fastest modes' description
	while IFS=$'\t' read -r name id modes cable native regs what; do
		[ "$cable" = cable ] && what="$what; reports the cable (--cable)"
		[ "$native" = native ] && what="$what; native PCI mode (--ide-mode)"
		printf '%-10s %-10s %-20s %s\n' "$name" "$id" "$modes" "$what"
		printf '%-10s registers: %s\n' "" "${regs//,/, }"
	done < <(run_models)
}

# Checks that need the build: the personality exists; --cable means
# something for it; --ide-mode native needs a personality that has it.
run_check_model() {
	local line
	[ "$RUN_CONTROLLER" = atalab ] || return 0
	line=$(run_models | awk -F'\t' -v m="$RUN_MODEL" '$1 == m')
	[ -n "$line" ] || usage_error "--model: unknown personality '${OPT[--model]}' (known: $(run_models | cut -f1 | paste -sd, | sed 's/,/, /g'))"
	if [ -n "$RUN_CABLE" ] && [ "$(printf '%s' "$line" | cut -f4)" != cable ]; then
		warn "--cable $RUN_CABLE: $RUN_MODEL does not report the cable to the guest; only the drives' IDENTIFY word 93 shows it"
	fi
	if [ -n "$RUN_IDE_MODE" ] && [ "$RUN_IDE_MODE" != legacy ] &&
		[ "$(printf '%s' "$line" | cut -f5)" != native ]; then
		usage_error "--ide-mode $RUN_IDE_MODE: $RUN_MODEL has no native PCI mode (ich5 and ich5-sata have)"
	fi
}

# The console log: --log, or the first default log no other run holds.
run_pick_log() {
	local fd n=1 f
	if [ -n "${OPT[--log]:-}" ]; then
		RUN_LOG=${OPT[--log]}
		mkdir -p "$(dirname "$RUN_LOG")"
		: >"$RUN_LOG" || die "cannot write log file '$RUN_LOG'"
		return 0
	fi
	# The user's cache, whatever kernel flavour or variant the run boots.
	mkdir -p "$ATALAB_CACHE_ROOT/logs"
	while :; do
		f=$ATALAB_CACHE_ROOT/logs/run.log
		[ $n = 1 ] || f=$ATALAB_CACHE_ROOT/logs/run-$n.log
		exec {fd}>>"$f"
		flock -n "$fd" && break
		exec {fd}>&-
		n=$((n + 1))
	done
	RUN_LOG=$f
	: >"$RUN_LOG"
	[ $n = 1 ] || run_info "run.log is in use by another run: this run's console log is $RUN_LOG"
}

run_info() { [ "$RUN_QUIET" = 1 ] || msg "$@"; }

# Everything between the option checks and QEMU: build, disks, log, trace,
# accelerator.  Sets RUN_DRIVE_ARGS and RUN_DEVICE_ARGS.
run_prepare() {
	local i pos dev size_given=0 dflt=""
	build_all
	run_check_model
	# Fault rules: every line checked by the core's parser before booting
	# (FILE:LINE:COLUMN: message).
	if [ -n "$RUN_FAULTS" ]; then
		"$(fault_check_binary)" "$RUN_FAULTS" || exit $ATALAB_EXIT_USAGE
		RUN_FAULTS=$(readlink -f "$RUN_FAULTS")
	fi
	opt_given --disk-size && size_given=1
	if [ ${#RUN_DISKS[@]} = 0 ] && [ "$RUN_CONTROLLER" != none ]; then
		dflt=$(default_disk)
		mkdir -p "$(dirname "$dflt")"
		RUN_DISKS=("$dflt")
	fi
	run_pick_log
	if [ -n "$RUN_TRACE" ]; then
		mkdir -p "$(dirname "$RUN_TRACE")" || die "cannot create the folder of --trace $RUN_TRACE"
	fi

	dev="atalab-ide,id=ata,model=$RUN_MODEL"
	RUN_DRIVE_ARGS=()
	RUN_DEVICE_ARGS=()
	for i in "${!RUN_DISKS[@]}"; do
		disk_prepare "${RUN_DISKS[$i]}" "$RUN_DISK_SIZE" "$size_given" "$RUN_QUIET"
		[ "$DISK_FILE" = none ] && continue
		RUN_DRIVE_ARGS+=(-drive "if=none,id=disk$i,format=$DISK_FORMAT,file.filename=$(qemu_escape "$DISK_FILE")")
		# ich5-sata: SATA ports 0 and 1 are drive0 and drive2, the PATA
		# side of a combined map drive1 and drive3.
		pos=$i
		[ "$RUN_MODEL" = ich5-sata ] && pos=$(((i % 2) * 2 + i / 2))
		dev="$dev,drive$pos=disk$i"
		case "$RUN_CONTROLLER" in
		piix4-ide) RUN_DEVICE_ARGS+=(-device "ide-hd,drive=disk$i,bus=ata.$((i / 2)),unit=$((i % 2))") ;;
		esac
	done
	[ -z "$dflt" ] || disk_lock_default "$dflt"
	if [ -n "$RUN_CDROM" ]; then
		if [ "$RUN_CDROM" = empty ]; then
			RUN_DRIVE_ARGS+=(-drive "if=none,id=cdrom,media=cdrom")
		else
			RUN_DRIVE_ARGS+=(-drive "if=none,id=cdrom,media=cdrom,readonly=on,format=raw,file.filename=$(qemu_escape "$(readlink -f "$RUN_CDROM")")")
		fi
		dev="$dev,drive2=cdrom,kind2=cd"
	fi
	[ -n "$RUN_CABLE" ] && dev="$dev,cable0=$RUN_CABLE,cable1=$RUN_CABLE"
	[ -n "$RUN_IDE_MODE" ] && dev="$dev,mode=$RUN_IDE_MODE"
	if [ -n "$RUN_TRACE" ]; then
		dev="$dev,trace=$(qemu_escape "$RUN_TRACE")"
		[ -z "$RUN_TRACE_DATA" ] || dev="$dev,trace-data=$RUN_TRACE_DATA"
		[ -z "$RUN_TRACE_TIME" ] || dev="$dev,trace-time=$RUN_TRACE_TIME"
		dev="$dev,trace-info=$(qemu_escape "$RUN_LOG.trace-info")"
	fi
	[ -n "$RUN_FAULTS" ] && dev="$dev,faults=$(qemu_escape "$RUN_FAULTS")"
	[ -n "$RUN_FAULT_SEED" ] && dev="$dev,fault-seed=$RUN_FAULT_SEED"
	if [ "$RUN_DETERMINISTIC" = 1 ]; then
		# Instructions as the clock, a fixed date, seeded randomness, and
		# backend completions at fixed virtual times (atalab-ide).
		dev="$dev,deterministic=on"
		RUN_QEMU_ARGS=(-icount shift=5,sleep=off,align=off -rtc base=2020-01-01T00:00:00,clock=vm
			-seed 1 "${RUN_QEMU_ARGS[@]}")
	fi
	for i in "${RUN_DEVICE_OPTS[@]}"; do dev="$dev,$i"; done
	case "$RUN_CONTROLLER" in
	atalab) RUN_DEVICE_ARGS=(-device "$dev") ;;
	piix4-ide) RUN_DEVICE_ARGS=(-device piix4-ide,id=ata "${RUN_DEVICE_ARGS[@]}") ;;
	none) RUN_DRIVE_ARGS=() ;;
	esac
	[ -z "$RUN_MONITOR" ] ||
		RUN_QEMU_ARGS+=(-monitor "unix:$(qemu_escape "$RUN_MONITOR"),server=on,wait=off")

	accel_choose "$RUN_ACCEL_ASKED"
	run_info "accelerator: $RUN_ACCEL ($RUN_ACCEL_WHY)"
	[ -z "$RUN_TRACE" ] || run_trace_info >"$RUN_LOG.trace-info" ||
		die "cannot write $RUN_LOG.trace-info"
}

# The release of an x86 bzImage: the string its setup header's
# kernel_version field points to (Documentation/x86/boot.rst).
bzimage_release() {
	local off
	off=$(od -An -tu2 -j526 -N2 "$1" 2>/dev/null | tr -d ' ')
	[ -n "$off" ] && [ "$off" != 0 ] || { echo unknown; return 0; }
	dd if="$1" bs=1 skip=$((off + 512)) count=128 status=none | tr '\0' '\n' | head -n1 | cut -d' ' -f1
}

# What the run knows for the trace header (traces/FORMAT.md, "Header"):
# "KEY VALUE" lines for atalab-ide's trace-info property.
run_trace_info() {
	local version release
	version=$(git -C "$ATALAB_ROOT" describe --always --dirty 2>/dev/null) || version="unknown (not a git checkout)"
	if [ -n "$RUN_KERNEL" ]; then
		release=$(bzimage_release "$RUN_KERNEL")
	else
		release=$(kernel_release)
	fi
	printf 'run.atalab %s\n' "$version"
	printf 'run.kernel %s\n' "$release"
	[ -n "$RUN_KERNEL" ] || kernel_patches_describe | sed 's/^/run.kernel-patch /'
	printf 'run.driver %s\n' "$RUN_DRIVER"
	printf 'run.accel %s\n' "$RUN_ACCEL"
	[ "$RUN_DETERMINISTIC" = 0 ] || printf 'run.deterministic icount shift=5\n'
	[ -z "$RUN_APPEND" ] || printf 'run.append %s\n' "${RUN_APPEND# }"
	local cmd="${OPT_ARGS[*]}"
	cmd=${cmd//$'\n'/ }
	printf 'run.command %s\n' "${cmd//$'\r'/ }"
}

cmd_run() {
	if opt_given --list-models || opt_given --list-device-opts; then
		build_all
		! opt_given --list-models || run_list_models
		! opt_given --list-device-opts || cat "$(qemu_device_help)"
		return 0
	fi
	run_check_options 300
	run_prepare
	guest_start run "${OPT_ARGS[@]}"
	guest_wait
	guest_outcome
}
