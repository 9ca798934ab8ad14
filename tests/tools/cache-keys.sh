#!/usr/bin/env bash
# Cache keys cover everything that shapes an output: contents, file names
# and modes, the build recipes themselves and the package list; inputs with
# spaces are handled; editor swap and backup files do not count.
. "$(dirname "$0")/lib.sh"
load_atalab
export ATALAB_CACHE=$WORK/cache

src="$WORK/in put"
mkdir -p "$src/sub dir"
echo a >"$src/a.c"
echo b >"$src/sub dir/b file.h"
k0=$(hash_inputs "$src" "$src/a.c")
differs() {     # differs WHAT: the key changed from k0; then restore k0
	local k
	k=$(hash_inputs "$src" "$src/a.c")
	if [ "$k" != "$k0" ]; then ok "$1 changes the key"; else bad "$1 does not change the key"; fi
}
same() {
	local k
	k=$(hash_inputs "$src" "$src/a.c")
	if [ "$k" = "$k0" ]; then ok "$1 leaves the key"; else bad "$1 changes the key"; fi
}
same "hashing again"
echo a2 >"$src/a.c"; differs "a content edit"; echo a >"$src/a.c"
chmod +x "$src/a.c"; differs "a mode change"; chmod -x "$src/a.c"
chmod +x "$src/sub dir/b file.h"; differs "a mode change inside a folder"; chmod -x "$src/sub dir/b file.h"
mv "$src/sub dir/b file.h" "$src/sub dir/c file.h"; differs "a rename"
mv "$src/sub dir/c file.h" "$src/sub dir/b file.h"
touch "$src/new.c"; differs "a new file"; rm "$src/new.c"
for swap in ".a.c.swp" ".a.c.swo" "a.c~" "#a.c#" "4913"; do
	echo junk >"$src/$swap"
	same "an editor file '$swap'"
	rm -f "$src/$swap"
done
ln -s /nonexistent "$src/.#a.c"; same "an emacs lock link"; rm "$src/.#a.c"
ln -s a.c "$src/link.c"; differs "a symlinked source"; rm "$src/link.c"
same "restoring everything"

# The recipes and the toolchain are part of the build keys: each key
# covers its own recipe (edited alone, so that a key which only inherits
# another's -- the driver's the kernel's -- is caught).
declare -A recipe_of=([qemu_key]=build_qemu [kernel_key]=build_kernel
	[driver_key]=build_driver [host_tools_key]=build_host_tools
	[guest_tools_key]=build_guest_tools [initramfs_key]=build_initramfs)
for key in qemu_key kernel_key driver_key host_tools_key guest_tools_key initramfs_key; do
	k1=$($key)
	f=${recipe_of[$key]}
	# The same recipe, edited: now a wrapper around the original.
	eval "$(declare -f "$f" | sed "1s/^$f ()/${f}_orig ()/")"
	eval "$f() { ${f}_orig \"\$@\"; }"
	k2=$($key)
	if [ "$k1" != "$k2" ]; then ok "$key covers its recipe"; else bad "$key ignores a recipe change"; fi
	load_atalab
	export ATALAB_CACHE=$WORK/cache
	k3=$($key)
	saved=("${ATALAB_PACKAGES[@]}")
	ATALAB_PACKAGES+=(some-new-package)
	k4=$($key)
	ATALAB_PACKAGES=("${saved[@]}")
	if [ "$k3" != "$k4" ]; then ok "$key covers the package list"; else bad "$key ignores the package list"; fi
	ATALAB_TEST_PACKAGES+=(some-test-tool)
	k5=$($key)
	ATALAB_TEST_PACKAGES=("${ATALAB_TEST_PACKAGES[@]:0:${#ATALAB_TEST_PACKAGES[@]}-1}")
	if [ "$k3" = "$k5" ]; then ok "$key ignores test-only packages"; else bad "$key changes with a test-only package"; fi
done

# Dependent keys follow their inputs: a kernel change reaches the driver
# and the initramfs.
kd=$(driver_key); ki=$(initramfs_key)
kernel_key() { echo changed; }
[ "$(driver_key)" != "$kd" ] && ok "driver_key follows kernel_key" || bad "driver_key ignores kernel_key"
[ "$(initramfs_key)" != "$ki" ] && ok "initramfs_key follows kernel_key" || bad "initramfs_key ignores kernel_key"
load_atalab
export ATALAB_CACHE=$WORK/cache

# A checkout path with spaces works for the initramfs inputs (quoted).
root="$WORK/check out"
mkdir -p "$root/tools" "$root/tests/guest"
cp -r "$ATALAB_ROOT/tools/guest" "$root/tools/guest"
cp -r "$ATALAB_ROOT/tests/guest/guest" "$root/tests/guest/guest"
k1=$(ATALAB_ROOT=$root initramfs_key)
echo "# edit" >>"$root/tools/guest/probe"
k2=$(ATALAB_ROOT=$root initramfs_key)
[ "$k1" != "$k2" ] && ok "initramfs_key sees a guest file edit under a path with spaces" ||
	bad "initramfs_key misses an edit under a path with spaces"
finish
