#!/usr/bin/env bash
# tools/atalab trace replay on real recordings, not normalized: a DMA run
# with timed fault rules (a spurious interrupt, a drive removed and
# reinserted: channel fault timers and a drive's fault timer), latency (the
# command's end on a fault timer) and a media error; and a PIO run traced
# raw (every data port access) with latency (its last block on a fault
# timer) and a media error.  Both replay
# on the core alone and agree; the first again without its fault rules
# diverges where the first rule fired; a folded PIO run of 512 KiB commands
# replays too.  The guests run side by side.
# (Whether libata still sees the slave after its removal depends on when
# the removal falls during boot: its last read may fail.)
. "$(dirname "$0")/lib.sh"
cat >"$WORK/dma.rules" <<'RULES'
latency drive=0 class=read lba=100+8 delay=50ms
unc drive=0 class=read lba=2000+8
spurious-irq drive=0 on=time:3s-4s
remove drive=1 on=time:3s-4s for=1s
RULES
grep '^unc\|^latency' "$WORK/dma.rules" >"$WORK/pio.rules"
reads='dd if=/dev/sda of=/dev/null bs=4k skip=12 count=2 iflag=direct
dd if=/dev/sda of=/dev/null bs=4k skip=250 count=1 iflag=direct 2>/dev/null || echo media error'
"$ATALAB" run --quiet --log "$WORK/dma.log" --disk-size 16M --disk "$WORK/dma-a.img" \
	--disk "$WORK/dma-b.img" --faults "$WORK/dma.rules" --trace "$WORK/dma.trace" \
	-- sh -c "sleep 3; $reads; sleep 2; dd if=/dev/sdb of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null || true" \
	>"$WORK/dma.out" 2>&1 &
dma=$!
# A folded PIO run of commands longer than 256 KiB (LBA48).
"$ATALAB" run --quiet --log "$WORK/long.log" --disk-size 16M --disk "$WORK/long-a.img" \
	--append libata.dma=0 --trace "$WORK/long.trace" \
	-- dd if=/dev/sda of=/dev/null bs=1M count=4 iflag=direct >"$WORK/long.out" 2>&1 &
long=$!
"$ATALAB" run --quiet --log "$WORK/pio.log" --disk-size 16M --disk "$WORK/pio-a.img" \
	--faults "$WORK/pio.rules" --append libata.dma=0 --trace-data raw \
	--trace "$WORK/pio.trace" -- sh -c "$reads" >"$WORK/pio.out" 2>&1 ||
	fail "the PIO run failed: $(cat "$WORK/pio.out")"
wait "$dma" || fail "the DMA run failed: $(cat "$WORK/dma.out")"
wait "$long" || fail "the long PIO run failed: $(cat "$WORK/long.out")"
for run in dma pio; do
	grep -qx 'media error' "$WORK/$run.out" || fail "$run: the unc rule did not fail the read"
done

# Every kind of input the trace records is there to replay.
TRACE_TOOL() { "$ATALAB" trace "$@"; }
for want in "dma timer" "dma fault-timer" "dma io-done" "pio io-done" "pio timer"; do
	set -- $want
	n=$(TRACE_TOOL grep --kind "$2" --count "$WORK/$1.trace" || true)
	[ "${n:-0}" -gt 0 ] || fail "$1.trace has no $2 record"
done
[ "$(TRACE_TOOL header "$WORK/pio.trace" trace-data)" = raw ] || fail "pio.trace is not raw"

most=$(TRACE_TOOL grep --kind cmd --key lba= --field count "$WORK/long.trace" | sort -n | tail -n 1)
[ "${most:-0}" -gt 512 ] || fail "long.trace's longest command has ${most:-0} sectors, not more than 512"
for run in dma pio long; do
	"$ATALAB" trace replay "$WORK/$run.trace" >"$WORK/$run.replay" 2>&1 ||
		fail "$run.trace does not replay: $(head -n 20 "$WORK/$run.replay")"
	cat "$WORK/$run.replay"
	grep -q 'the core agrees' "$WORK/$run.replay" || fail "$run: no agreement: $(cat "$WORK/$run.replay")"
done

# Without its fault rules, the DMA recording diverges no later than the
# first firing (a fault record, or the timer a timed rule or a delay set).
grep -v '^# fault ' "$WORK/dma.trace" >"$WORK/nofaults.trace"
rc=0
"$ATALAB" trace replay "$WORK/nofaults.trace" >"$WORK/nofaults.replay" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "replay without the rules exited $rc: $(cat "$WORK/nofaults.replay")"
at=$(sed -n "s|^$WORK/nofaults.trace:\([0-9]*\): replay diverges.*|\1|p" "$WORK/nofaults.replay")
[ -n "$at" ] || fail "no divergence line: $(head -n 5 "$WORK/nofaults.replay")"
first=$(grep -nE ' (fault-timer|timer d[01] fault|fault d[01] rule=)' "$WORK/nofaults.trace" | head -n 1 | cut -d: -f1)
# (with the rules the same trace agreed to its end: see above)
[ "$at" -le "$first" ] ||
	fail "diverging at line $at ($(sed -n "${at}p" "$WORK/nofaults.trace")), after line $first where the first firing is"
head -n 3 "$WORK/nofaults.replay"
