#!/bin/sh
# The differential test: a kernel tree's own page_pool.c (policy 'kernel',
# ./configure --with-linux) against the project's v6.1 rewrite: the same
# traces and the same short simulations must give identical event streams,
# counters and figures, and every run must succeed: two runs that fail
# alike are no evidence.  Skipped when ppsim was built without a tree
# (PPSIM_LINUX_VERSION, from configure, is empty).  Speaks TAP.
ppsim=${PPSIM:-ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$ppsim" trace --help >"$tmp/help" 2>&1 || {
	echo "Bail out! ppsim trace --help failed (exit $?)"
	sed 's/^/# /' "$tmp/help"
	exit 1
}
if [ -z "${PPSIM_LINUX_VERSION-}" ] && ! grep -q '^  kernel ' "$tmp/help"; then
	echo "1..0 # SKIP ppsim was configured without --with-linux"
	exit 0
fi
traces=$(ls "$src"/tests/traces/*.trace)
echo "1..$(($(echo "$traces" | wc -l) + 3))"
n=0

# configure had a tree: the program must run that tree's code
n=$((n + 1))
if grep -q "^  kernel  *net/core/page_pool.c of linux ${PPSIM_LINUX_VERSION-}" "$tmp/help"; then
	echo "ok $n - policy 'kernel' is linux ${PPSIM_LINUX_VERSION-}'s page_pool.c"
else
	echo "not ok $n - no policy 'kernel' of linux ${PPSIM_LINUX_VERSION-} in ppsim trace --help"
	sed 's/^/# /' "$tmp/help"
fi

for t in $traces; do
	n=$((n + 1))
	"$ppsim" trace --policy v6.1 "$t" >"$tmp/v61" 2>"$tmp/v61.err"
	rc_v61=$?
	"$ppsim" trace --policy kernel "$t" >"$tmp/kernel" 2>"$tmp/kernel.err"
	rc_kernel=$?
	if [ $rc_v61 -eq 0 ] && [ $rc_kernel -eq 0 ] &&
	   cmp -s "$tmp/v61" "$tmp/kernel"; then
		echo "ok $n - $(basename "$t"): kernel page_pool.c = v6.1"
	else
		echo "not ok $n - $(basename "$t"): kernel page_pool.c against v6.1 (exit $rc_kernel and $rc_v61)"
		cat "$tmp/v61.err" "$tmp/kernel.err" | sed 's/^/# /'
		diff -u "$tmp/v61" "$tmp/kernel" | sed 's/^/# /' | head -20
	fi
done

"$ppsim" run "$src/tests/scenarios/kernel.ini" --reps 1 --format csv \
	>"$tmp/run.csv" 2>"$tmp/err"
rc=$?
n=$((n + 1))
if [ $rc -eq 0 ] && grep -q ',kernel,rate,' "$tmp/run.csv"; then
	echo "ok $n - the simulation runs the kernel's code"
else
	echo "not ok $n - the simulation runs the kernel's code (exit $rc)"
	sed 's/^/# /' "$tmp/err"
fi
n=$((n + 1))
sed -n 's/,v6\.1,/,POLICY,/p' "$tmp/run.csv" >"$tmp/a"
sed -n 's/,kernel,/,POLICY,/p' "$tmp/run.csv" >"$tmp/b"
if [ $rc -eq 0 ] && [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
	echo "ok $n - every figure of every case is the same for v6.1 and kernel"
else
	echo "not ok $n - the figures of v6.1 and kernel differ (exit $rc)"
	diff "$tmp/a" "$tmp/b" | sed 's/^/# /' | head -20
fi
