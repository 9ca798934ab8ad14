# shellcheck shell=bash
# Command-line options from one table per command.
#
# A table is a function calling `opt` once per option:
#     opt --name ARG "what it does"
#     opt -n,--name ARG "what it does"      (with a one-letter alias)
# ARG names the value (NAME, FILE, SECONDS, ...); a trailing '+' makes the
# option repeatable; '-' makes it a flag without a value.  A table that
# calls `opt_words` lets words that are not options (a subcommand, files,
# test names) stand between the options; one that calls `opt_guest_command`
# takes a guest command after '--'; other words are usage errors.  The
# same table drives parsing, the --help text and shell completion, so
# adding an option is adding one line (and using its value).

# options_parse TABLE... -- ARGS...: parse ARGS against the tables.
#   OPT[--name]      the value (last one wins), or 1 for a given flag
#   OPT[--name:I]    the I-th value of a repeatable option (opt_values)
#   OPT_N[--name]    how many values a repeatable option got
#   OPT_ARGS         the other words, in order, then those after '--'
# Bad options are usage errors (exit 2).  -h/--help sets OPT[--help].
# Until a command parses, no option is given (a library function that
# reads OPT may be called without a command line, as the tests do).
declare -gA OPT=() OPT_N=()
options_parse() {
	local -a tables=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		tables+=("$1")
		shift
	done
	shift
	declare -gA OPT=() OPT_N=() OPT_SPEC=() OPT_ALIAS=()
	OPT_ARGS=()
	local t a name val has n words=0 guest=0
	opt() {
		if [[ $1 == -?,--* ]]; then
			OPT_ALIAS[${1%%,*}]=${1#*,}
		fi
		OPT_SPEC[${1#-?,}]=$2
	}
	opt_words() { words=1; }
	opt_guest_command() { guest=1; }
	for t in "${tables[@]}"; do "$t"; done
	unset -f opt opt_words opt_guest_command
	while [ $# -gt 0 ]; do
		a=$1
		[[ $a != -? ]] || [ -z "${OPT_ALIAS[$a]+set}" ] || a=${OPT_ALIAS[$a]}
		case "$a" in
		--)
			[ $words = 1 ] || [ $guest = 1 ] || [ $# = 1 ] ||
				usage_error "takes no arguments (got '$2')"
			shift
			OPT_ARGS+=("$@")
			return 0
			;;
		-h | --help) OPT[--help]=1; shift; continue ;;
		--*=*) name=${a%%=*}; val=${a#*=}; has=1 ;;
		--*) name=$a; val=""; has=0 ;;
		-?*) usage_error "unknown option '$a'" ;;
		*)
			[ $words = 1 ] || [ $guest = 0 ] ||
				usage_error "unexpected argument '$a' (options first; a guest command goes after --)"
			[ $words = 1 ] || usage_error "takes no arguments (got '$a')"
			OPT_ARGS+=("$a")
			shift
			continue
			;;
		esac
		[ -n "${OPT_SPEC[$name]+set}" ] || usage_error "unknown option '$name'"
		if [ "${OPT_SPEC[$name]}" = - ]; then
			[ $has = 0 ] || usage_error "$name takes no value"
			OPT[$name]=1
			shift
			continue
		fi
		if [ $has = 0 ]; then
			[ $# -ge 2 ] || usage_error "option $name needs a value (${OPT_SPEC[$name]%+})"
			val=$2
			shift 2
		else
			shift
		fi
		# An empty value is never meant (and would read as the default).
		[ -n "$val" ] || usage_error "option $name wants a value (${OPT_SPEC[$name]%+}), got an empty one"
		if [[ ${OPT_SPEC[$name]} == *+ ]]; then
			n=${OPT_N[$name]:-0}
			OPT[$name:$n]=$val
			OPT_N[$name]=$((n + 1))
		else
			OPT[$name]=$val
		fi
	done
}

# opt_values NAME ARRAY: the values of a repeatable option, in order.
opt_values() {
	local -n into=$2
	local i
	into=()
	for ((i = 0; i < ${OPT_N[$1]:-0}; i++)); do
		into+=("${OPT[$1:$i]}")
	done
}

# Was the option given?
opt_given() { [ -n "${OPT[$1]+set}" ] || [ -n "${OPT_N[$1]+set}" ]; }

# options_help TABLE...: the options part of a --help text.
options_help() {
	local t
	opt() {
		local head="  ${1/,/, }" arg=$2 text=$3 width=22 line first=1
		case "$arg" in
		-) ;;
		*+) head="$head ${arg%+}  (repeatable)" ;;
		*) head="$head $arg" ;;
		esac
		if [ ${#head} -ge $((width - 1)) ]; then
			printf '%s\n' "$head"
			first=0
		fi
		while IFS= read -r line; do
			if [ $first = 1 ]; then
				printf '%-*s%s\n' $width "$head" "$line"
				first=0
			else
				printf '%*s%s\n' $width "" "$line"
			fi
		done < <(printf '%s\n' "$text" | fold -s -w $((79 - width)) | sed 's/ *$//')
	}
	opt_words() { :; }
	opt_guest_command() { :; }
	for t in "$@"; do "$t"; done
	unset -f opt opt_words opt_guest_command
	printf '%-22s%s\n' "  -h, --help" "this text"
}
