#!/usr/bin/env bash
# tools/atalab zoo on the entry cheapest to catch and on a control.  The
# benchmark builds transport-mode-sysfs's patched kernel (one libata file:
# incremental from the kit's kernel), boots the scenario library on it and
# catches the bug with an absolute oracle (a missed expectation the
# unpatched kernel meets).  The control is an entry whose patch adds code
# nothing calls to libata-scsi.c: another kernel image, the same
# behaviour; the same detectors, the library and the differential (the
# deterministic library on both kernels, traces and logs compared, with the
# zoo's own reference kernel, dead code in libata-core.c, telling races
# that any change to the image moves), do not flag it.  The pristine kernel tree is as the package has it afterwards.
. "$(dirname "$0")/lib.sh"
. "$ATALAB_ROOT/tools/lib/commands.sh"
for l in $(atalab_libs); do . "$ATALAB_ROOT/tools/lib/$l.sh"; done
src=$(kernel_src_dir)
[ -f "$src/.atalab-unpacked" ] || fail "no unpacked kernel tree in $src"

# The control: dead code in libata-scsi.c (the reference is libata-core.c's).
control=$WORK/control-dead-code
mkdir -p "$control"
zoo_dead_code_patch drivers/ata/libata-scsi.c '^EXPORT_SYMBOL_GPL\\(ata_scsi_slave_config\\);$' 0 \
	"$control/bug.patch" || fail "the control patch was not made: $(cat "$control/bug.patch")"
cat >"$control/entry.toml" <<'EOF'
# A control: no bug, another kernel image
[entry]
commit = 000000000000
title = no bug
year = 2026
link = https://example.org/none
files = drivers/ata/libata-scsi.c
class = control
kind = revert
EOF

"$ATALAB" zoo --detectors library,differential --out "$WORK/zoo" transport-mode-sysfs "$control" \
	>"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "tools/atalab zoo failed"; }
cat "$WORK/out"
python3 - "$WORK/zoo/results.json" <<'EOF' || fail "results.json does not say what it must"
import json, sys
r = {e["entry"]: e for e in json.load(open(sys.argv[1]))["entries"]}
bug, control = r["transport-mode-sysfs"], r["control-dead-code"]
ok = True
def want(cond, what):
    global ok
    print(("ok: " if cond else "FAIL: ") + what)
    ok &= cond
want(bug["caught"] is True, "transport-mode-sysfs caught")
want(bug["detector"] == "library" and bug["oracle"] == "expectation" and bug["absolute"],
     "by the library, a missed expectation, an absolute oracle (%s, %s)" % (bug["detector"], bug["oracle"]))
want("xfer_mode" in bug["what"] or "pio_mode" in bug["what"] or "dma_mode" in bug["what"],
     "what names a mode file: " + bug["what"])
want(bug["reproducer"].startswith("tools/atalab scenario --kernel-patch "), "a reproducer: " + bug["reproducer"])
want(bug["commit"] == "72aad489f992" and bug["class"] == "sysfs", "the entry's fields")
want(control["caught"] is False, "the control not caught (%s: %s)" % (control["detector"], control["what"]))
want(control["runs"] >= 40, "the control went through both detectors (%d runs)" % control["runs"])
sys.exit(0 if ok else 1)
EOF
grep -qx '1 caught of 2 (1 by an absolute oracle, 0 by the differential), budget 1800s per entry, [0-9]* guests at a time' \
	"$WORK/zoo/summary" || fail "summary: $(cat "$WORK/zoo/summary")"
grep -q '^| transport-mode-sysfs | sysfs | caught | library | expectation |' "$WORK/zoo/table.md" ||
	fail "table: $(cat "$WORK/zoo/table.md")"

# The pristine tree: the files the patches touched are the package's.
for f in drivers/ata/libata-transport.c drivers/ata/libata-scsi.c drivers/ata/libata-core.c; do
	want=$(tar -xJOf "$(kernel_source_tarball)" "linux-source-$ATALAB_KERNEL_SERIES/$f" | sha256sum)
	[ "$(sha256sum <"$src/$f")" = "$want" ] || fail "the pristine $f was modified"
done
echo "ok: the pristine tree's libata-transport.c, libata-scsi.c and libata-core.c are the package's"
