#!/usr/bin/env bash
# tools/atalab trace diff on traces whose differences are known: a real
# trace (ata_piix probing and reading on piix4, tests/tools/traces/)
# against itself and against copies changed by one bit, one time, one poll
# count; and small hand-written traces that differ in one command, one
# protocol path, one error handling, one fault firing, one violation.
# Each report is checked for the difference in the words docs/trace-diff.md
# gives, and the exit status: 0 same, 1 different, 2 error.
. "$(dirname "$0")/lib.sh"
REAL=$ATALAB_ROOT/tests/tools/traces/piix4-ata_piix-dd.trace
# The front end once (it builds the tool when stale), then the tool itself:
# the front end's up-to-date check costs a second a call.
check "tools/atalab trace diff runs" "$ATALAB" trace diff "$REAL" "$REAL"
DIFF=("${ATALAB_CACHE:-$HOME/.cache/atalab}/host-tools/atalab-trace" diff)

# diff_is STATUS PATTERN ARGS...: trace diff exits STATUS and prints a
# line matching PATTERN (grep -F: fixed text).
diff_is() {
	local want=$1 pattern=$2 got=0
	shift 2
	"${DIFF[@]}" "$@" >"$WORK/out" 2>&1 || got=$?
	if [ "$got" != "$want" ] || ! grep -qF -- "$pattern" "$WORK/out"; then
		bad "trace diff $* exited $got (want $want); wanted a line with: $pattern"
		sed 's/^/  | /' "$WORK/out" >&2
	else
		ok "trace diff -> $got: $(grep -F -m1 -- "$pattern" "$WORK/out" | sed 's/^ *//')"
	fi
}

# ---- the real trace ------------------------------------------------------
diff_is 0 identical "$REAL" "$REAL"
diff_is 0 identical --ignore none "$REAL" "$REAL"

# One bit of the UDMATIM write (UDMA mode 2 -> 1 for the primary master)
sed 's/^\([0-9]* cfg w 0x4a 2 \)0x0002 /\10x0001 /' "$REAL" >"$WORK/udmatim"
cmp -s "$REAL" "$WORK/udmatim" && bad "the UDMATIM write was not changed"
diff_is 1 'cfg ata0 UDMATIM [mode setting]: 0x0002 vs 0x0001' "$REAL" "$WORK/udmatim"
diff_is 1 'ata0 d0: udma=off:udma2 ct=2 vs udma=off:udma1 ct=1' "$REAL" "$WORK/udmatim"
diff_is 1 '1 difference: timing 1' "$REAL" "$WORK/udmatim"
diff_is 0 identical --ignore timing "$REAL" "$WORK/udmatim"
diff_is 0 identical --only ata0 "$REAL" "$WORK/udmatim"
diff_is 1 '-cfg w 0x4a 2 0x0002 reg=UDMATIM' --format=unified "$REAL" "$WORK/udmatim"
diff_is 1 '+cfg w 0x4a 2 0x0001 reg=UDMATIM' --format unified "$REAL" "$WORK/udmatim"
"${DIFF[@]}" --format=json "$REAL" "$WORK/udmatim" >"$WORK/json"
python3 - "$WORK/json" <<'PY' && ok "json: one timing difference, both values, lines" || bad "json: $(cat "$WORK/json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "atalab-trace-diff 1" and not d["identical"], d
[x] = d["differences"]
assert (x["class"], x["space"], x["a"], x["b"]) == ("timing", "cfg", "0x0002", "0x0001"), x
assert x["a_line"] == x["b_line"] > 0 and x["detail"], x
assert ["personality", "piix4"] in d["a"]["header"], d["a"]["header"]
PY

# Times: every record 1 us later, and one command 1 us longer.  The
# default ignores time; --ignore none sees the longer command only.
awk '/^#/ { print; next } { $1 += 1000; print }' "$REAL" >"$WORK/shifted"
diff_is 0 identical "$REAL" "$WORK/shifted"
diff_is 0 identical --ignore none "$REAL" "$WORK/shifted"
awk '/^#/ { print; next } / ata0 done d0 0xc8 / && !done { $1 += 1000; done = 1 } { print }' \
	"$REAL" >"$WORK/slower"
diff_is 0 identical "$REAL" "$WORK/slower"
diff_is 1 'seq 8 READ_DMA: 1335848 ns vs 1336848 ns' --ignore none "$REAL" "$WORK/slower"

# Polls: one folded poll read twice more
awk '/^#/ { print; next } / polls=2 / && !done { sub(/ polls=2 /, " polls=4 "); done = 1 } { print }' \
	"$REAL" >"$WORK/polls"
cmp -s "$REAL" "$WORK/polls" && bad "no poll was changed"
diff_is 0 identical "$REAL" "$WORK/polls"
diff_is 1 'Status reads vs' --ignore none "$REAL" "$WORK/polls"
diff_is 1 '+58184911 ata0 r 0x7 1 0x51 reg=Status bits=DRDY|DSC|ERR dev=0 seq=1 polls=4 last=58194680' --format unified --ignore none "$REAL" "$WORK/polls"

# ---- hand-written traces ---------------------------------------------------
# header: piix4, drive 0 only
hdr() {
	printf '%s\n' '# atalab-trace 2' '# personality piix4' '# cable0 40' '# cable1 40' \
		'# drive0 sectors=262144' '# drive1 absent' '# drive2 absent' '# drive3 absent' \
		'# fault-seed 0'
}
# timing PREFETCH: the decoded setting of IDETIM0 0xa307 (1) or 0xa303 (0)
timing() {
	echo "bank=fast isp=3 rtc=1 iordy=1 prefetch=$1 pio=120ns/pio4 mwdma=120ns/mwdma2 udma=off:udma0 ct=0 clk=33"
}
# cmd T SEQ OPCODE NAME PARAMS [END]: a command of ata0 d0 that ends with
# done (END "error ..." for an error record)
cmd() {
	local t=$1 seq=$2 op=$3 name=$4 params=$5 end=${6:-done}
	echo "$t ata0 cmd d0 $op $name $params seq=$seq"
	echo "$((t + 1)) irq0 1 dev=0 seq=$seq"
	if [ "$end" = done ]; then
		echo "$((t + 2)) ata0 done d0 $op status=0x50 seq=$seq"
	else
		echo "$((t + 2)) ata0 $end seq=$seq"
	fi
}
probe() {
	cmd 100 1 0xec IDENTIFY_DEVICE 'feature=0x00 count=0x00'
	echo "150 cfg w 0x40 2 0xa307 reg=IDETIM0"
	echo "151 ata0 timing d0 $(timing 1)"
	cmd 200 2 0xef SET_FEATURES 'feature=0x03 count=0x0c'
}

{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=0 count=8'; cmd 400 4 0xe7 FLUSH_CACHE 'feature=0x00 count=0x00'
  cmd 500 5 0xca WRITE_DMA 'lba=8 count=8'; } >"$WORK/a"
check "the hand-written trace reads" "$ATALAB" trace check "$WORK/a"
diff_is 0 identical "$WORK/a" "$WORK/a"

# A command missing, one changed, one reordered
{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=0 count=16'; cmd 500 4 0xca WRITE_DMA 'lba=8 count=8'
  cmd 600 5 0xe7 FLUSH_CACHE 'feature=0x00 count=0x00'; } >"$WORK/b"
diff_is 1 'ata0 d0 [I/O] seq 3 READ_DMA: lba=0 count=8 vs lba=0 count=16' "$WORK/a" "$WORK/b"
diff_is 1 'ata0 d0 [I/O] FLUSH_CACHE reordered: seq 4 FLUSH_CACHE feature=0x00 count=0x00 vs seq 5 FLUSH_CACHE' "$WORK/a" "$WORK/b"
{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=0 count=8'; cmd 500 4 0xca WRITE_DMA 'lba=8 count=8'; } >"$WORK/c"
diff_is 1 'ata0 d0 [I/O] FLUSH_CACHE: only in A: seq 4 FLUSH_CACHE feature=0x00 count=0x00' "$WORK/a" "$WORK/c"

# Two writes of one channel in the other order: reordered, not one-sided
{ hdr; cmd 100 1 0xec IDENTIFY_DEVICE 'feature=0x00 count=0x00'
  echo "150 cfg w 0x4a 2 0x0002 reg=UDMATIM"; echo "160 cfg w 0x48 1 0x01 reg=UDMACTL"; } >"$WORK/order1"
{ hdr; cmd 100 1 0xec IDENTIFY_DEVICE 'feature=0x00 count=0x00'
  echo "150 cfg w 0x48 1 0x01 reg=UDMACTL"; echo "160 cfg w 0x4a 2 0x0002 reg=UDMATIM"; } >"$WORK/order2"
diff_is 1 'cfg ata0 UDMATIM 0x0002 reordered [mode setting]' "$WORK/order1" "$WORK/order2"
diff_is 1 '1 difference: timing 1' "$WORK/order1" "$WORK/order2"

# The two channels probed in the other order (libata probes them in
# parallel): each channel's writes, SITRE among them, align on their own
{ hdr; echo "150 cfg w 0x40 2 0xc000 reg=IDETIM0"; echo "151 cfg w 0x44 1 0x00 reg=SIDETIM"
  echo "160 cfg w 0x42 2 0xc000 reg=IDETIM1"; } >"$WORK/probe01"
{ hdr; echo "150 cfg w 0x42 2 0xc000 reg=IDETIM1"; echo "160 cfg w 0x40 2 0xc000 reg=IDETIM0"
  echo "161 cfg w 0x44 1 0x00 reg=SIDETIM"; } >"$WORK/probe10"
diff_is 0 identical "$WORK/probe01" "$WORK/probe10"

# The protocol path: DMA against PIO, interrupt against polled
{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=0 count=8'
  echo "301 bm start ch0 prdt=0x00001000 to-memory dev=0 seq=3"; } >"$WORK/dma"
{ hdr; probe; cmd 300 3 0x20 READ_SECTORS 'lba=0 count=8'
  echo "301 ata0 data d0 in bytes=512 width=2 sum=0x811c9dc5 seq=3"; } >"$WORK/pio"
diff_is 1 'ata0 d0 [I/O] seq 3/3 lba=0 count=8: READ_DMA (DMA in, interrupt-driven, 1 interrupt) vs READ_SECTORS (PIO in, interrupt-driven, 1 interrupt, 512-byte DRQ blocks)' "$WORK/dma" "$WORK/pio"
diff_is 1 'protocol 1' "$WORK/dma" "$WORK/pio"
diff_is 1 'protocol 1' --only bm "$WORK/dma" "$WORK/pio"
{ hdr; probe; echo "299 ctl0 w 0x0 1 0x0a reg=DevCtl bits=nIEN dev=0 seq=2"; cmd 300 3 0x20 READ_SECTORS 'lba=0 count=8'
  echo "301 ata0 data d0 in bytes=512 width=2 sum=0x811c9dc5 seq=3"; } >"$WORK/polled"
diff_is 1 'seq 3 READ_SECTORS: PIO in, interrupt-driven, 1 interrupt, 512-byte DRQ blocks vs PIO in, polled, 1 interrupt, 512-byte DRQ blocks' "$WORK/pio" "$WORK/polled"
# An interrupt that never came (a lost-irq fault, say)
grep -v '^301 irq0 1 dev=0 seq=3$' "$WORK/dma" >"$WORK/dma-noirq"
diff_is 1 'seq 3 READ_DMA: DMA in, interrupt-driven, 1 interrupt vs DMA in, interrupt-driven, 0 interrupts' "$WORK/dma" "$WORK/dma-noirq"
# The data: another checksum
sed 's/sum=0x811c9dc5/sum=0x811c9dc6/' "$WORK/pio" >"$WORK/pio-sum"
diff_is 1 'seq 3 READ_SECTORS: 512 PIO bytes (sum 0x' "$WORK/pio" "$WORK/pio-sum"
diff_is 0 identical --ignore data "$WORK/pio" "$WORK/pio-sum"

# A repeat record (traces/FORMAT.md "Repeats") stands for its cycles: a PIO
# read of 4 blocks written out against the same with block 2 folded
# pio_block K IO: block K's cycle (IO: the next block's io, or none)
pio_block() {
	local t=$((400 + $1 * 10))
	echo "$t irq0 1 dev=0 seq=3"
	echo "$((t + 1)) ata0 r 0x7 1 0x58 reg=Status bits=DRDY|DSC|DRQ dev=0 seq=3"
	[ "$2" = none ] || echo "$((t + 2)) ata0 io d0 read lba=$2 count=1 seq=3"
	echo "$((t + 3)) ata0 data d0 in bytes=512 width=4 sum=0x0000000$1 seq=3"
}
pio4() {
	hdr; probe
	echo "300 ata0 cmd d0 0x20 READ_SECTORS lba=0 count=4 seq=3"
	echo "301 ata0 io d0 read lba=0 count=1 seq=3"
	pio_block 0 1; pio_block 1 2
	if [ "$1" = folded ]; then
		echo "420 ata0 repeat d0 cycles=1 records=4 bytes=512 sums=$2 last=423 seq=3"
	else
		pio_block 2 3
	fi
	pio_block 3 none
	echo "440 ata0 done d0 0x20 status=0x50 seq=3"
}
pio4 raw >"$WORK/pio4"
pio4 folded 0x00000002 >"$WORK/pio4-folded"
check "a trace with a repeat reads" "$ATALAB" trace check "$WORK/pio4-folded"
diff_is 0 identical "$WORK/pio4" "$WORK/pio4-folded"
pio4 folded 0x00000012 >"$WORK/pio4-sums"
diff_is 1 'seq 3 READ_SECTORS: 2048 PIO bytes (sum 0x' "$WORK/pio4" "$WORK/pio4-sums"
sed 's/ cycles=1 / cycles=2 /; s/ bytes=512 sums/ bytes=1024 sums/' "$WORK/pio4-folded" >"$WORK/pio4-more"
diff_is 1 'sectors vs 2560 PIO bytes (sum 0x' "$WORK/pio4" "$WORK/pio4-more"
diff_is 1 '4 interrupts, 512-byte DRQ blocks vs PIO in, interrupt-driven, 5 interrupts' "$WORK/pio4" "$WORK/pio4-more"
sed 's/ records=4 / records=3 /' "$WORK/pio4-folded" >"$WORK/pio4-bad"
diff_is 2 "$WORK/pio4-bad:28: repeat of 3 records does not follow a cycle of as many (the cycle before it has 4)" "$WORK/pio4" "$WORK/pio4-bad"

# trace normalize: what differs between two runs of one thing goes (times,
# polls, addresses, the atalab version); the rest compares identical
"${DIFF[0]}" normalize "$REAL" >"$WORK/normal" || bad "trace normalize failed"
check "the normalized trace reads" "$ATALAB" trace check "$WORK/normal"
[ "$(grep -v '^#' "$WORK/normal" | grep -vc '^0 ')" = 0 ] && ok "normalize: every time 0" || bad "normalize left times"
grep -qE ' (polls|last)=' "$WORK/normal" && bad "normalize left polls= or last=" || ok "normalize: no polls= or last="
grep -qE ' (prdt|at|addr)=0x0*[1-9a-f]' "$WORK/normal" && bad "normalize left an address" || ok "normalize: addresses zero"
grep -q 'reg=BMIDTPX' "$WORK/normal" && ! grep 'reg=BMIDTPX' "$WORK/normal" | grep -vq ' 0x00000000 reg=BMIDTPX' &&
	ok "normalize: BMIDTPX values zero" || bad "normalize: BMIDTPX values"
grep -q '^# run.atalab ' "$WORK/normal" && bad "normalize kept run.atalab" || ok "normalize: no run.atalab"
[ "$(grep -vc '^#' "$WORK/normal")" = "$(grep -vc '^#' "$REAL")" ] && ok "normalize: every record kept" || bad "normalize: records lost"
diff_is 0 identical "$REAL" "$WORK/normal"

# Error handling: the same UNC, recovered after one reset in A; after two
# resets and with prefetch turned off in B
eh() {
	local resets=$1 mode=$2 prefetch=$3
	hdr; probe
	cmd 300 3 0xc8 READ_DMA 'lba=64 count=8' 'error d0 UNC cmd=0xc8 status=0x51 error=0x40'
	for r in $(seq "$resets"); do
		echo "$((300 + r * 10)) ata0 reset srst=1"
		echo "$((301 + r * 10)) ata0 reset srst=0"
	done
	cmd 400 4 0xec IDENTIFY_DEVICE 'feature=0x00 count=0x00'
	echo "450 cfg w 0x40 2 $mode reg=IDETIM0"
	[ "$prefetch" = 1 ] || echo "451 ata0 timing d0 $(timing "$prefetch")"
	cmd 500 5 0xc8 READ_DMA 'lba=64 count=8'
}
eh 1 0xa307 1 >"$WORK/eh1"
eh 2 0xa303 0 >"$WORK/eh2"
diff_is 1 'ata0 d0 [error handling] error handling: error UNC status=0x51 error=0x40 on READ_DMA lba=64 count=8; 2 commands, 1 retry, 1 reset; recovered vs error UNC status=0x51 error=0x40 on READ_DMA lba=64 count=8; 2 commands, 1 retry, 2 resets; timing prefetch=1 vs prefetch=0; recovered' "$WORK/eh1" "$WORK/eh2"
diff_is 1 'cfg ata0 IDETIM0 [error handling]: only in B: 0xa303' "$WORK/eh1" "$WORK/eh2"
diff_is 1 'ata0 d0: sets prefetch=0' "$WORK/eh1" "$WORK/eh2"
diff_is 0 identical --ignore errors,timing "$WORK/eh1" "$WORK/eh2"

{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=64 count=8'; } >"$WORK/plain"
# Outcomes: done against an error, against no completion at all
{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=64 count=8' 'error d0 ABRT cmd=0xc8 status=0x51 error=0x04'; } >"$WORK/abrt"
{ hdr; probe; echo "300 ata0 cmd d0 0xc8 READ_DMA lba=64 count=8 seq=3"
  echo "900 ata0 reset srst=1"; } >"$WORK/hung"
diff_is 1 'ata0 d0 [I/O] seq 3 READ_DMA: done status=0x50 vs error ABRT status=0x51 error=0x04' "$WORK/plain" "$WORK/abrt"
diff_is 1 'ata0 d0 [I/O] seq 3 READ_DMA: done status=0x50 vs no completion (timed out)' "$WORK/plain" "$WORK/hung"
diff_is 1 'ata0 d0 [error handling] phase error handling: only in B: no completion on READ_DMA lba=64 count=8; 0 commands, 0 retries, 1 reset; not recovered' "$WORK/plain" "$WORK/hung"

# A fault firing and a violation on one side only
{ hdr; probe; cmd 300 3 0xc8 READ_DMA 'lba=64 count=8'
  echo "303 ata0 fault d0 rule=r1 kind=latency cmd=0xc8 lba=64 seq=3"
  echo "304 ata0 violation d0 udma-40-wire reg=cable expected=<=udma2 actual=udma5 xfer=dma seq=3"; } >"$WORK/fired"
diff_is 1 'ata0 d0 [I/O] fault: only in B: fault rule=r1 kind=latency cmd=0xc8 lba=64' "$WORK/plain" "$WORK/fired"
diff_is 1 'during seq 3 READ_DMA lba=64 count=8' "$WORK/plain" "$WORK/fired"
diff_is 1 'ata0 d0 [I/O] violation: only in B: violation udma-40-wire reg=cable expected=<=udma2 actual=udma5 xfer=dma' "$WORK/plain" "$WORK/fired"

# ---- errors: exit 2 and why --------------------------------------------------
sed 's/^# personality piix4/# personality ich5/' "$WORK/a" >"$WORK/ich5"
diff_is 2 "the traces are not comparable: header 'personality' is 'piix4' in $WORK/a and 'ich5' in $WORK/ich5" "$WORK/a" "$WORK/ich5"
# A header only one trace has is named, not the line after it.
sed 's/^# personality piix4/&\n# ide-mode native/' "$WORK/a" >"$WORK/native"
diff_is 2 "header 'ide-mode' is '(none)' in $WORK/a and 'native' in $WORK/native" "$WORK/a" "$WORK/native"
diff_is 2 "header 'ide-mode' is 'native' in $WORK/native and '(none)' in $WORK/a" "$WORK/native" "$WORK/a"
sed 's/^# drive0 sectors=262144/# drive0 sectors=524288/' "$WORK/a" >"$WORK/bigger"
diff_is 2 "header 'drive0' is 'sectors=262144'" "$WORK/a" "$WORK/bigger"
{ cat "$WORK/a"; echo "900 ata0 done d0 0xc8 seq=9"; } >"$WORK/bad"
diff_is 2 "$WORK/bad:$(($(wc -l <"$WORK/bad"))): ata0 done: status= missing" "$WORK/a" "$WORK/bad"
diff_is 2 "$WORK/none" "$WORK/a" "$WORK/none"
diff_is 2 "unknown class" --ignore colour "$WORK/a" "$WORK/a"
diff_is 2 "unknown space" --only ata2 "$WORK/a" "$WORK/a"
diff_is 2 "two traces wanted" "$WORK/a"
diff_is 2 "unknown format" --format html "$WORK/a" "$WORK/a"
finish
