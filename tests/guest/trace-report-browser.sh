#!/usr/bin/env bash
# tools/atalab trace report of real runs, opened in headless Chromium as a
# person would (tests/tools/report-browser.py): the timeout scenario's
# trace (a fault rule hangs a read, libata times it out, resets the channel
# and retries), the scenario under ata_piix and atalab_piix side by side,
# and 100,000 records of a raw-traced PIO run.  Each page
# draws without a script error, with one bar per command the reader
# counts; in the scenario's, the hung read is a timed-out bar, the rule's
# firing a marker, a click on a bar shows that command's records, the wheel
# zooms, and its VCD is read by GTKWave's reader; the two drivers' page
# lists every difference trace diff reports, and a click on one shows the
# records of both runs.  The pages, VCD and
# screenshots are kept in the cache's logs/trace-report-browser/; the
# 100,000-record page's opening time is printed (tools/atalab bench
# --report measures it).
. "$(dirname "$0")/lib.sh"
KEEP=${ATALAB_CACHE:-$HOME/.cache/atalab}/logs/trace-report-browser
BROWSER=$ATALAB_ROOT/tests/tools/report-browser.py
CHECK=$ATALAB_ROOT/tests/tools/report-check.py
rm -rf "$KEEP"
mkdir -p "$KEEP"
"$ATALAB" scenario --jobs 2 --compare-driver atalab_piix --trace "$WORK/traces" --work "$WORK/scenario" \
	"$ATALAB_ROOT/tests/scenarios/timeout.scenario" >"$WORK/scenario.out" 2>&1 &
scenario=$!
"$ATALAB" run --quiet --log "$WORK/raw.log" --disk "$WORK/raw.img" --disk-size 32M \
	--append libata.dma=0 --trace-data raw --trace "$WORK/raw.trace" \
	-- ata-pattern read /dev/sda --size 384K --block 512 --direct >"$WORK/raw.out" 2>&1 ||
	fail "the raw PIO run failed: $(cat "$WORK/raw.out")"
wait "$scenario" || fail "the timeout scenario failed: $(cat "$WORK/scenario.out")"

# fact FILE EXPR WANT: a Python expression over the JSON facts d in FILE.
fact() {
	local got
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d.get("model"); print(eval(sys.argv[2]))' \
		"$1" "$2" 2>&1)
	[ "$got" = "$3" ] || fail "$2 = $got, not $3"
	echo "ok: $2 = $3"
}

T=$WORK/traces/timeout.trace
"$ATALAB" trace report "$T" -o "$KEEP/timeout.html" --vcd "$KEEP/timeout.vcd" ||
	fail "no report of the scenario's trace"
vcd2fst "$KEEP/timeout.vcd" "$WORK/timeout.fst" >"$WORK/vcd2fst.out" 2>&1 ||
	fail "GTKWave's reader refused the VCD: $(cat "$WORK/vcd2fst.out")"
cmds=$("$ATALAB" trace grep --kind cmd --count "$T")
faults=$("$ATALAB" trace grep --kind fault --count "$T")
python3 "$CHECK" "$KEEP/timeout.html" "$T" >"$WORK/timeout.json" || fail "report-check could not read the page"
fact "$WORK/timeout.json" 'd["trace_equal"]' True
fact "$WORK/timeout.json" 'sum(len(x["faults"]) for x in m["drives"])' "$faults"
fact "$WORK/timeout.json" '[(c[7], c[8], c[3]) for c in m["drives"][0]["cmds"] if c[3] not in ("ok", "error")]' \
	"[('READ_DMA', 'lba=30000 count=8', 'timed-out')]"
python3 "$BROWSER" "$KEEP/timeout.html" --screenshot "$KEEP/timeout.png" >"$WORK/timeout-browser.json" ||
	fail "Chromium could not open the page: $(cat "$WORK/timeout-browser.json")"
B=$WORK/timeout-browser.json
fact "$B" 'd["ready"]' True
fact "$B" 'd["errors"]' '[]'
fact "$B" 'd["bars"]' "$cmds"
fact "$B" 'd["fault_markers"]' "$faults"
fact "$B" 'd["timed_out_bars"]' 1
fact "$B" '("\n>%7d  " % d["clicked"]["cmd"][5]) in "\n" + d["detail_records"]' True
fact "$B" '(" seq=%d" % d["clicked"]["cmd"][4]) in d["detail_records"]' True
fact "$B" 'd["view_after"][1] - d["view_after"][0] < (d["view_before"][1] - d["view_before"][0]) / 2' True
[ -s "$KEEP/timeout.png" ] || fail "no screenshot"
echo "screenshot: $KEEP/timeout.png"

# The scenario under ata_piix (A) and atalab_piix (B), side by side.
TB=$WORK/traces/timeout.atalab_piix.trace
"$ATALAB" trace report "$T" "$TB" -o "$KEEP/timeout-pair.html" || fail "no report of the two runs"
# exit 1: the runs differ
"$ATALAB" trace diff --format json "$T" "$TB" >"$WORK/diff.json" || [ $? = 1 ] || fail "trace diff failed"
ndiff=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["differences"]))' "$WORK/diff.json")
[ "$ndiff" -gt 0 ] || fail "trace diff finds no difference between the two drivers"
python3 "$BROWSER" "$KEEP/timeout-pair.html" --screenshot "$KEEP/timeout-pair.png" >"$WORK/pair.json" ||
	fail "Chromium could not open the page of two runs: $(cat "$WORK/pair.json")"
fact "$WORK/pair.json" 'd["ready"]' True
fact "$WORK/pair.json" 'd["errors"]' '[]'
fact "$WORK/pair.json" 'd["diff_rows"]' "$ndiff"
# the first difference's records: each run's, its line marked (or its
# text, when it names no record of that run)
first=$(python3 -c 'import json,sys; x=json.load(open(sys.argv[1]))["differences"][0]; print(x["a_line"], x["b_line"])' "$WORK/diff.json")
for side in a b; do
	line=${first%% *}
	[ $side = a ] || line=${first##* }
	if [ "$line" != 0 ]; then
		fact "$WORK/pair.json" '">%7d  " % '"$line"' in d["diff_'$side'"]' True
	else
		fact "$WORK/pair.json" '"names no record" in d["diff_'$side'"] or "(not in" in d["diff_'$side'"]' True
	fi
done
echo "differences: $ndiff, marked on $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["marked_rows"], "rows of", d["rows"])' "$WORK/pair.json")"
echo "screenshot: $KEEP/timeout-pair.png"

# 100,000 records: the header and the first 100,000 records of the raw run.
awk '/^#/ && !n { print; next } { if (n++ == 100000) exit; print }' "$WORK/raw.trace" >"$KEEP/100k.trace"
records=$(grep -vc '^#' "$KEEP/100k.trace")
[ "$records" = 100000 ] || fail "the raw run has $records records, not 100000"
"$ATALAB" trace report "$KEEP/100k.trace" -o "$KEEP/100k.html" || fail "no report of 100,000 records"
cmds=$("$ATALAB" trace grep --kind cmd --count "$KEEP/100k.trace")
python3 "$BROWSER" "$KEEP/100k.html" --screenshot "$KEEP/100k.png" >"$WORK/100k.json" ||
	fail "Chromium could not open the 100,000-record page: $(cat "$WORK/100k.json")"
fact "$WORK/100k.json" 'd["ready"]' True
fact "$WORK/100k.json" 'd["errors"]' '[]'
fact "$WORK/100k.json" 'd["records"]' 100000
fact "$WORK/100k.json" 'd["bars"]' "$cmds"
printf '100,000 records (%s commands, a %d-byte page) opened in %.0f ms\n' "$cmds" \
	"$(stat -c %s "$KEEP/100k.html")" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ready_ms"])' "$WORK/100k.json")"
echo "pass"
