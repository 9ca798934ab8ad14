#!/usr/bin/env bash
# --kernel-patch: a patch that cannot apply to linux-source-6.1 stops every
# command that takes it with exit 2 and FILE:LINE:COLUMN (the hunk's line),
# the patch's Subject and patch(1)'s words, before anything is built; a
# series applies in order.  Zoo entries: entry.toml is checked key by key
# (FILE:LINE:COLUMN), its files against the patch, the patch against the
# tree (tools/atalab zoo --check).  Needs the kit's pristine kernel tree
# (tools/atalab build unpacks it).
. "$(dirname "$0")/lib.sh"
load_atalab
src=$(kernel_src_dir)
[ -f "$src/.atalab-unpacked" ] || { echo "no unpacked kernel tree in $src: run tools/atalab build" >&2; exit 1; }

# patch_of NAME SED: a one-hunk patch to ata_piix.c (a line added after
# the driver's version print), its context edited by SED.
mkdir -p "$WORK/a/drivers/ata" "$WORK/b/drivers/ata"
cp "$src/drivers/ata/ata_piix.c" "$WORK/a/drivers/ata/"
sed 's/^\tata_print_version_once(&pdev->dev, DRV_VERSION);$/&\n\tdev_info(\&pdev->dev, "patched\\n");/' \
	"$src/drivers/ata/ata_piix.c" >"$WORK/b/drivers/ata/ata_piix.c"
(cd "$WORK" && diff -u a/drivers/ata/ata_piix.c b/drivers/ata/ata_piix.c) >"$WORK/body" && bad "the sed made no patch"
patch_of() {
	{ printf 'From: a test\nSubject: [PATCH] ata_piix: say patched\n\nWhy.\n---\n'; sed "$2" "$WORK/body"; } >"$WORK/$1.patch"
}
patch_of good ''
# The hunk's @@ line is line 8 of the file (5 header lines, ---, +++).
grep -n '^@@' "$WORK/good.patch" | grep -q '^8:' || bad "the good patch's hunk is not at line 8"
patch_of stale 's/^ \tata_print_version_once(&pdev->dev, DRV_VERSION);$/ \tata_print_version_once(\&pdev->dev, VERSION);/'
for c in run scenario explore matrix debug test build; do
	args=()
	case "$c" in scenario) args=("$ATALAB_ROOT/tests/scenarios/timeout.scenario") ;; explore) args=("$WORK/ex") ;; esac
	expect 2 "^atalab: $c: $WORK/stale.patch:8:1: hunk #1 of drivers/ata/ata_piix.c does not apply to linux-source-6.1 " -- \
		"$c" --kernel-patch "$WORK/stale.patch" "${args[@]}"
done
expect 2 '^  patch: \[PATCH\] ata_piix: say patched$' -- run --kernel-patch "$WORK/stale.patch"
expect 2 '^    Hunk #1 FAILED at 1652\.$' -- run --kernel-patch "$WORK/stale.patch"
# The second of two: its own name and line.
cp "$WORK/good.patch" "$WORK/twice.patch"
expect 2 "^atalab: run: $WORK/twice.patch:8:1: hunk #1 of drivers/ata/ata_piix.c does not apply" -- \
	run --kernel-patch "$WORK/good.patch" --kernel-patch "$WORK/twice.patch"
patch_of missing 's#drivers/ata/ata_piix.c#drivers/ata/no_such_driver.c#'
expect 2 "^atalab: run: $WORK/missing.patch:8:1: this part does not apply to linux-source-6.1 .*" -- \
	run --kernel-patch "$WORK/missing.patch"
printf 'Subject: words only\n\nno diff here\n' >"$WORK/words.patch"
expect 2 "^atalab: run: $WORK/words.patch:1:1: no unified diff in this file" -- run --kernel-patch "$WORK/words.patch"
{ sed -n '1,5p' "$WORK/good.patch"; printf 'diff --git a/x b/x\n--- a/x\n+++ b/x\nGIT binary patch\nliteral 1\n'; } >"$WORK/binary.patch"
expect 2 "^atalab: run: $WORK/binary.patch:9:1: a binary patch: only text diffs apply" -- run --kernel-patch "$WORK/binary.patch"
sed 's#^+++ b/drivers#+++ b/../drivers#' "$WORK/good.patch" >"$WORK/escape.patch"
expect 2 "^atalab: run: $WORK/escape.patch:7:1: path ../drivers/ata/ata_piix.c leaves the kernel tree" -- \
	run --kernel-patch "$WORK/escape.patch"
expect 2 "^atalab: run: --kernel-patch $WORK/none.patch: no such readable file" -- run --kernel-patch "$WORK/none.patch"
expect 2 "^atalab: run: --kernel boots a kernel of your own" -- \
	run --kernel "$WORK/good.patch" --kernel-patch "$WORK/good.patch"

# A series: the second patch applies only on top of the first.
sed 's/^\tdev_info(&pdev->dev, "patched\\n");$/\tdev_info(\&pdev->dev, "patched twice\\n");/' \
	"$WORK/b/drivers/ata/ata_piix.c" >"$WORK/c"
mkdir -p "$WORK/c2/drivers/ata" && mv "$WORK/c" "$WORK/c2/drivers/ata/ata_piix.c"
(cd "$WORK" && diff -u b/drivers/ata/ata_piix.c c2/drivers/ata/ata_piix.c |
	sed 's#^--- b/#--- a/#; s#^+++ c2/#+++ b/#') >"$WORK/second.patch"
check "a series applies in order (the check)" \
	bash -c ". '$ATALAB_ROOT/tools/lib/commands.sh'; for l in \$(atalab_libs); do . '$ATALAB_ROOT/tools/lib/'\$l.sh; done
		kernel_patches_take '$WORK/good.patch' '$WORK/second.patch'"
expect 2 "^atalab: run: $WORK/second.patch:[0-9]+:1: hunk #1 of drivers/ata/ata_piix.c does not apply" -- \
	run --kernel-patch "$WORK/second.patch" --kernel-patch "$WORK/good.patch"
# The variant's key: the contents in order, not the names.
key_of() {
	local IFS=$'\n'
	ATALAB_KERNEL_PATCHES="$*" bash -c ". '$ATALAB_ROOT/tools/lib/commands.sh'
		for l in \$(atalab_libs); do . '$ATALAB_ROOT/tools/lib/'\$l.sh; done; kernel_patches_key"
}
cp "$WORK/good.patch" "$WORK/renamed.patch"
[ "$(key_of "$WORK/good.patch")" = "$(key_of "$WORK/renamed.patch")" ] && ok "a renamed patch keeps its variant" ||
	bad "a renamed patch makes another variant"
[ "$(key_of "$WORK/good.patch" "$WORK/second.patch")" != "$(key_of "$WORK/second.patch" "$WORK/good.patch")" ] &&
	ok "the order of the patches is part of the key" || bad "two orders, one key"
[ "$(key_of "$WORK/good.patch")" != "$(key_of "$WORK/stale.patch")" ] && ok "other contents, other key" ||
	bad "two patches, one key"
# Nothing of the refused patches was taken or built.
for p in stale missing words binary escape; do
	h=$(sha256sum <"$WORK/$p.patch" | cut -c1-16)
	k=$(key_of "$WORK/$p.patch")
	if [ -e "$ATALAB_CACHE_ROOT/patches/$h" ] || [ -e "$ATALAB_CACHE_ROOT/variants/$k" ] ||
		[ -e "$ATALAB_CACHE_ROOT/coverage/variants/$k" ]; then
		bad "the refused $p.patch was taken or built"
	else
		ok "nothing of the refused $p.patch in the cache"
	fi
done

# Zoo entries.
expect 0 "zoo: [0-9]+ entries checked" -- zoo --check
entry() {   # entry NAME TOML (printf format): an entry with the good patch
	mkdir -p "$WORK/zoo/$1"
	cp "$WORK/good.patch" "$WORK/zoo/$1/bug.patch"
	# shellcheck disable=SC2059
	printf "$2" >"$WORK/zoo/$1/entry.toml"
}
keys='commit = 0123456789ab\ntitle = a title\nyear = 2020\nlink = https://example.org/x\nfiles = drivers/ata/ata_piix.c\nclass = interrupt\nkind = revert\n'
entry fine "# fine\n[entry]\n$keys"
expect 0 "zoo: 1 entries checked: fine" -- zoo --check "$WORK/zoo/fine"
entry commit "[entry]\n${keys/0123456789ab/12ab}"
expect 2 "^atalab: zoo: $WORK/zoo/commit/entry.toml:2:10: commit wants the upstream commit id, 12 to 40 hex digits, got \"12ab\"$" -- \
	zoo --check "$WORK/zoo/commit"
entry kind "[entry]\n${keys/kind = revert/kind = fix}"
expect 2 "^atalab: zoo: $WORK/zoo/kind/entry.toml:8:8: kind wants revert \\(undoes a fix\\) or regression" -- zoo --check "$WORK/zoo/kind"
entry unknown "[entry]\n${keys}trigger = cat /sys/x\n"
expect 2 "^atalab: zoo: $WORK/zoo/unknown/entry.toml:9:1: unknown key \"trigger\"" -- zoo --check "$WORK/zoo/unknown"
entry lacks "\n[entry]\n${keys/year = 2020\\n/}"
expect 2 "^atalab: zoo: $WORK/zoo/lacks/entry.toml:2:1: \\[entry\\] lacks \"year\"" -- zoo --check "$WORK/zoo/lacks"
entry group "[bug]\n$keys"
expect 2 "^atalab: zoo: $WORK/zoo/group/entry.toml:1:1: unknown group \\[bug\\]" -- zoo --check "$WORK/zoo/group"
entry files "[entry]\n${keys/ata_piix.c/libata-core.c}"
expect 2 "^atalab: zoo: $WORK/zoo/files/entry.toml:6:1: files names drivers/ata/libata-core.c; bug.patch touches drivers/ata/ata_piix.c$" -- \
	zoo --check "$WORK/zoo/files"
entry stale "[entry]\n$keys"
cp "$WORK/stale.patch" "$WORK/zoo/stale/bug.patch"
expect 2 "^atalab: zoo: $WORK/zoo/stale/bug.patch:8:1: hunk #1 of drivers/ata/ata_piix.c does not apply" -- \
	zoo --check "$WORK/zoo/stale"
expect 2 "^atalab: zoo: no zoo entry 'no-such-entry'" -- zoo --check no-such-entry
expect 2 "^atalab: zoo: --detectors: unknown detector 'luck'" -- zoo --detectors luck fine
expect 2 "^atalab: zoo: --record keeps a run of every entry" -- zoo --record "$WORK/zoo/fine"
finish
