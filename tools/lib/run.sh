# shellcheck shell=bash
# tools/atalab run: boot a q35 guest with atalab-ide and run one command in it.

ATALAB_RUN_STATUS_TIMEOUT=124   # the guest did not finish in time
ATALAB_RUN_STATUS_BROKEN=125    # QEMU or the guest's init failed

run_usage() {
	cat <<USAGE
usage: atalab run [options] [-- guest-command [arg ...]]

Boots a q35 machine (TCG; KVM only when a bounded probe shows it works) with
the atalab-ide controller, loads a driver in the guest, runs the guest command
and exits with its exit status.  The command's stdout and stderr arrive on
this command's stdout and stderr; the kernel console goes to the log file and,
when there is one, to the terminal.  Default command: a probe that prints the
IDE functions, ATA devices and disks the guest found.

options:
  --driver NAME      module the guest loads before the command (default
                     ata_piix; 'none' loads nothing)
  --kernel FILE      boot this bzImage instead of the kit's (e.g. the kernel
                     'atalab driver intree' built; its modules are not in
                     the initramfs, so use it with --driver none)
  --append TEXT      extra kernel command line (e.g. libata.dma=0); repeatable
  --disk FILE        disk image, repeatable: primary master, primary slave,
                     secondary master, secondary slave.  Created (raw, or
                     qcow2 for *.qcow2) when absent.  Default: one disk,
                     \$ATALAB_CACHE/disks/disk0.img
  --disk-size SIZE   size of images created here (default 128M)
  --controller KIND  atalab (default), piix4-ide (QEMU's stock PIIX4 IDE,
                     for comparisons) or none (no IDE controller)
  --model NAME       atalab-ide personality: piix4 (default), piix3, ich5,
                     ich5-sata.  With ich5-sata the disks go to SATA port 0
                     (primary master) and port 1 (secondary master)
  --cable 40|80      cable of both channels (default: the personality's,
                     80 for ich5, 40 for piix3/piix4); sets cable0/cable1
  --device-opt OPT   extra atalab-ide property, e.g. model0=MYDISK; repeatable
  --trace FILE       write atalab-ide's register trace to FILE
  --faults FILE      fault rules (docs/faults.md), checked before the guest
                     boots
  --fault-seed N     seed of the probability triggers and bit flips
                     (default 0)
  --timeout SECONDS  kill a guest still running after SECONDS (default 300)
  --log FILE         console log (default \$ATALAB_CACHE/logs/run.log)
  --quiet            do not copy the console to the terminal
  --accel auto|tcg|kvm   accelerator (default auto: TCG unless KVM answers)
  --memory SIZE      guest memory (default 512M)
  --qemu-arg ARG     pass ARG to QEMU; repeatable
  -h, --help         this text

exit status: the guest command's; $ATALAB_RUN_STATUS_TIMEOUT when the guest timed out;
$ATALAB_RUN_STATUS_BROKEN when QEMU or the guest failed before reporting a status.
USAGE
}

# Quote each argument for a POSIX shell: 'it'\''s'.
shell_quote_args() {
	local a
	printf 'set --'
	for a in "$@"; do
		printf " '%s'" "${a//\'/\'\\\'\'}"
	done
	printf '\n'
}

# Create a missing disk image.
run_make_disk() {
	local file=$1 size=$2
	[ -e "$file" ] && return 0
	mkdir -p "$(dirname "$file")"
	case "$file" in
	*.qcow2) "$(qemu_img_binary)" create -q -f qcow2 "$file" "$size" ||
		die "cannot create $file" ;;
	*) truncate -s "$size" "$file" || die "cannot create $file" ;;
	esac
}

disk_format() {
	case "$1" in
	*.qcow2) echo qcow2 ;;
	*) echo raw ;;
	esac
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

# Does KVM run a guest here?  Bounded: a hung KVM guest is killed.  The
# answer is cached per host kernel and QEMU build.
kvm_usable() {
	[ -w /dev/kvm ] || return 1
	local key cache
	key=$(printf '%s %s' "$(uname -r)" "$(cat "$(qemu_build_dir)/.atalab-stamp")" | sha256sum | cut -c1-16)
	cache=$ATALAB_CACHE/kvm-probe.$key
	# One probe at a time: concurrent runs (parallel tests) wait for it.
	local lock
	exec {lock}>"$ATALAB_CACHE/kvm-probe.lock"
	flock "$lock"
	if [ ! -f "$cache" ]; then
		msg "probing KVM (bounded to 20 s)"
		local -a machine
		qemu_machine_args kvm 128M
		if timeout --foreground -s KILL 20 "${machine[@]}" \
			-append "panic=-1 rdinit=/bin/poweroff -- -f" \
			</dev/null >/dev/null 2>&1; then
			echo yes >"$cache"
		else
			echo no >"$cache"
		fi
	fi
	exec {lock}>&-
	[ "$(cat "$cache")" = yes ]
}

cmd_run() {
	local driver=ata_piix append="" timeout=300 log="" quiet=0 accel=auto
	local memory=512M disk_size=128M model=piix4 trace="" controller=atalab
	local cable="" fault_seed="" faults="" kernel=""
	local -a disks=() qemu_args=() device_opts=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--driver | --append | --disk | --disk-size | --model | --device-opt | --controller | \
			--cable | --trace | --timeout | --log | --accel | --memory | --qemu-arg | \
			--faults | --fault-seed | --kernel)
			[ $# -ge 2 ] || die "option $1 needs a value"
			;;
		esac
		case "$1" in
		--driver) driver=$2; shift 2 ;;
		--kernel) kernel=$2; shift 2 ;;
		--append) append="$append $2"; shift 2 ;;
		--disk) disks+=("$2"); shift 2 ;;
		--disk-size) disk_size=$2; shift 2 ;;
		--model) model=$2; shift 2 ;;
		--cable) cable=$2; shift 2 ;;
		--controller) controller=$2; shift 2 ;;
		--device-opt) device_opts+=("$2"); shift 2 ;;
		--trace) trace=$2; shift 2 ;;
		--faults) faults=$2; shift 2 ;;
		--fault-seed) fault_seed=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--log) log=$2; shift 2 ;;
		--quiet) quiet=1; shift ;;
		--accel) accel=$2; shift 2 ;;
		--memory) memory=$2; shift 2 ;;
		--qemu-arg) qemu_args+=("$2"); shift 2 ;;
		-h | --help) run_usage; return 0 ;;
		--) shift; break ;;
		*) die "run: unknown option '$1' (see 'atalab run --help')" ;;
		esac
	done
	[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout wants a positive number of seconds, got '$timeout'"
	[[ "$driver" =~ ^[A-Za-z0-9_-]+$ ]] || die "--driver wants a module name, got '$driver'"
	[[ "$disk_size" =~ ^[1-9][0-9]*[KMGT]?$ ]] || die "--disk-size wants a size like 128M, got '$disk_size'"
	[ ${#disks[@]} -le 4 ] || die "at most 4 --disk (primary master/slave, secondary master/slave)"
	case "$cable" in "" | 40 | 80) ;; *) die "--cable wants 40 or 80, got '$cable'" ;; esac
	[[ "$model" =~ ^[a-z0-9-]+$ ]] || die "--model wants a personality name, got '$model'"
	if [ "$model" = ich5-sata ] && [ ${#disks[@]} -gt 2 ]; then
		die "ich5-sata has two SATA ports: at most 2 --disk"
	fi
	case "$accel" in auto | tcg | kvm) ;; *) die "--accel wants auto, tcg or kvm, got '$accel'" ;; esac
	[ -z "$kernel" ] || [ -f "$kernel" ] || die "--kernel $kernel: no such file"
	case "$controller" in atalab | piix4-ide | none) ;;
	*) die "--controller wants atalab, piix4-ide or none, got '$controller'" ;; esac
	[ $# -gt 0 ] || set -- probe
	[ -z "$fault_seed" ] || [[ "$fault_seed" =~ ^[0-9]+$ ]] ||
		die "--fault-seed wants a non-negative number, got '$fault_seed'"

	build_all
	# Fault rules: every line checked by the core's parser before booting.
	if [ -n "$faults" ]; then
		[ "$controller" = atalab ] || die "--faults needs the atalab controller"
		"$(fault_check_binary)" "$faults" || exit 1
		faults=$(readlink -f "$faults")
	fi
	[ ${#disks[@]} -gt 0 ] || disks=("$ATALAB_CACHE/disks/disk0.img")
	log=${log:-$ATALAB_CACHE/logs/run.log}
	mkdir -p "$(dirname "$log")"
	: >"$log" || die "cannot write log file '$log'"

	local rundir
	rundir=$(mktemp -d "${TMPDIR:-/tmp}/atalab-run.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$rundir'" EXIT
	shell_quote_args "$@" >"$rundir/command"
	printf '%s' "$driver" >"$rundir/driver"
	: >"$rundir/stdout"
	: >"$rundir/stderr"
	: >"$rundir/status"

	local dev="atalab-ide,id=ata,model=$model" i pos
	local -a drive_args=() device_args=()
	for i in "${!disks[@]}"; do
		run_make_disk "${disks[$i]}" "$disk_size"
		[ -f "${disks[$i]}" ] || [ -b "${disks[$i]}" ] || die "--disk ${disks[$i]}: not a file"
		drive_args+=(-drive "if=none,id=disk$i,format=$(disk_format "${disks[$i]}"),file.filename=${disks[$i]//,/,,}")
		# ich5-sata: SATA port N is the master of channel N.
		pos=$i
		[ "$model" = ich5-sata ] && pos=$((i * 2))
		dev="$dev,drive$pos=disk$i"
	done
	[ -n "$cable" ] && dev="$dev,cable0=$cable,cable1=$cable"
	[ -n "$trace" ] && dev="$dev,trace=${trace//,/,,}"
	[ -n "$faults" ] && dev="$dev,faults=${faults//,/,,}"
	[ -n "$fault_seed" ] && dev="$dev,fault-seed=$fault_seed"
	for i in "${device_opts[@]}"; do dev="$dev,$i"; done
	case "$controller" in
	atalab) device_args=(-device "$dev") ;;
	piix4-ide)
		device_args=(-device piix4-ide,id=ata)
		for i in "${!disks[@]}"; do
			device_args+=(-device "ide-hd,drive=disk$i,bus=ata.$((i / 2)),unit=$((i % 2))")
		done
		;;
	none) drive_args=() ;;
	esac

	if [ "$accel" = auto ]; then
		if kvm_usable; then accel=kvm; else accel=tcg; fi
	fi

	local -a machine
	qemu_machine_args "$accel" "$memory" "$kernel"
	# no_timer_check: on a loaded host a TCG guest can miss the kernel's
	# IO-APIC timer check and panic ("IO-APIC + timer doesn't work").
	local -a qemu=(
		"${machine[@]}"
		-append "console=ttyS0 panic=-1 no_timer_check rdinit=/init$append"
		-chardev "file,id=console,path=$log"
		-chardev "file,id=stdout,path=$rundir/stdout"
		-chardev "file,id=stderr,path=$rundir/stderr"
		-chardev "file,id=status,path=$rundir/status"
		-serial chardev:console -serial chardev:stdout
		-serial chardev:stderr -serial chardev:status
		-fw_cfg "name=opt/atalab/command,file=$rundir/command"
		-fw_cfg "name=opt/atalab/driver,file=$rundir/driver"
		"${drive_args[@]}" "${device_args[@]}"
		"${qemu_args[@]}"
	)

	local qpid status
	"${qemu[@]}" </dev/null >"$rundir/qemu.out" 2>&1 &
	qpid=$!
	# Stream the guest's stdout/stderr (and the console) while it runs.
	local -a tails=()
	tail -q -s 0.1 --pid=$qpid -c +1 -f "$rundir/stdout" &
	tails+=($!)
	tail -q -s 0.1 --pid=$qpid -c +1 -f "$rundir/stderr" >&2 &
	tails+=($!)
	if [ $quiet = 0 ] && { : >/dev/tty; } 2>/dev/null; then
		tail -q -s 0.1 --pid=$qpid -c +1 -f "$log" >/dev/tty 2>/dev/null &
		tails+=($!)
	fi

	local waited=0 timed_out=0
	while kill -0 $qpid 2>/dev/null; do
		if [ $waited -ge $((timeout * 10)) ]; then
			timed_out=1
			kill -TERM $qpid 2>/dev/null || true
			sleep 2
			kill -KILL $qpid 2>/dev/null || true
			break
		fi
		sleep 0.1
		waited=$((waited + 1))
	done
	local qrc=0
	wait $qpid || qrc=$?
	wait "${tails[@]}" 2>/dev/null || true

	if [ $timed_out = 1 ]; then
		msg "guest still running after ${timeout}s: killed (console log: $log)"
		return $ATALAB_RUN_STATUS_TIMEOUT
	fi
	status=$(sed -n 's/^ATALAB-STATUS \([0-9][0-9]*\)$/\1/p' "$rundir/status" | head -n1)
	if [ -z "$status" ]; then
		sed 's/^/qemu: /' "$rundir/qemu.out" >&2
		msg "guest ended without reporting a status (QEMU exit $qrc; console log: $log)"
		return $ATALAB_RUN_STATUS_BROKEN
	fi
	return "$status"
}
