#!/usr/bin/env bash
# Every command has a --help with its options and examples, and --help
# lists what the README lists: the run and debug options of the README's
# tables, the test suites meson defines, the commands.
. "$(dirname "$0")/lib.sh"
readme=$ATALAB_ROOT/README.md
commands=$(sed -n 's/^  \([a-z]*\)  .*/\1/p' <("$ATALAB" --help))
[ -n "$commands" ] && ok "atalab --help lists commands: $(echo $commands)" || bad "no commands in atalab --help"
for c in $commands; do
	if "$ATALAB" "$c" --help >"$WORK/$c.help" 2>&1 && head -n1 "$WORK/$c.help" | grep -q "^usage: atalab $c" &&
		grep -q '^examples\?:' "$WORK/$c.help"; then
		ok "atalab $c --help: usage and examples"
	else
		bad "atalab $c --help: $(head -n3 "$WORK/$c.help")"
	fi
	grep -q "tools/atalab $c" "$readme" && ok "README shows atalab $c" || bad "README never shows atalab $c"
done

# options_of FILE: the --options a help text describes.
options_of() { sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' "$1" | grep -vx -- --help | sort -u; }
# readme_table HEADING: the options in the table under a README heading.
readme_table() {
	awk -v h="$1" '$0 == h { on = 1; next } on && /^#/ { on = 0 } on' "$readme" |
		sed -n 's/^| `\(--[a-z][a-z0-9-]*\).*/\1/p' | sort -u
}
compare() {     # compare WHAT README-LIST HELP-LIST
	local missing extra
	missing=$(comm -23 <(echo "$2") <(echo "$3"))
	extra=$(comm -13 <(echo "$2") <(echo "$3"))
	[ -n "$2" ] || { bad "$1: the README table is empty"; return; }
	[ -z "$missing$extra" ] && ok "$1: README and --help list the same options" ||
		bad "$1: in the README only: [$missing] in --help only: [$extra]"
}
compare "run" "$(readme_table '## Running guests')" "$(options_of "$WORK/run.help")"
compare "debug" "$(readme_table '## Debugging a driver with gdb')" \
	"$(comm -23 <(options_of "$WORK/debug.help") <(options_of "$WORK/run.help"))"

suites=$(grep -rho "suite: '[a-z]*'" "$ATALAB_ROOT/tests" | sed "s/suite: '\(.*\)'/\1/" | sort -u)
for s in $suites; do
	grep -qE "^  $s +" "$WORK/test.help" && ok "test --help describes suite $s" || bad "test --help lacks suite $s"
	grep -q "\`$s\`" "$readme" && ok "README names suite $s" || bad "README lacks suite $s"
done
finish
