#!/usr/bin/env bash
# traces/FORMAT.md documents exactly the record table the writer and the
# reader share (qemu-device/core/trace/trace-records.h): every record kind of the
# table has a row in its Events table (or is the access record) and every
# row names a kind of the table; every key of the table is in its Fields
# table and the Fields table names no key the table lacks.  Then the
# atalab-trace front end on a small trace: check, grep, header.
. "$(dirname "$0")/lib.sh"
FORMAT=$ATALAB_ROOT/traces/FORMAT.md
"$ATALAB" trace forms >"$WORK/forms" 2>"$WORK/err" || { bad "trace forms failed: $(cat "$WORK/err")"; finish; }
[ "$(wc -l <"$WORK/forms")" -gt 40 ] && ok "the table has $(wc -l <"$WORK/forms") forms" || bad "few forms: $(cat "$WORK/forms")"

# Kinds: "SOURCE KIND" of the table ("ataN cmd", "irqN -", "bm start")
awk -F'\t' '$1 != "ACCESS" {
	src = $2; if (src == "ata" || src == "irq") src = src "N"
	print src, ($3 == "-" ? "-" : $3) }' "$WORK/forms" | sort -u >"$WORK/kinds.table"
# ...and of FORMAT.md's Events table: the first code span of each row
awk '/^## Events/ { on = 1; next } /^## / { on = 0 } on && /^\| `/ {
	split($0, c, "`"); n = split(c[2], w, " ")
	kind = (w[1] ~ /^irq/) ? "-" : w[2]
	print w[1], kind }' "$FORMAT" | sort -u >"$WORK/kinds.doc"
missing=$(comm -23 "$WORK/kinds.table" "$WORK/kinds.doc")
extra=$(comm -13 "$WORK/kinds.table" "$WORK/kinds.doc")
[ -z "$missing" ] && ok "every record kind is documented" || bad "kinds FORMAT.md lacks: $missing"
[ -z "$extra" ] && ok "FORMAT.md documents no kind the table lacks" || bad "kinds only in FORMAT.md: $extra"

# Keys: every name:TYPE of the table, and the key= spans of the Fields table
cut -f6 "$WORK/forms" | tr ' ' '\n' | sed -n 's/^\([a-z-]*\):.*/\1/p' | sort -u >"$WORK/keys.table"
awk '/^## Fields/ { on = 1; next } /^## / { on = 0 } on && /^\| `/ {
	first = substr($0, 3); first = substr(first, 1, index(first, " | ") - 1)
	n = split(first, c, "`")
	for (i = 2; i <= n; i += 2) if (c[i] ~ /^[a-z-]+=/) { sub(/=.*/, "", c[i]); print c[i] } }' \
	"$FORMAT" | sort -u >"$WORK/keys.doc"
missing=$(comm -23 "$WORK/keys.table" "$WORK/keys.doc" | tr '\n' ' ')
extra=$(comm -13 "$WORK/keys.table" "$WORK/keys.doc" | tr '\n' ' ')
[ -z "$missing" ] && ok "every key is documented" || bad "keys the Fields table lacks: $missing"
[ -z "$extra" ] && ok "the Fields table has no key the table lacks" || bad "keys only in FORMAT.md: $extra"

# The front end
cat >"$WORK/t" <<'TRACE'
# atalab-trace 2
# personality piix4
# fault unc id=bad drive=0 class=read lba=20000-20007 on=always times=forever
10 cfg reset
20 ata0 cmd d0 0xc8 READ_DMA lba=20000 count=8 seq=1
21 ata0 fault d0 rule=bad kind=unc cmd=0xc8 lba=20000 seq=1
22 ata0 error d0 UNC cmd=0xc8 status=0x51 error=0x40 seq=1
30 ata0 timing-summary d0 checks=4 violations=2
30 ata1 timing-summary d0 checks=0 violations=1
TRACE
check "check reads the trace" "$ATALAB" trace check "$WORK/t"
[ "$("$ATALAB" trace grep --kind fault --key rule=bad --count "$WORK/t")" = 1 ] && ok "grep counts" || bad "grep --count"
[ "$("$ATALAB" trace grep --kind timing-summary --sum violations "$WORK/t")" = 3 ] && ok "grep sums" || bad "grep --sum"
[ "$("$ATALAB" trace header "$WORK/t" personality)" = piix4 ] && ok "header value" || bad "header personality"
"$ATALAB" trace grep --kind fault --key rule=other "$WORK/t" >/dev/null
[ $? = 1 ] && ok "grep without a match exits 1" || bad "grep without a match"
printf '40 ata0 done d0 0xc8 seq=1\n' >>"$WORK/t"
out=$("$ATALAB" trace check "$WORK/t" 2>&1)
[ $? = 2 ] && [[ $out == *"$WORK/t:10: ata0 done: status= missing"* ]] &&
	ok "a malformed record: FILE:LINE: message, exit 2" || bad "malformed record: $out"
finish
