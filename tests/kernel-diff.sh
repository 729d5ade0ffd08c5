#!/bin/sh
# The differential test: each --with-linux tree's own page_pool.c against
# the project's era of its interface (a 6.1 tree against v6.1, a 6.12 tree
# against v6.12): every trace must give identical event streams and
# counters, and the short simulations of tests/scenarios/kernel.ini the
# same figures; every run must succeed: two runs that fail alike are no
# evidence.  Skipped when ppsim was built without a tree
# (PPSIM_LINUX_TREES, from configure, is empty).  Speaks TAP.
. "$(dirname "$0")/tap.sh"
build=${PPSIM_BUILDDIR:-.}
"$ppsim" trace --help >"$tmp/help" 2>&1 || {
	echo "Bail out! ppsim trace --help failed (exit $?)"
	sed 's/^/# /' "$tmp/help"
	exit 1
}
trees=${PPSIM_LINUX_TREES-}
if [ -z "$(echo $trees)" ]; then
	echo "1..0 # SKIP ppsim was configured without --with-linux"
	exit 0
fi
traces=$(ls "$src"/tests/traces/*.trace)
nr_traces=$(echo "$traces" | wc -l)
echo "1..$(( $(echo $trees | wc -w) * (nr_traces + 3) ))"

for tree in $trees; do
	# index, name, iface, version: what configure found (scripts/linux-tree)
	. "$build/linux/$tree/tree.env"
	case $iface in
	61) era=v6.1 ;;
	612) era=v6.12 ;;
	*) era=unknown ;;
	esac

	# configure had the tree: the program must run that tree's code
	if grep -q "^  $tree  *net/core/page_pool.c of linux $version " "$tmp/help"; then
		ok "policy $tree is linux $version's page_pool.c ($era's interface)"
	else
		: >"$tmp/out"
		cp "$tmp/help" "$tmp/check"
		not_ok "no policy $tree of linux $version in ppsim trace --help"
	fi

	for t in $traces; do
		"$ppsim" trace --policy "$era" "$t" >"$tmp/era" 2>"$tmp/era.err"
		rc_era=$?
		"$ppsim" trace --policy "$tree" "$t" >"$tmp/tree" 2>"$tmp/tree.err"
		rc_tree=$?
		if [ $rc_era -eq 0 ] && [ $rc_tree -eq 0 ] &&
		   cmp -s "$tmp/era" "$tmp/tree"; then
			ok "$(basename "$t"): $tree's page_pool.c = $era"
		else
			cat "$tmp/era.err" "$tmp/tree.err" >"$tmp/check"
			diff -u "$tmp/era" "$tmp/tree" | head -20 >"$tmp/out"
			not_ok "$(basename "$t"): $tree's page_pool.c against $era (exit $rc_tree and $rc_era)"
		fi
	done

	"$ppsim" run "$src/tests/scenarios/kernel.ini" --set "policies=$era $tree" \
		--reps 1 --format csv >"$tmp/run.csv" 2>"$tmp/out"
	rc=$?
	: >"$tmp/check"
	if [ $rc -eq 0 ] && grep -q ",$tree,rate," "$tmp/run.csv"; then
		ok "the simulation runs $tree's code"
	else
		not_ok "the simulation runs $tree's code (exit $rc)"
	fi
	sed -n "s/,$era,/,POLICY,/p" "$tmp/run.csv" >"$tmp/a"
	sed -n "s/,$tree,/,POLICY,/p" "$tmp/run.csv" >"$tmp/b"
	if [ $rc -eq 0 ] && [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
		ok "every figure of every case is the same for $era and $tree"
	else
		diff "$tmp/a" "$tmp/b" | head -20 >"$tmp/out"
		not_ok "the figures of $era and $tree differ (exit $rc)"
	fi
done
