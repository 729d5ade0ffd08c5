#!/bin/sh
# valgrind memcheck on a short scenario (every simulation child too) and a
# trace through every policy: no invalid access, no uninitialised value,
# no leak.  Usage: tests/valgrind.sh PPSIM   (CI runs it)
ppsim=${1:-./ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
# this tree's files, whatever a ppsim under valgrind takes itself for
export PPSIM_DATADIR="${PPSIM_DATADIR:-$src}"
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
vg="valgrind -q --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9"
status=0
$vg "$ppsim" run "$src/tests/scenarios/tiny.ini" --case far-drop --reps 1 \
	--duration 1ms >/dev/null 2>"$log" || { status=1; cat "$log"; }
$vg "$ppsim" trace --policy all "$src/tests/traces/update-nid.trace" \
	>/dev/null 2>"$log" || { status=1; cat "$log"; }
[ $status -eq 0 ] && echo "valgrind memcheck: clean (a short scenario, a trace through every policy)"
exit $status
