# shellcheck shell=bash
# Campaign coverage (tools/atalab scenario --coverage): a kernel whose
# libata and PIIX drivers are built with gcov, the counts each guest leaves
# (tools/guest/gcov-dump), and an lcov report over a campaign's runs.

# The files the report is about (lcov patterns on their source paths).
ATALAB_COVERAGE_FILES=('*/drivers/ata/libata-eh.c' '*/drivers/ata/libata-sff.c'
	'*/drivers/ata/libata-core.c' '*/drivers/ata/libata-scsi.c' '*/drivers/ata/ata_piix.c'
	'*/atalab_piix.c')

# Switch this process (and the runs it starts) to the coverage cache: the
# kit's own builds of QEMU, the sources and the tools, its own gcov kernel,
# driver and initramfs (and with --kernel-patch, the gcov kernel's variant
# under it: kernel-patch.sh).  Builds what is stale there.
coverage_enter() {
	local real=$ATALAB_CACHE_ROOT d cov
	[ "${ATALAB_KERNEL_GCOV:-0}" = 1 ] && return 0
	cov=$real/coverage
	mkdir -p "$cov"
	for d in src qemu host-tools guest-tools kvm-probe; do
		mkdir -p "$real/$d"
		[ -L "$cov/$d" ] || ln -sfn "$real/$d" "$cov/$d"
	done
	# The shared builds are fresh in the kit's cache first (under its lock),
	# so the coverage cache never rebuilds them.
	ATALAB_CACHE=$real
	build_cache
	ATALAB_CACHE=$cov ATALAB_CACHE_CHOSEN=$cov ATALAB_KERNEL_GCOV=1
	export ATALAB_CACHE ATALAB_CACHE_CHOSEN ATALAB_CACHE_ROOT ATALAB_KERNEL_GCOV
	build_all
}

# coverage_collect JOBDIR: unpack the counts its guest printed on stderr
# into JOBDIR/gcov, next to the gcov notes (*.gcno) of the build.
coverage_collect() {
	local job=${1%/} f gcno
	[ -f "$job/stderr" ] || { warn "coverage: $job has no stderr"; return 1; }
	rm -rf "$job/gcov"
	mkdir -p "$job/gcov"
	if ! sed -n '/^@gcov-begin$/,/^@gcov-end$/{/^@gcov-/d;p}' "$job/stderr" | base64 -d |
		tar -C "$job/gcov" -xzf - 2>"$job/gcov.err"; then
		warn "coverage: no gcov counts from the guest of $job ($(head -c 200 "$job/gcov.err"))"
		return 1
	fi
	# Each count file gets the notes of its object (same path, .gcno).
	while IFS= read -r f; do
		gcno=${f#"$job/gcov"}
		gcno=${gcno%.gcda}.gcno
		[ -f "$gcno" ] && ln -sf "$gcno" "${f%.gcda}.gcno"
	done < <(find "$job/gcov" -name '*.gcda')
	[ -n "$(find "$job/gcov" -name '*.gcno' -print -quit)" ] ||
		{ warn "coverage: $job's counts match no gcov notes of this build"; return 1; }
}

# coverage_capture GCOVDIR INFO LOG: the counts a run left in GCOVDIR (as
# coverage_collect unpacked them) as the lcov tracefile INFO, lcov's
# messages appended to LOG.
coverage_capture() {
	lcov --quiet --capture --directory "$1" --output-file "$2" \
		--rc lcov_branch_coverage=0 >>"$3" 2>&1
}

# coverage_report CAMPAIGN OUT: lcov over every CAMPAIGN/*/gcov, HTML in
# OUT, and the summary: lines hit per file and in all.
coverage_report() {
	local campaign=$1 out=$2 job n=0
	local -a adds=()
	rm -rf "$out"
	mkdir -p "$out"
	for job in "$campaign"/*/gcov; do
		[ -d "$job" ] || continue
		n=$((n + 1))
		coverage_capture "$job" "$out/run$n.info" "$out/lcov.log" ||
			{ warn "coverage: lcov failed on $job (log: $out/lcov.log)"; return 1; }
		adds+=(--add-tracefile "$out/run$n.info")
	done
	[ "$n" -gt 0 ] || { warn "coverage: no run in $campaign collected counts"; return 1; }
	lcov --quiet "${adds[@]}" --output-file "$out/all.info" >>"$out/lcov.log" 2>&1 &&
		lcov --quiet --extract "$out/all.info" "${ATALAB_COVERAGE_FILES[@]}" \
			--output-file "$out/coverage.info" >>"$out/lcov.log" 2>&1 &&
		genhtml --quiet --output-directory "$out" --title "atalab scenarios" \
			"$out/coverage.info" >>"$out/lcov.log" 2>&1 ||
		{ warn "coverage: lcov/genhtml failed (log: $out/lcov.log)"; return 1; }
	rm -f "$out"/run*.info
	coverage_summary "$out/coverage.info" "$n" | tee "$out/summary.txt"
	msg "coverage report: $out/index.html"
}

# coverage_summary INFO RUNS: one line per file and one for them all.
coverage_summary() {
	awk -v runs="$2" '
		/^SF:/ { f = $0; sub(/^SF:.*\//, "", f) }
		/^LF:/ { lf[f] += substr($0, 4); tf += substr($0, 4) }
		/^LH:/ { lh[f] += substr($0, 4); th += substr($0, 4) }
		END {
			sort = "sort"
			for (f in lf)
				printf "coverage: %-14s %5.1f%% of lines (%d of %d)\n", f, 100 * lh[f] / lf[f], lh[f], lf[f] | sort
			close(sort)
			printf "coverage: %d runs, %.1f%% of the lines of these files (%d of %d)\n", runs, tf ? 100 * th / tf : 0, th, tf
		}' "$1"
}
