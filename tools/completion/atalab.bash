# shellcheck shell=bash
# Bash completion for tools/atalab:  . tools/completion/atalab.bash
#
# Commands (from 'atalab --commands', the command table), trace's
# subcommands (from its usage lines), each command's options (read from its
# --help, so they never drift from the option tables), and values:
# personalities and their registers (from the kit's built model table),
# atalab-ide properties, suites, gdb scripts (*.gdb) and files.

_atalab_cache() { printf '%s' "${ATALAB_CACHE:-$HOME/.cache/atalab}"; }

# The personality table, when the kit has been built.
_atalab_models_table() {
	local tool
	tool=$(_atalab_cache)/host-tools/atalab-models
	[ -x "$tool" ] && "$tool" 2>/dev/null
}

# The options a command's --help describes (debug and shell take run's too).
_atalab_options() {
	local c
	for c in "$2" $(case "$2" in debug | shell) echo run ;; esac); do
		"$1" "$c" --help 2>/dev/null | sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p'
	done
}

_atalab() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local atalab=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]:-} w values=""
	COMPREPLY=()
	if [ "$COMP_CWORD" = 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "$("$atalab" --commands 2>/dev/null) help" -- "$cur")
		return 0
	fi
	if [ "$cmd" = trace ] && [ "$COMP_CWORD" = 2 ]; then
		mapfile -t COMPREPLY < <(compgen -W "$("$atalab" trace --help 2>/dev/null |
			sed -n 's/^\(usage:\|      \) atalab trace \([a-z]*\).*/\2/p' | sort -u)" -- "$cur")
		return 0
	fi
	for w in "${COMP_WORDS[@]:2:COMP_CWORD-2}"; do
		[ "$w" != -- ] || return 0   # the guest command: nothing to offer
	done
	case "$prev" in
	--model) values=$(_atalab_models_table | cut -f1) ;;
	--cable) values="40 80" ;;
	--ide-mode) values="legacy native native0 native1" ;;
	--controller) values="atalab piix4-ide none" ;;
	--accel) values="auto tcg kvm" ;;
	--trace-data) values="block raw" ;;
	--trace-time) values="absolute relative" ;;
	--suite) values="unit style tools guest debug fuzz" ;;
	--format) values="report unified json" ;;
	--ignore) values="timing commands protocol errors faults violations data taskfile polls time addresses none" ;;
	--only) values="cfg bm ata0 ata1 ctl0 ctl1 irq0 irq1" ;;
	--device-opt)
		values=$(sed -n 's/^  \([a-z][a-z0-9_-]*\)=.*/\1=/p' "$(_atalab_cache)/qemu/build/atalab-ide.help" 2>/dev/null)
		compopt -o nospace 2>/dev/null
		;;
	--stop-on)
		values="violation violation= cmd= fault fault= $(_atalab_models_table | cut -f6 | tr ',' '\n' |
			sed 's/@.*//; s/^/write=/' | sort -u)"
		compopt -o nospace 2>/dev/null
		;;
	--gdb-batch)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.gdb' -- "$cur")
		return 0
		;;
	--disk)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W none -- "$cur"; compgen -f -- "$cur")
		return 0
		;;
	--log | --trace | --monitor | --faults | --qmp | --junit | --work)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
		;;
	--driver | --compare-driver | --context | --max | --append | --disk-size | --timeout | --memory | --qemu-arg | --gdb-port | \
		--break | --size | --runs | --wait | --fault-seed | --jobs | --time)
		return 0
		;;
	esac
	if [ -z "$values" ] && [[ "$cur" == -* ]]; then
		values=$(_atalab_options "$atalab" "$cmd")
	fi
	[ -n "$values" ] && mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
	return 0
}

complete -F _atalab atalab tools/atalab ./tools/atalab
