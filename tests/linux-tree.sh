#!/bin/sh
# --with-linux's bad input: scripts/linux-tree on trees that are not
# kernel trees, too old, of an interface the shim does not know, or
# missing a file; configure on malformed, reserved and duplicate names.
# Each must stop with a message naming the tree and what is wrong.  The
# fake trees are empty files in a kernel's layout (the checks look at
# names and the Makefile's version only).  Speaks TAP.
. "$(dirname "$0")/tap.sh"
build=${PPSIM_BUILDDIR:-.}
make=${MAKE:-make}
script=$src/scripts/linux-tree

# fake DIR VERSION.PATCHLEVEL.SUBLEVEL FILE...: a tree of empty files
fake() {
	dir=$1 v=$2
	shift 2
	mkdir -p "$dir"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' \
		"${v%%.*}" "$(echo "$v" | cut -d. -f2)" "${v##*.}" >"$dir/Makefile"
	for f in "$@"; do
		mkdir -p "$dir/$(dirname "$f")" && : >"$dir/$f"
	done
}
files_612="net/core/page_pool.c net/core/page_pool_priv.h
net/core/netmem_priv.h net/core/mp_dmabuf_devmem.h net/core/dev.h
include/net/page_pool/types.h include/net/page_pool/helpers.h
include/net/page_pool/memory_provider.h include/net/netmem.h
include/linux/ptr_ring.h"

# tree NAME PATH RC PATTERN DESCRIPTION [PATCH]: scripts/linux-tree's
# answer
tree() {
	"$script" "$1" "$2" "$tmp/out.d" ${6:+"$6"} >"$tmp/out" 2>&1
	rc=$?
	: >"$tmp/check"
	if [ $rc -eq "$3" ] && grep -Eq -- "$4" "$tmp/out"; then
		ok "$5"
	else
		not_ok "$5 (exit $rc, wanted $3 and /$4/)"
	fi
}

echo "1..20"
# shellcheck disable=SC2086
fake "$tmp/good" 6.12.3 $files_612
tree k "$tmp/good" 0 '^612 6\.12\.3 [0-9a-f]{64}$' \
	"a 6.12 tree: its interface, version and page_pool.c's sha256"
plain=$(cut -d' ' -f3 "$tmp/out")
if [ -L "$tmp/out.d/net/core/page_pool.c" ] && [ ! -e "$tmp/out.d/net/core/devmem.h" ]; then
	ok "a directory tree is linked, only the files page_pool needs"
else
	ls -lR "$tmp/out.d" >"$tmp/out"
	not_ok "a directory tree is linked, only the files page_pool needs"
fi
# TREE+PATCH: the patch on copies of the files, the tree left as it was
printf -- '--- a/net/core/page_pool.c\n+++ b/net/core/page_pool.c\n@@ -0,0 +1 @@\n+/* patched */\n' \
	>"$tmp/good.patch"
tree k "$tmp/good" 0 '^612 6\.12\.3 [0-9a-f]{64}$' "a patch applies" "$tmp/good.patch"
if [ "$(cut -d' ' -f3 "$tmp/out")" != "$plain" ] && [ ! -L "$tmp/out.d/net/core/page_pool.c" ] &&
   grep -qx '/\* patched \*/' "$tmp/out.d/net/core/page_pool.c" && [ ! -s "$tmp/good/net/core/page_pool.c" ]; then
	ok "... to copies: the sha256 is the patched file's, the tree untouched"
else
	ls -lR "$tmp/out.d" >"$tmp/out"
	not_ok "... to copies: the sha256 is the patched file's, the tree untouched"
fi
sed 's|net/core/page_pool.c|Makefile|' "$tmp/good.patch" >"$tmp/make.patch"
tree k "$tmp/good" 1 "^--with-linux: k=$tmp/good\+$tmp/make.patch: the patch changes b/Makefile; ppsim builds only net/core/page_pool.c, " \
	"a patch to a file ppsim does not build is refused, naming it" "$tmp/make.patch"
printf -- '--- a/net/core/page_pool.c\n+++ b/net/core/page_pool.c\n@@ -1 +1 @@\n-int x;\n+int y;\n' \
	>"$tmp/stale.patch"
tree k "$tmp/good" 1 "^--with-linux: k=$tmp/good\+$tmp/stale.patch: the patch does not apply" \
	"a patch that does not apply is refused" "$tmp/stale.patch"
tree k "$tmp/good" 1 "^--with-linux: k=$tmp/good\+$tmp/none.patch: the patch: no such readable file" \
	"a patch that is not there is refused" "$tmp/none.patch"
mkdir -p "$tmp/none/net"
tree k "$tmp/none" 1 "^--with-linux: k=$tmp/none: not a kernel tree: no top-level Makefile" \
	"a directory that is not a kernel tree"
tree k "$tmp/nowhere" 1 "^--with-linux: k=$tmp/nowhere: no such directory or tarball" \
	"a path that does not exist"
fake "$tmp/old" 5.4.6 net/core/page_pool.c include/net/page_pool.h
tree old "$tmp/old" 1 "^--with-linux: old=$tmp/old: linux 5\.4\.6 is older than 6\.1" \
	"a tree older than 6.1"
fake "$tmp/mid" 6.6.30 net/core/page_pool.c include/net/page_pool/types.h
tree mid "$tmp/mid" 1 "linux 6\.6\.30: ppsim's shim knows the page_pool interfaces of 6\.1 and 6\.12 only" \
	"a tree of an interface the shim does not know"
# shellcheck disable=SC2086
fake "$tmp/part" 6.12.3 $(echo $files_612 | tr ' ' '\n' | grep -v netmem_priv)
tree part "$tmp/part" 1 "^--with-linux: part=$tmp/part: linux 6\.12\.3 tree without net/core/netmem_priv\.h$" \
	"a 6.12 tree without one of its files"
(cd "$tmp/none" && tar -cf "$tmp/none.tar" net)
tree t "$tmp/none.tar" 1 "^--with-linux: t=$tmp/none.tar: not a kernel tree: no top-level Makefile" \
	"a tarball that is not a kernel tree"

# configure's own checks of NAME=PATH, on the release files of this build
# (the source directory may be configured in place: no second build there)
conf() {
	(cd "$tmp/b" && "$tmp/src/configure" --with-linux="$1") >"$tmp/out" 2>&1
	rc=$?
	: >"$tmp/check"
	if [ $rc -ne 0 ] && grep -Eq -- "configure: error: $2" "$tmp/out"; then
		ok "$3"
	else
		tail -5 "$tmp/out" >"$tmp/out.tail" && mv "$tmp/out.tail" "$tmp/out"
		not_ok "$3 (exit $rc, wanted /configure: error: $2/)"
	fi
}
if ! "$make" -C "$build" distdir distdir="$tmp/src" >"$tmp/check" 2>&1; then
	echo "Bail out! make distdir failed"
	cat "$tmp/check" | sed 's/^/# /'
	exit 1
fi
mkdir "$tmp/b"
# a kernel tree of the user's at ./linux of the build directory, named by
# --with-linux: configure once removed linux/ first, the tree with it
# shellcheck disable=SC2086
fake "$tmp/b/linux" 6.12.3 $files_612
conf "mine=$tmp/b/linux" "--with-linux: ./linux exists and configure did not make it" \
	"configure refuses a ./linux it did not make"
if [ -f "$tmp/b/linux/net/core/page_pool.c" ] && [ -f "$tmp/b/linux/Makefile" ]; then
	ok "... and the user's tree at ./linux is left whole"
else
	not_ok "... and the user's tree at ./linux is left whole"
fi
rm -rf "$tmp/b/linux"
conf "a=$tmp/good,a=$tmp/good" "--with-linux: two trees named a" "a NAME given twice"
conf "9x=$tmp/good" "--with-linux: '9x=$tmp/good': NAME must be a lowercase letter" \
	"a malformed NAME"
conf "v6.12=$tmp/good" "--with-linux: 'v6.12=$tmp/good': v6.12 is the name of one of ppsim's own policies" \
	"a NAME that is one of ppsim's eras"
conf "part=$tmp/part" "--with-linux: part=$tmp/part: linux 6\.12\.3 tree without net/core/netmem_priv\.h" \
	"configure says what the tree lacks"
conf "a=" "--with-linux: 'a=': PATH is empty" "an empty PATH"
