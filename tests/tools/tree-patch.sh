#!/usr/bin/env bash
# Editing qemu-device/qemu/tree.patch re-applies it incrementally: the QEMU
# tree and build directory stay, only files whose patched content changed
# are rewritten (so ninja rebuilds only those), files the patch no longer
# touches go back to pristine, files it no longer creates go away.  A patch
# that does not apply fails naming tree.patch; a new QEMU source version
# makes a fresh tree.  (On a small stand-in for the QEMU source.)
. "$(dirname "$0")/lib.sh"
load_atalab
export ATALAB_CACHE=$WORK/cache
ATALAB_ROOT=$WORK/root
src=$ATALAB_CACHE/src/qemu
mkdir -p "$src/hw" "$ATALAB_ROOT/qemu-device/qemu"
echo 7.2.0 >"$src/VERSION"
printf 'one\ntwo\nthree\n' >"$src/hw/a.c"
printf 'alpha\nbeta\n' >"$src/hw/b.c"
printf 'untouched\n' >"$src/c.c"
patch=$ATALAB_ROOT/qemu-device/qemu/tree.patch

# make_patch: tree.patch from the edits a shell snippet makes to a copy.
make_patch() {
	rm -rf "$WORK/a" "$WORK/b"
	cp -r "$src" "$WORK/a"
	cp -r "$src" "$WORK/b"
	(cd "$WORK/b" && eval "$1")
	(cd "$WORK" && diff -ruN a b) >"$patch"
}
tree=$(qemu_tree_dir)
mtime() { stat -c %Y "$1"; }

make_patch 'sed -i s/two/TWO/ hw/a.c; sed -i s/beta/BETA/ hw/b.c'
qemu_prepare_tree >/dev/null 2>&1
grep -qx TWO "$tree/hw/a.c" && grep -qx BETA "$tree/hw/b.c" && ok "first patch applied" || bad "first patch not applied"
mkdir -p "$(qemu_build_dir)"
touch "$(qemu_build_dir)/object.o"
touch -d '2001-01-01' "$tree/hw/a.c" "$tree/hw/b.c" "$tree/c.c"
a0=$(mtime "$tree/hw/a.c"); c0=$(mtime "$tree/c.c")

make_patch 'sed -i s/two/TWO/ hw/a.c; sed -i s/beta/Beta/ hw/b.c; echo new >hw/d.c'
out=$(qemu_prepare_tree 2>&1)
[ -f "$(qemu_build_dir)/object.o" ] && ok "the build directory survives a patch edit" ||
	bad "a patch edit threw the build directory away ($out)"
grep -qx Beta "$tree/hw/b.c" && ok "a changed hunk is re-applied" || bad "b.c: $(cat "$tree/hw/b.c")"
[ "$(mtime "$tree/hw/a.c")" = "$a0" ] && ok "a file whose patched content is the same is not rewritten" ||
	bad "a.c was rewritten"
[ "$(mtime "$tree/c.c")" = "$c0" ] && ok "a file outside the patch is not touched" || bad "c.c was touched"
[ "$(cat "$tree/hw/d.c" 2>/dev/null)" = new ] && ok "a created file appears" || bad "d.c missing"

make_patch 'sed -i s/two/TWO/ hw/a.c'
qemu_prepare_tree >/dev/null 2>&1
cmp -s "$tree/hw/b.c" "$src/hw/b.c" && ok "a file the patch no longer touches is pristine again" ||
	bad "b.c is $(cat "$tree/hw/b.c")"
[ ! -e "$tree/hw/d.c" ] && ok "a file the patch no longer creates is removed" || bad "d.c is still there"
[ -f "$(qemu_build_dir)/object.o" ] && ok "still no rebuild from scratch" || bad "the build directory went away"

sed -i 's/^-two$/-not-there/' "$patch"
msg=$( (qemu_prepare_tree) 2>&1) && bad "a patch that does not apply was accepted" ||
	{ echo "$msg" | grep -q 'qemu-device/qemu/tree.patch does not apply to QEMU 7.2.0' &&
		ok "a patch that does not apply fails naming it" || bad "unclear failure: $msg"; }

make_patch 'sed -i s/two/TWO/ hw/a.c'
echo 7.2.1 >"$src/VERSION"
qemu_prepare_tree >/dev/null 2>&1
[ ! -e "$(qemu_build_dir)/object.o" ] && grep -qx TWO "$tree/hw/a.c" &&
	ok "a new source version makes a fresh tree" || bad "no fresh tree for a new source version"
finish
