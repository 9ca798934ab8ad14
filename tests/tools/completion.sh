#!/usr/bin/env bash
# Bash completion offers the commands, each command's options (from its
# --help), the personalities, the registers for --stop-on write=, gdb
# scripts for --gdb-batch, and nothing after '--'.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/completion/atalab.bash
. "$ATALAB_ROOT/tools/completion/atalab.bash"
compopt() { :; }        # only valid inside a real completion
complete_words() {      # complete_words WORD...: COMPREPLY for the last word
	COMP_WORDS=("$ATALAB" "$@")
	COMP_CWORD=$#
	_atalab
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
has() {                 # has WHAT WANTED -- WORDS...
	local what=$1 want=$2
	shift 3
	complete_words "$@" | grep -qx -- "$want" && ok "$what offers $want" ||
		bad "$what does not offer $want: $(complete_words "$@" | tr '\n' ' ')"
}
has "a command" debug -- de
has "a command" monitor -- ""
has "run options" --device-opt -- run --dev
has "run options" --list-models -- run --list
has "debug options" --stop-on -- debug --st
has "debug options (run's too)" --model -- debug --mo
has "test options" --help -- test --he
has "models" ich5-sata -- run --model ich
has "controllers" piix4-ide -- run --controller p
has "trace data modes" raw -- run --trace-data r
has "trace time modes" relative -- run --trace-time r
has "stop-on events" violation -- debug --stop-on v
has "stop-on registers" write=UDMATIM -- debug --stop-on write=U
has "stop-on registers" write=IDE_CONFIG -- debug --stop-on write=I
has "device properties" strict= -- run --device-opt st
has "suites" guest -- test --suite g
has "a command" trace -- tr
has "trace subcommands" diff -- trace d
has "diff formats" unified -- trace diff --format u
has "diff classes" addresses -- trace diff --ignore ad
has "diff spaces" ata1 -- trace diff --only ata
mkdir -p "$WORK/s"
touch "$WORK/s/check.gdb" "$WORK/s/notes.txt"
has "gdb scripts" "$WORK/s/check.gdb" -- debug --gdb-batch "$WORK/s/"
! complete_words debug --gdb-batch "$WORK/s/" | grep -q notes.txt && ok "--gdb-batch offers no other files" ||
	bad "--gdb-batch offers notes.txt"
has "disks" none -- run --disk n
[ -z "$(complete_words run -- --mo)" ] && ok "nothing after --" || bad "completes the guest command"
finish
