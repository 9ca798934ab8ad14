#!/usr/bin/env bash
# The style test runs the checkpatch.pl of the kernel tree the kit builds
# (not whichever linux-* tree sorts first in the cache) and checks new,
# untracked files too.  (On a scratch copy of the checkout.)
. "$(dirname "$0")/lib.sh"
real_cache=${ATALAB_CACHE:-$HOME/.cache/atalab}
load_atalab
ver=$(kernel_pkg_version)
root=$WORK/root
mkdir -p "$root/tests/style" "$root/tools/lib" "$root/driver"
cp "$ATALAB_ROOT/tests/style/checkpatch.sh" "$root/tests/style/"
cp "$ATALAB_ROOT"/tools/lib/{common,setup,build-kernel}.sh "$root/tools/lib/"
cp -r "$ATALAB_ROOT"/driver/{*.c,*.h,patches} "$root/driver/"
git -C "$root" init -q
git -C "$root" add -A
git -C "$root" -c user.name=t -c user.email=t@t commit -qm base
cache=$WORK/cache
mkdir -p "$cache/src/linux-0-decoy/scripts"
ln -s "$(realpath "$real_cache/src/linux-$ver")" "$cache/src/linux-$ver"
printf '#!/usr/bin/perl\nprint "ERROR: decoy checkpatch\\n";\n' >"$cache/src/linux-0-decoy/scripts/checkpatch.pl"

style() { ATALAB_ROOT=$root ATALAB_CACHE=$cache bash "$root/tests/style/checkpatch.sh" kernel >"$WORK/out" 2>&1; }
style && ok "clean code passes with the kit's own kernel tree" ||
	bad "the check failed on clean code: $(cat "$WORK/out")"
grep -q "with $cache/src/linux-$ver/scripts/checkpatch.pl" "$WORK/out" &&
	ok "it names the tree it used" || bad "wrong tree: $(cat "$WORK/out")"

printf '// SPDX-License-Identifier: GPL-2.0-only\nint  bad_style( int x ){ return x ;}\n' >"$root/driver/new_file.c"
style && bad "an untracked file with style errors passed" || {
	grep -q 'driver/new_file.c' "$WORK/out" && ok "an untracked new file is checked" ||
		bad "failure does not name the new file: $(cat "$WORK/out")"
}
finish
