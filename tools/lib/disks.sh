# shellcheck shell=bash
# Disk images of a guest run: --disk FILE[,format=FMT] | none.
#
# The format of an existing image is read from its content (qemu-img info),
# never guessed from its name; FILE,format=FMT overrides.  A missing image
# is created (qcow2 for *.qcow2, raw otherwise, or FMT) in a folder that
# must exist.  The default disk is locked for the run.

default_disk() { echo "$ATALAB_CACHE/disks/disk0.img"; }

# disk_spec SPEC: split into DISK_FILE and DISK_FORMAT (empty: detect).
disk_spec() {
	DISK_FILE=$1
	DISK_FORMAT=""
	if [[ "$1" =~ ^(.+),format=([A-Za-z0-9_-]+)$ ]]; then
		DISK_FILE=${BASH_REMATCH[1]}
		DISK_FORMAT=${BASH_REMATCH[2]}
	fi
}

# Checks that need no build: the folder of an image to create exists.
disk_check_spec() {
	local dir
	disk_spec "$1"
	[ "$DISK_FILE" = none ] && return 0
	[ -n "$DISK_FILE" ] || usage_error "--disk wants a file name or 'none'"
	if [ ! -e "$DISK_FILE" ]; then
		dir=$(dirname "$DISK_FILE")
		[ -d "$dir" ] || usage_error "--disk $DISK_FILE: folder '$dir' does not exist (atalab creates images, not folders)"
	elif [ ! -f "$DISK_FILE" ] && [ ! -b "$DISK_FILE" ]; then
		usage_error "--disk $DISK_FILE: not a file or block device"
	fi
}

# Formats this qemu-img knows.
disk_known_formats() {
	"$(qemu_img_binary)" --help | sed -n 's/^Supported formats: //p'
}

# The format qemu-img reads from an existing image's content.
disk_detect_format() {
	"$(qemu_img_binary)" info -U --output=json "$1" 2>/dev/null |
		sed -n 's/^ *"format": "\([^"]*\)".*/\1/p' | head -n1
}

# disk_prepare SPEC SIZE SIZE_GIVEN QUIET: sets DISK_FILE and DISK_FORMAT
# for QEMU, creating the image when absent.
disk_prepare() {
	local size=$2 size_given=$3 quiet=$4 have
	disk_spec "$1"
	[ "$DISK_FILE" = none ] && return 0
	if [ -n "$DISK_FORMAT" ] && ! [[ " $(disk_known_formats) " == *" $DISK_FORMAT "* ]]; then
		usage_error "--disk $1: unknown format '$DISK_FORMAT' (known: $(disk_known_formats))"
	fi
	if [ ! -e "$DISK_FILE" ]; then
		if [ -z "$DISK_FORMAT" ]; then
			case "$DISK_FILE" in *.qcow2) DISK_FORMAT=qcow2 ;; *) DISK_FORMAT=raw ;; esac
		fi
		"$(qemu_img_binary)" create -q -f "$DISK_FORMAT" "$DISK_FILE" "$size" ||
			die "cannot create $DISK_FILE"
		[ "$quiet" = 1 ] || msg "created $DISK_FILE ($DISK_FORMAT, $size)"
		return 0
	fi
	if [ -z "$DISK_FORMAT" ]; then
		DISK_FORMAT=$(disk_detect_format "$DISK_FILE")
		[ -n "$DISK_FORMAT" ] || die "--disk $DISK_FILE: qemu-img cannot read it"
	fi
	if [ "$size_given" = 1 ]; then
		have=$("$(qemu_img_binary)" info -U -f "$DISK_FORMAT" "$DISK_FILE" 2>/dev/null |
			sed -n 's/^virtual size: \([^(]*\) (.*/\1/p')
		warn "--disk-size $size does not apply to the existing $DISK_FILE (${have% }): it keeps its size"
	fi
}

# Lock the default disk for this run (fd inherited by QEMU).
disk_lock_default() {
	local file=$1 fd
	exec {fd}<"$file"
	flock -n "$fd" ||
		die "the default disk $file is in use by another atalab run; give this run a disk of its own with --disk FILE"
}
