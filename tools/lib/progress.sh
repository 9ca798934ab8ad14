# shellcheck shell=bash
# Progress of long build steps.  On a terminal: one line, rewritten in
# place, with the step number, what is being built, the tool's own step
# count and the elapsed time.  Otherwise: plain lines (start, every minute,
# end), so logs and CI output stay readable.
#
# ATALAB_STEP/ATALAB_STEPS (set by build_all): this step's number and how
# many steps the build runs.

progress_on_tty() { [ -t 2 ] && [ "${TERM:-dumb}" != dumb ]; }

progress_label() {
	if [ -n "${ATALAB_STEP:-}" ]; then
		printf '[%s/%s] %s' "$ATALAB_STEP" "$ATALAB_STEPS" "$1"
	else
		printf '%s' "$1"
	fi
}

# progress_filter WHAT LOG: copy stdin to LOG, showing progress.  Counts
# ninja's "[N/M]" steps, or kbuild's "  CC  file" lines.
progress_filter() {
	local label log=$2 line done=0 total="" count start last=-1 tty=0 out
	label=$(progress_label "$1")
	progress_on_tty && tty=1
	start=$SECONDS
	exec {out}>>"$log"
	[ $tty = 1 ] || msg "$label"
	while IFS= read -r line; do
		printf '%s\n' "$line" >&$out
		case "$line" in
		\[[0-9]*/[0-9]*\]*)
			done=${line%%/*}
			done=${done#[}
			total=${line#*/}
			total=${total%%]*}
			;;
		"  "[A-Z]*) done=$((done + 1)) ;;
		esac
		if [ $tty = 1 ] && [ $SECONDS != "$last" ]; then
			count=$done${total:+/$total}
			printf '\ratalab: %s: %s (%s)\033[K' "$label" "$count" \
				"$(format_duration $((SECONDS - start)))" >&2
			last=$SECONDS
		elif [ $tty = 0 ] && [ $((SECONDS - start)) -ge $((last < 0 ? 60 : last + 60)) ]; then
			last=$((SECONDS - start))
			msg "$label: $done${total:+/$total} ($(format_duration "$last"))"
		fi
	done
	exec {out}>&-
	[ $tty = 0 ] || printf '\r\033[K' >&2
	msg "$label: done in $(format_duration $((SECONDS - start)))"
}

# run_logged LOG WHAT command...: one build step, its output in LOG (the
# tail is shown when it fails), its progress on stderr.
run_logged() {
	local log=$1 what=$2 rc
	shift 2
	mkdir -p "$(dirname "$log")"
	: >"$log"
	{
		rc=0
		"$@" </dev/null 2>&1 || rc=$?
		echo $rc >"$log.status"
	} | progress_filter "$what" "$log"
	rc=$(cat "$log.status")
	rm -f "$log.status"
	if [ "$rc" != 0 ]; then
		tail -n 40 "$log" >&2
		die "$what failed: $* (exit $rc; full log: $log)"
	fi
}
