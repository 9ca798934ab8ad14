#!/usr/bin/env bash
# bench reads its figures from ata-pattern's output and refuses output it
# cannot read a number from, instead of computing medians of nothing.
. "$(dirname "$0")/lib.sh"
load_atalab
good='write 16777216 bytes in 0.10 s (167.8 MB/s)
read 16777216 bytes in 0.05 s (335.5 MB/s)'
[ "$(bench_figure write "$good" atalab)" = 167.8 ] && ok "write figure read" || bad "write figure: $(bench_figure write "$good" atalab)"
[ "$(bench_figure read "$good" atalab)" = 335.5 ] && ok "read figure read" || bad "read figure"
three="$good
read 16777216 bytes in 0.04 s (419.4 MB/s)
read 16777216 bytes in 0.06 s (279.6 MB/s)"
[ "$(bench_figure read "$three" atalab)" = "335.5 419.4 279.6" ] && ok "every read figure" || bad "read figures: $(bench_figure read "$three" atalab)"
for junk in "" "write failed: I/O error" "write 1 bytes in 0 s (nan MB/s)" "read 1 bytes in 0 s (12 MB/s)"; do
	out=$( (bench_figure write "$junk" piix4-ide) 2>&1) && bad "accepted '$junk' as a write figure: $out" ||
		{ echo "$out" | grep -q "bench: no write figure in the guest's output on piix4-ide" &&
			ok "refuses '$junk'" || bad "unclear refusal of '$junk': $out"; }
done
[ "$(bench_median 3 1 2)" = 2 ] && [ "$(bench_median 4 1 3 2)" = 2.5 ] && ok "medians" || bad "medians"
finish
