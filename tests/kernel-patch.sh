#!/bin/sh
# A patch to page_pool, before and after, end to end, the way README.md
# tells a kernel developer to try one: a patch to the --with-linux 6.12
# tree's page_pool.c is written here (diff -u), ppsim is configured with
# the tree as 'before' and TREE+PATCH as 'after' and built (in a scratch
# directory, from the release files of this build: make distdir), and the
# two policies run side by side in one trace and one simulation table.
#
# The patch brings back a node check at put (v5.5 had one, against p.nid,
# 44768decb7c0 took it out in v5.6): a page is recycled only if it lives
# on the node of the CPU that puts it.  After the irq moves (far-drop),
# 'before' keeps recycling the NIC node's pages (local% near 0: the v6.12
# era's figures), 'after' lets each go as it comes back and allocates on
# NAPI's node (local% 100).  Skipped without a 6.12 tree.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
build=${PPSIM_BUILDDIR:-.}
make=${MAKE:-make}
tree=
for t in ${PPSIM_LINUX_TREES-}; do
	if grep -qx 'iface=612' "$build/linux/$t/tree.env" 2>/dev/null; then
		tree=$t
		break
	fi
done
if [ -z "$tree" ]; then
	echo "1..0 # SKIP ppsim was configured without a 6.12 tree (--with-linux)"
	exit 0
fi
echo "1..4"

# 1. the patch: a unified diff, as a developer writes one
mkdir -p "$tmp/a/net/core" "$tmp/b/net/core"
cp -L "$build/linux/$tree/net/core/page_pool.c" "$tmp/a/net/core/"
sed 's/^\(\t\t!page_is_pfmemalloc(netmem_to_page(netmem))\));$/\1 \&\&\
\t\tpage_to_nid(netmem_to_page(netmem)) == numa_mem_id());/' \
	"$tmp/a/net/core/page_pool.c" >"$tmp/b/net/core/page_pool.c"
(cd "$tmp" && diff -u a/net/core/page_pool.c b/net/core/page_pool.c) >"$tmp/node-check.patch"
if grep -q '^+.*page_to_nid(netmem_to_page(netmem)) == numa_mem_id());' "$tmp/node-check.patch" &&
   [ "$(grep -c '^[-+][^-+]' "$tmp/node-check.patch")" -eq 3 ]; then
	ok "the patch is made against $tree's page_pool.c (__page_pool_page_can_be_recycled)"
else
	cp "$tmp/node-check.patch" "$tmp/out"
	not_ok "the patch is not made against $tree's page_pool.c"
fi

# 2. one ppsim with the tree and the tree with the patch
# (--with-linux=NAME=TREE+PATCH); trace --help wraps a tree's description
# (its source and sha256) within 80 columns: each policy's joined again
unwrap() {
	awk '/^   / { sub(/^ +/, " "); line = line $0; next }
	     NR > 1 { print line } { line = $0 } END { print line }'
}
if "$make" -C "$build" distdir distdir="$tmp/src" >"$tmp/check" 2>&1 &&
   mkdir "$tmp/bld" && cd "$tmp/bld" &&
   "$tmp/src/configure" --with-linux="before=$build/linux/$tree,after=$build/linux/$tree+$tmp/node-check.patch" \
	>"$tmp/check" 2>&1 &&
   "$make" -j2 ppsim >"$tmp/check" 2>&1 &&
   ./ppsim trace --help >"$tmp/help" 2>&1 && unwrap <"$tmp/help" >"$tmp/out" &&
   grep -q '^  before .*linux 6\.12' "$tmp/out" &&
   grep -q "^  after .*linux 6\.12.* + $tmp/node-check.patch, sha256 $(sha256sum <"$tmp/b/net/core/page_pool.c" | cut -d' ' -f1))" "$tmp/out" &&
   grep -q "^  before .*, sha256 $(sha256sum <"$tmp/a/net/core/page_pool.c" | cut -d' ' -f1))" "$tmp/out"; then
	ok "ppsim built with policies 'before' and 'after', each naming its source and sha256"
else
	tail -20 "$tmp/check" >"$tmp/check.tail" && mv "$tmp/check.tail" "$tmp/check"
	not_ok "ppsim built with policies 'before' and 'after', each naming its source and sha256"
	echo "Bail out! no ppsim to compare the trees with"
	exit 1
fi

# 3. the trace: pages of the old node come back after the irq moved
cat >"$tmp/moved.trace" <<'EOF'
pool nid=0 size=1024
alloc 2		# a bulk of 64 node-0 pages: p1 from=slow, p2 from=cache
cpu 1		# the irq moved: NAPI runs on node 1
nid_changed 1	# the driver notices: p.nid = 1, the cache is flushed
recycle all	# before: refcount 1, not pfmemalloc: cache.
		# after: node 0 is not numa_mem_id(): released.
EOF
./ppsim trace --policy before "$tmp/moved.trace" >"$tmp/before" 2>&1
rc_b=$?
./ppsim trace --policy after "$tmp/moved.trace" >"$tmp/after" 2>&1
rc_a=$?
diff "$tmp/before" "$tmp/after" >"$tmp/out"
if [ $rc_b -eq 0 ] && [ $rc_a -eq 0 ] &&
   [ "$(grep -c '^< recycle p[12] -> cache$' "$tmp/out")" -eq 2 ] &&
   [ "$(grep -c '^> recycle p[12] -> released (released_refcnt)$' "$tmp/out")" -eq 2 ]; then
	ok "trace: before recycles the old node's pages, after lets them go"
	sed 's/^/# /' "$tmp/out"
else
	: >"$tmp/check"
	not_ok "trace: before against after (exit $rc_b and $rc_a)"
fi

# 4. the simulation: one table, both trees, after the irq moved
./ppsim run "$src/tests/scenarios/kernel.ini" --case far-drop \
	--set "policies=before after" --reps 1 >"$tmp/table" 2>"$tmp/check"
rc_t=$?
./ppsim run "$src/tests/scenarios/kernel.ini" --case far-drop \
	--set "policies=before after" --reps 1 --format csv >"$tmp/csv" 2>>"$tmp/check"
rc_c=$?
local_b=$(sed -n 's/^far-drop,before,local_pages,%,\([0-9.]*\),.*/\1/p' "$tmp/csv")
local_a=$(sed -n 's/^far-drop,after,local_pages,%,\([0-9.]*\),.*/\1/p' "$tmp/csv")
rate_b=$(sed -n 's/^far-drop,before,rate,Mpps,\([0-9.]*\),.*/\1/p' "$tmp/csv")
rate_a=$(sed -n 's/^far-drop,after,rate,Mpps,\([0-9.]*\),.*/\1/p' "$tmp/csv")
cp "$tmp/table" "$tmp/out"
if [ $rc_t -eq 0 ] && [ $rc_c -eq 0 ] && [ -n "$local_b" ] && [ -n "$local_a" ] &&
   awk -v b="$local_b" -v a="$local_a" -v rb="$rate_b" -v ra="$rate_a" \
	'BEGIN { exit !(b < 50 && a > 99 && ra > rb) }'; then
	ok "run: far-drop local pages $local_b % -> $local_a %, $rate_b -> $rate_a Mpps"
	sed 's/^/# /' "$tmp/table"
else
	not_ok "run: far-drop before against after (exit $rc_t, $rc_c; local $local_b, $local_a)"
fi
