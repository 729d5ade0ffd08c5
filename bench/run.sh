#!/bin/sh
# The benchmarks of issue "Performance": figures, not assertions.
#   1. simulated packets per wall-clock second of the seed's XDP_DROP case,
#      and the overhead against a bare page_pool alloc + recycle_direct loop
#      measured in the same binary and run (ppsim bench);
#   2. how the cost grows with simulated time (0.1, 1, 10 s) and with the
#      number of rx queues (1, 2, 6, 12: queues on consecutive CPUs, the
#      last six on the far socket);
#   3. the whole seed validation on 2 workers (wall time);
#   4. peak memory (GNU time's maximum resident set, the largest process
#      of the tree: a simulation child).
# Usage: bench/run.sh [PPSIM]   (default ./ppsim, from the build directory)
ppsim=${1:-./ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
seed=$src/scenarios/mlx5-cx4-numa.ini
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PPSIM_DATADIR=${PPSIM_DATADIR:-$src}

peak_mib() {	# the "Maximum resident set size" of a GNU time -v log
	awk -F: '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$1"
}

echo "# ppsim benchmarks, $(date -u +%Y-%m-%d), $(nproc) cores, $("$ppsim" --version)"
echo
echo "## simulation speed (case close-drop, policy v5.5; far-drop v5.4)"
printf '%-10s %-7s %6s %6s %12s %8s %12s %8s %8s %9s %9s\n' case policy \
	queues sim_s packets wall_s Mpkt/wall_s bare_ns sim_ns overhead peak_MiB
for spec in "seed close-drop v5.5 1 0.1s" "seed close-drop v5.5 1 1s" \
	    "seed close-drop v5.5 1 10s" "seed far-drop v5.4 1 1s" \
	    "queues close-drop v5.5 1 0.1s" "queues close-drop v5.5 2 0.1s" \
	    "queues close-drop v5.5 6 0.1s" "queues close-drop v5.5 12 0.1s"; do
	set -- $spec
	[ "$1" = seed ] && file=$seed || file=$src/bench/queues.ini
	shift
	/usr/bin/time -v "$ppsim" bench "$file" --case "$1" --policy "$2" \
		--queues "$3" --duration "$4" >"$tmp/out" 2>"$tmp/time" ||
		{ cat "$tmp/time"; exit 1; }
	tail -1 "$tmp/out" | awk -F, -v peak="$(peak_mib "$tmp/time")" \
		'{ printf "%-10s %-7s %6s %6s %12s %8.2f %12.2f %8.2f %8.1f %9.1f %9s\n",
		   $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, peak }'
done
echo
echo "## the seed validation: $(grep -c '^\[case ' "$seed") cases x 2 policies x 5 replications, 2 workers"
/usr/bin/time -v "$ppsim" validate "$seed" --reps 5 -j 2 >"$tmp/out" 2>"$tmp/time"
printf 'wall %s s, peak %s MiB, exit %s\n' \
	"$(awk -F': ' '/Elapsed/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/time")" \
	"$(peak_mib "$tmp/time")" "$(awk -F': ' '/Exit status/ { print $2 }' "$tmp/time")"
