#!/bin/sh
# The differential test: a kernel tree's own page_pool.c (policy 'kernel',
# ./configure --with-linux) against the project's v6.1 rewrite: the same
# traces and the same short simulations must give identical event streams,
# counters and figures.  Skipped when ppsim was built without a tree.
# Speaks TAP.
ppsim=${PPSIM:-ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! "$ppsim" trace --help | grep -q '^  kernel '; then
	echo "1..0 # SKIP ppsim was configured without --with-linux"
	exit 0
fi
traces=$(ls "$src"/tests/traces/*.trace)
echo "1..$(($(echo "$traces" | wc -l) + 2))"
n=0
for t in $traces; do
	n=$((n + 1))
	"$ppsim" trace --policy v6.1 "$t" >"$tmp/v61" 2>&1
	"$ppsim" trace --policy kernel "$t" >"$tmp/kernel" 2>&1
	if cmp -s "$tmp/v61" "$tmp/kernel"; then
		echo "ok $n - $(basename "$t"): kernel page_pool.c = v6.1"
	else
		echo "not ok $n - $(basename "$t"): kernel page_pool.c differs from v6.1"
		diff -u "$tmp/v61" "$tmp/kernel" | sed 's/^/# /' | head -20
	fi
done
"$ppsim" run "$src/tests/scenarios/kernel.ini" --reps 1 --format csv \
	>"$tmp/run.csv" 2>"$tmp/err"
n=$((n + 1))
[ $? -eq 0 ] && grep -q ',kernel,rate,' "$tmp/run.csv" && echo "ok $n - the simulation runs the kernel's code" ||
	{ echo "not ok $n - the simulation runs the kernel's code"; sed 's/^/# /' "$tmp/err"; }
n=$((n + 1))
sed -n 's/,v6\.1,/,POLICY,/p' "$tmp/run.csv" >"$tmp/a"
sed -n 's/,kernel,/,POLICY,/p' "$tmp/run.csv" >"$tmp/b"
if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
	echo "ok $n - every figure of every case is the same for v6.1 and kernel"
else
	echo "not ok $n - the figures of v6.1 and kernel differ"
	diff "$tmp/a" "$tmp/b" | sed 's/^/# /' | head -20
fi
