#!/usr/bin/env bash
# tools/atalab trace report: a hand-written trace with every outcome (a
# DMA read, a PIO read failed by a fault, a command the host's SRST ended
# and one the host moved on from (both timed out), one aborted by a
# removal, one still open at the end, a violation), read back by Python's own
# HTML and JSON parsers: the commands, their ends and protocols, the lanes,
# the summary cells, the trace carried byte for byte (a header line of
# HTML does not escape), one script of ours and nothing fetched.  A real
# trace opened in headless Chromium: no script error, one bar per command,
# a click shows the command's records, the wheel zooms.  --vcd writes what
# trace vcd writes.  Two runs side by side: the differences trace diff
# reports, lined up as it lines them up, marked on their rows; a click on a
# difference or a row shows both runs' records.  Bad input exits 2 and
# leaves no page.
. "$(dirname "$0")/lib.sh"
HERE=$ATALAB_ROOT/tests/tools
REAL=$HERE/traces/piix4-ata_piix-dd.trace
cat >"$WORK/hand.trace" <<'TRACE'
# atalab-trace 2
# personality piix4
# cable0 40
# cable1 40
# trace-data block
# trace-time absolute
# drive0 sectors=32768
# drive1 sectors=32768
# drive2 absent
# drive3 absent
# run.command sh -c 'echo </script><script>alert(1)</script> & "q"'
100 ata0 timing d0 bank=fast isp=3 rtc=1 iordy=1 prefetch=1 pio=120ns/pio4 mwdma=120ns/mwdma2 udma=on:udma2 ct=2 clk=33
1000 ata0 cmd d0 0xc8 READ_DMA lba=0 count=8 seq=1
1010 bm start ch0 prdt=0x00001000 to-memory dev=0 seq=1
1020 ata0 io d0 read lba=0 count=8 seq=1
1030 ata0 io-done d0 read ret=0 seq=1
1100 bm done ch0 status=0x24 dev=0 seq=1
1105 ata0 done d0 0xc8 status=0x50 seq=1
1110 irq0 1 dev=0 seq=1
1200 irq0 0 dev=0 seq=1
2000 ata0 cmd d1 0x20 READ_SECTORS lba=5 count=1 seq=1
2010 ata0 fault d1 rule=bad kind=unc cmd=read lba=5 seq=1
2020 ata0 error d1 UNC cmd=0x20 status=0x51 error=0x40 seq=1
2030 irq0 1 dev=1 seq=1
2040 irq0 0 dev=1 seq=1
3000 ata0 cmd d0 0xc8 READ_DMA lba=8 count=8 seq=2
3010 ata0 violation d0 udma-cable xfer=dma seq=2
4000 ata0 reset srst=1
4001 ata0 abort d0 0xc8 srst seq=2
4100 ata0 reset srst=0
4600 ata0 cmd d1 0x20 READ_SECTORS lba=6 count=1 seq=2
4700 ata0 cmd d1 0xec IDENTIFY_DEVICE feature=0x00 count=0x00 seq=3
4710 ata0 abort d1 0xec removed seq=3
4500 ata0 timing d0 bank=fast isp=3 rtc=1 iordy=1 prefetch=1 pio=120ns/pio4 mwdma=120ns/mwdma2 udma=off:udma0 ct=2 clk=33
5000 ata0 cmd d0 0xc8 READ_DMA lba=16 count=8 seq=3
5100 ata0 io d0 read lba=16 count=8 seq=3
TRACE
check "a report of the hand-written trace" "$ATALAB" trace report "$WORK/hand.trace" -o "$WORK/hand.html"
python3 "$HERE/report-check.py" "$WORK/hand.html" "$WORK/hand.trace" >"$WORK/hand.json" ||
	bad "report-check could not read the page"
# fact EXPR WANT: a Python expression over the facts d (m: the model).
fact() {
	local got
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d.get("model"); print(eval(sys.argv[2]))' \
		"$1" "$2" 2>&1)
	[ "$got" = "$3" ] && ok "$2 = $3" || bad "$2 = $got, not $3"
}
H=$WORK/hand.json
fact "$H" 'd["trace_equal"]' True
fact "$H" 'd["scripts"]' 2
fact "$H" 'd["external"]' '[]'
fact "$H" '[(c[0], c[1], c[2], c[3], c[4], c[5], c[6]) for c in m["drives"][0]["cmds"]]' \
	"[(1000, 1105, 'dma', 'ok', 1, 13, 18), (3000, 4000, 'dma', 'timed-out', 2, 26, 28), (5000, 5100, 'dma', 'open', 3, 35, 0)]"
fact "$H" '[(c[0], c[1], c[2], c[3], c[6], c[9]) for c in m["drives"][1]["cmds"]]' \
	"[(2000, 2020, 'pio', 'error', 23, 'UNC status=0x51 error=0x40'), (4600, 4700, 'pio', 'timed-out', 32, ''), (4700, 4710, 'pio', 'aborted', 33, 'removed')]"
fact "$H" 'm["drives"][0]["cmds"][0][11]' 4096
fact "$H" 'm["channels"][0]["irq"]' '[[1110, 1200, 19], [2030, 2040, 24]]'
fact "$H" 'm["channels"][0]["bm"]' '[[1010, 1100, 14, 0]]'
fact "$H" 'm["channels"][0]["srst"]' '[[4000, 4100, 28]]'
fact "$H" 'm["drives"][1]["faults"]' "[[2010, 22, 'fault rule=bad kind=unc cmd=read lba=5']]"
fact "$H" 'm["drives"][0]["violations"]' "[[3010, 27, 'violation udma-cable xfer=dma']]"
fact "$H" '[t[2] for t in m["drives"][0]["timing"]]' "['pio4 mwdma2 udma2', 'pio4 mwdma2 udma off']"
fact "$H" '(m["t0"], m["t1"], m["records"])' '(100, 5100, 25)'
fact "$H" 'd["cells"]["commands"], d["cells"]["timed-out"], d["cells"]["open"], d["cells"]["faults"]' \
	"(['3', '3'], ['1', '1'], ['1', '0'], ['0', '1'])"
fact "$H" 'd["cells"]["dma"], d["cells"]["pio"], d["cells"]["bytes"], d["cells"]["aborted"]' \
	"(['3', '0'], ['0', '3'], ['4096', '0'], ['0', '1'])"

# A real trace: the reader's count of commands, in the page and in Chromium.
check "a report of a real trace, with --vcd" "$ATALAB" trace report "$REAL" -o "$WORK/real.html" --vcd "$WORK/real.vcd"
"$ATALAB" trace vcd "$REAL" -o "$WORK/plain.vcd"
cmp -s "$WORK/real.vcd" "$WORK/plain.vcd" && ok "--vcd writes what trace vcd writes" ||
	bad "--vcd differs from trace vcd"
cmds=$("$ATALAB" trace grep --kind cmd --count "$REAL")
python3 "$HERE/report-check.py" "$WORK/real.html" "$REAL" >"$WORK/real.json"
fact "$WORK/real.json" 'sum(len(x["cmds"]) for x in m["drives"])' "$cmds"
fact "$WORK/real.json" 'd["trace_equal"]' True
if python3 "$HERE/report-browser.py" "$WORK/real.html" --screenshot "$WORK/real.png" >"$WORK/browser.json"; then
	B=$WORK/browser.json
	fact "$B" 'd["ready"]' True
	fact "$B" 'd["errors"]' '[]'
	fact "$B" 'd["bars"]' "$cmds"
	# the click's command: its cmd record is among the records shown
	fact "$B" '(">%7d  " % d["clicked"]["cmd"][5]) in d["detail_records"] and (" seq=%d" % d["clicked"]["cmd"][4]) in d["detail_records"]' True
	fact "$B" '" cmd d" in d["detail_records"].split("\n")[[l[0] for l in d["detail_records"].split("\n")].index(">")]' True
	fact "$B" 'd["view_after"][1] - d["view_after"][0] < (d["view_before"][1] - d["view_before"][0]) / 2' True
	[ -s "$WORK/real.png" ] && ok "a screenshot" || bad "no screenshot"
else
	bad "Chromium could not open the page: $(cat "$WORK/browser.json")"
fi

# Two runs side by side: B's first read fails, its second reads elsewhere.
sed 's/READ_SECTORS lba=6 count=1 seq=2/READ_SECTORS lba=7 count=1 seq=2/
s/^1105 ata0 done d0 0xc8 status=0x50 seq=1/1105 ata0 error d0 UNC cmd=0xc8 status=0x51 error=0x40 seq=1/' \
	"$WORK/hand.trace" >"$WORK/hand-b.trace"
check "a report of two runs" "$ATALAB" trace report "$WORK/hand.trace" "$WORK/hand-b.trace" -o "$WORK/pair.html"
"$ATALAB" trace diff --format json "$WORK/hand.trace" "$WORK/hand-b.trace" >"$WORK/pair-diff.json"
python3 "$HERE/report-check.py" "$WORK/pair.html" "$WORK/hand.trace" "$WORK/hand-b.trace" >"$WORK/pair.json"
P=$WORK/pair.json
fact "$P" 'd["trace_equal"]' True
# the differences trace diff reports, in its order
fact "$P" '[[x[0], x[1], x[4], x[7], x[8]] for x in m["diffs"]] == [[x["class"], x["space"], x["what"], x["a_line"], x["b_line"]] for x in json.load(open(sys.argv[1].replace("pair.json", "pair-diff.json")))["differences"]]' True
fact "$P" 'len(m["diffs"])' 3
fact "$P" 'm["pairs"][0]' '[[0, 0], [1, 1], [2, 2]]'
fact "$P" 'd["cells"]["errors"], d["cells"]["commands"], d["cells"]["all"], d["cells"]["time"]' \
	"(['2'], ['1'], ['3'], ['ignored'])"
if python3 "$HERE/report-browser.py" "$WORK/pair.html" >"$WORK/pair-browser.json"; then
	B=$WORK/pair-browser.json
	fact "$B" 'd["errors"]' '[]'
	fact "$B" '(d["diff_rows"], d["marked_rows"], d["markedDiffs"])' '(3, 3, 3)'
	# the first difference: the error handling, A's at its reset (line 28), B's at the error (18)
	fact "$B" '(">     28  4000 ata0 reset srst=1" in d["diff_a"], ">     18  1105 ata0 error d0 UNC" in d["diff_b"])' '(True, True)'
	fact "$B" '("done d0 0xc8 status=0x50 seq=1" in d["row_a"], "error d0 UNC cmd=0xc8" in d["row_b"])' '(True, True)'
else
	bad "Chromium could not open the page of two runs: $(cat "$WORK/pair-browser.json")"
fi
sed 's/^# personality piix4/# personality ich5/' "$WORK/hand.trace" >"$WORK/ich5.trace"
expect 2 "personality" -- trace report "$WORK/hand.trace" "$WORK/ich5.trace" -o "$WORK/x.html"
expect 2 "--vcd goes with one trace" -- trace report "$WORK/hand.trace" "$WORK/hand-b.trace" --vcd "$WORK/x.vcd"
expect 2 "unknown class 'nonsense'" -- trace report "$WORK/hand.trace" "$WORK/hand-b.trace" --ignore nonsense
check "--ignore errors,commands: no difference left" "$ATALAB" trace report "$WORK/hand.trace" "$WORK/hand-b.trace" \
	--ignore errors,commands -o "$WORK/same.html"
python3 "$HERE/report-check.py" "$WORK/same.html" "$WORK/hand.trace" "$WORK/hand-b.trace" >"$WORK/same.json"
fact "$WORK/same.json" '(len(m["diffs"]), d["cells"]["errors"])' "(0, ['ignored'])"

# A folded Status read after a command's end is among its records; a
# repeat's cycles count their interrupts; a CR in a header line shifts no
# line of the page; two lines of one header key compare one by one.
{
	printf '# atalab-trace 2\n# personality piix4\n# cable0 40\n# cable1 40\n'
	printf '# trace-data block\n# trace-time absolute\n# drive0 sectors=32768\n'
	printf '# drive1 absent\n# drive2 absent\n# drive3 absent\n'
	printf '# run.command printf a\rb\n'
	printf '# fault unc id=x drive=0 lba=100\n# fault unc id=y drive=0 lba=200\n'
	cat <<'TRACE'
1000 ata0 w 0x7 1 0xe7 reg=Command cmd=FLUSH_CACHE dev=0 seq=0
1001 ata0 cmd d0 0xe7 FLUSH_CACHE feature=0x00 count=0x00 seq=1
1010 ata0 done d0 0xe7 status=0x50 seq=1
1020 ata0 r 0x7 1 0x50 reg=Status bits=DRDY|DSC dev=0 seq=1 polls=3 last=1050
1060 ata0 r 0x7 1 0x50 reg=Status bits=DRDY|DSC dev=0 seq=1
1100 ata0 w 0x6 1 0xa0 reg=Device bits=none dev=0 seq=1
2000 ata0 cmd d0 0x20 READ_SECTORS lba=0 count=4 seq=2
2010 irq0 1 dev=0 seq=2
2020 ata0 r 0x7 1 0x58 reg=Status bits=DRDY|DSC|DRQ dev=0 seq=2
2030 irq0 0 dev=0 seq=2
2040 ata0 data d0 in bytes=512 width=2 sum=0x00000001 seq=2
2110 irq0 1 dev=0 seq=2
2120 ata0 r 0x7 1 0x58 reg=Status bits=DRDY|DSC|DRQ dev=0 seq=2
2130 irq0 0 dev=0 seq=2
2140 ata0 data d0 in bytes=512 width=2 sum=0x00000001 seq=2
2150 ata0 repeat d0 cycles=3 records=4 bytes=1536 sums=0x00000002 last=2400 seq=2
2500 ata0 done d0 0x20 status=0x50 seq=2
TRACE
} >"$WORK/folds.trace"
cp "$WORK/folds.trace" "$WORK/folds2.trace"
check "a report of folded records" "$ATALAB" trace report "$WORK/folds.trace" -o "$WORK/folds.html"
python3 "$HERE/report-check.py" "$WORK/folds.html" "$WORK/folds.trace" >"$WORK/folds.json"
fact "$WORK/folds.json" 'd["trace_equal"]' True
fact "$WORK/folds.json" 'd["cells"]["irqs"], d["cells"]["bytes"]' "(['5', '0'], ['2560'])"
if python3 "$HERE/report-browser.py" "$WORK/folds.html" --show 0 1 >"$WORK/folds-browser.json"; then
	fact "$WORK/folds-browser.json" 'd["errors"]' '[]'
	fact "$WORK/folds-browser.json" '[l[1:].split()[0] for l in d["shown"].split("\n")]' "['14', '15', '16', '17', '18']"
	fact "$WORK/folds-browser.json" '[l for l in d["shown"].split("\n") if l.startswith(">")][0][1:].split()[3]' cmd
else
	bad "Chromium could not open the page of folded records: $(cat "$WORK/folds-browser.json")"
fi
check "two runs with two fault lines each" "$ATALAB" trace report "$WORK/folds.trace" "$WORK/folds2.trace" -o "$WORK/folds-pair.html"
python3 "$HERE/report-check.py" "$WORK/folds-pair.html" "$WORK/folds.trace" "$WORK/folds2.trace" >"$WORK/folds-pair.json"
fact "$WORK/folds-pair.json" '(len(m["diffs"]), d["differs_rows"])' '(0, 0)'

# A changed stretch with a command only B sent: rows in both runs' order.
cmds_trace() {
	local t=1000 s=0 c
	head -n 10 "$WORK/hand.trace" | sed '/^# drive1/s/.*/# drive1 absent/'
	for c in "$@"; do
		s=$((s + 1)) t=$((t + 100))
		case $c in
		I) echo "$t ata0 cmd d0 0xec IDENTIFY_DEVICE feature=0x00 count=0x00 seq=$s" ;;
		F) echo "$t ata0 cmd d0 0xe7 FLUSH_CACHE feature=0x00 count=0x00 seq=$s" ;;
		Z) echo "$t ata0 cmd d0 0xef SET_FEATURES feature=0x02 count=0x00 seq=$s" ;;
		*) echo "$t ata0 cmd d0 0x20 READ_SECTORS lba=$c count=1 seq=$s" ;;
		esac
		echo "$((t + 10)) ata0 done d0 0x00 status=0x50 seq=$s"
	done
}
cmds_trace I 1 2 F >"$WORK/order-a.trace"
cmds_trace I 11 Z 12 F >"$WORK/order-b.trace"
check "a report of reordered runs" "$ATALAB" trace report "$WORK/order-a.trace" "$WORK/order-b.trace" -o "$WORK/order.html"
python3 "$HERE/report-check.py" "$WORK/order.html" "$WORK/order-a.trace" "$WORK/order-b.trace" >"$WORK/order.json"
fact "$WORK/order.json" 'm["pairs"][0]' '[[0, 0], [1, 1], [-1, 2], [2, 3], [3, 4]]'

# Never written over an input; a failed report leaves OUT as it was.
cp "$WORK/hand.trace" "$WORK/victim.trace"
expect 2 "victim.trace is an input: not written over" -- trace report "$WORK/victim.trace" -o "$WORK/victim.trace"
expect 2 "victim.trace is an input: not written over" -- trace report "$WORK/victim.trace" -o "$WORK/v.html" --vcd "$WORK/victim.trace"
cmp -s "$WORK/hand.trace" "$WORK/victim.trace" && ok "the trace is intact" || bad "the input trace was changed"
{ cat "$WORK/hand.trace"; echo "6000 irq0 7"; } >"$WORK/bad.trace"
echo keep >"$WORK/kept.html"
expect 2 "bad.trace:37: " -- trace report "$WORK/bad.trace" -o "$WORK/kept.html"
[ "$(cat "$WORK/kept.html")" = keep ] && ok "a failed report leaves OUT as it was" || bad "a failed report changed OUT"
[ -z "$(ls "$WORK" | grep 'kept.html.')" ] && ok "no temporary file left" || bad "temporary files left: $(ls "$WORK")"
expect 2 "--ignore goes with two traces" -- trace report "$WORK/hand.trace" --ignore time -o "$WORK/x.html"

expect 2 "a timeline needs the trace's own times: this trace's are normalized to 0" -- \
	trace report "$ATALAB_ROOT/traces/golden/piix4-ata_piix-dma.trace" -o "$WORK/golden.html"
[ ! -e "$WORK/golden.html" ] && ok "no page left behind" || bad "a refused report left a page"
{ head -n 6 "$WORK/hand.trace"; echo "# drive0 absent"; echo "5 irq0 1"; } | sed 's/absolute/relative/' >"$WORK/rel.trace"
expect 2 "relative to each command" -- trace report "$WORK/rel.trace" -o "$WORK/rel.html"
expect 2 "bad.trace:37: " -- trace report "$WORK/bad.trace" -o "$WORK/bad.html"
[ ! -e "$WORK/bad.html" ] && ok "no page left behind" || bad "a malformed trace left a page"
expect 2 "not standard input" -- trace report - -o "$WORK/stdin.html"
expect 2 "report.js" -- trace report "$WORK/hand.trace" --assets "$WORK/none" -o "$WORK/x.html"
expect 2 "No such file" -- trace report "$WORK/none.trace" -o "$WORK/x.html"
expect 2 "usage" -- trace report "$WORK/hand.trace" --frobnicate
finish
