#!/bin/sh
# The benchmarks of issue "Performance": figures, not assertions.
#   1. simulated packets per wall-clock second of the seed's cases, and
#      the overhead against a bare page_pool alloc + recycle_direct loop
#      measured in the same binary and run (ppsim bench);
#   2. how the cost grows with simulated time and with the number of rx
#      queues (bench/queues.ini: queues on consecutive CPUs, the last six
#      on the far socket): wall seconds and wall ns per simulated packet;
#   3. the whole seed validation on 2 workers (wall time);
#   4. peak memory (GNU time's maximum resident set, the largest process
#      of the tree: a simulation child).
# Usage: bench/run.sh [PPSIM]   (default ./ppsim, from the build directory)
# BENCH_TIMES overrides the simulated times of part 2 (default
# "0.1s 1s 10s"; the 10 s column takes about six minutes).
ppsim=${1:-./ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
seed=$src/scenarios/mlx5-cx4-numa.ini
times=${BENCH_TIMES:-0.1s 1s 10s}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PPSIM_DATADIR=${PPSIM_DATADIR:-$src}

peak_mib() {	# the "Maximum resident set size" of a GNU time -v log
	awk -F: '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$1"
}

# bench FILE CASE POLICY QUEUES TIME: ppsim bench's CSV line, then the
# peak MiB, in $tmp/line
bench() {
	/usr/bin/time -v "$ppsim" bench "$1" --case "$2" --policy "$3" \
		--queues "$4" --duration "$5" >"$tmp/out" 2>"$tmp/time" ||
		{ cat "$tmp/time" >&2; exit 1; }
	echo "$(tail -1 "$tmp/out"),$(peak_mib "$tmp/time")" >"$tmp/line"
}

echo "# ppsim benchmarks, $(date -u +%Y-%m-%d), $(nproc) cores, $("$ppsim" --version)"
echo
echo "## simulation speed: the seed's cases, 1 s simulated (+20 ms warmup)"
printf '%-10s %-7s %12s %8s %12s %8s %8s %9s %8s %8s %8s %9s\n' case policy \
	packets wall_s Mpkt/wall_s bare_ns sim_ns overhead bare_cpu sim_cpu \
	cpu_ovh peak_MiB
for spec in "close-drop v5.5" "close-drop v5.4" "far-drop v5.4" \
	    "far-drop v5.5" "close-tx v5.5" "far-tx v5.4"; do
	set -- $spec
	bench "$seed" "$1" "$2" 1 1s
	awk -F, '{ printf "%-10s %-7s %12s %8.2f %12.2f %8.2f %8.1f %9.1f %8.2f %8.1f %8.1f %9s\n",
		   $1, $2, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }' "$tmp/line"
done
echo
echo "## cost against simulated time and queues (close-drop, v5.5, bench/queues.ini)"
echo "## wall s (CPU ns per simulated packet); peak MiB of the largest run"
printf '%-7s' queues
for t in $times; do printf ' %20s' "$t"; done
printf ' %9s\n' peak_MiB
for q in 1 2 6 12; do
	printf '%-7s' "$q"
	peak=0
	for t in $times; do
		bench "$src/bench/queues.ini" close-drop v5.5 "$q" "$t"
		awk -F, '{ printf " %11.2f (%5.0f ns)", $6, $12 }' "$tmp/line"
		peak=$(awk -F, -v p="$peak" '{ print ($14 > p ? $14 : p) }' "$tmp/line")
	done
	printf ' %9s\n' "$peak"
done
echo
echo "## the seed validation: $(grep -c '^\[case ' "$seed") cases x 2 policies x 5 replications, 2 workers"
/usr/bin/time -v "$ppsim" validate "$seed" --reps 5 -j 2 >"$tmp/out" 2>"$tmp/time"
printf 'wall %s s, peak %s MiB, exit %s\n' \
	"$(awk -F': ' '/Elapsed/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/time")" \
	"$(peak_mib "$tmp/time")" "$(awk -F': ' '/Exit status/ { print $2 }' "$tmp/time")"
