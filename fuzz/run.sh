#!/bin/sh
# Runs each fuzzer for SECONDS (default 60) from a seed corpus of the
# shipped scenarios and traces, and prints what it reached.  Exits 1 if a
# fuzzer found a crash (its input is kept as fuzz/crash-*: make it a
# regression test).
# Usage: fuzz/run.sh [SECONDS]   (from the build directory, after make fuzz)
secs=${1:-60}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0
mkdir -p "$work/scenario" "$work/trace" "$work/tmp"
cp "$src"/scenarios/*.ini "$src"/tests/scenarios/*.ini "$src"/tests/scenarios/bad/*.ini "$work/scenario/"
cp "$src"/tests/traces/*.trace "$src"/tests/traces/bad/*.trace "$work/trace/"
# includes of the seed corpus resolve from the fuzzer's temporary file
mkdir -p "$work/tmp/hw" && cp "$src"/scenarios/hw/*.ini "$work/tmp/hw/"
cp "$src"/scenarios/*.cal.ini "$work/tmp/" 2>/dev/null
for f in scenario trace; do
	FUZZ_TMPDIR="$work/tmp" ./fuzz/fuzz-$f "$work/$f" -max_total_time="$secs" \
		-max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-close_fd_mask=3 \
		-artifact_prefix=fuzz/crash-$f- >"$work/$f.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$f.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/$f.log" | tail -1)
	ft=$(grep -o 'ft: [0-9]*' "$work/$f.log" | tail -1)
	echo "fuzz-$f: ${secs}s, ${execs:-?} executions, $cov edges, $ft features, exit $rc"
	if [ $rc -ne 0 ]; then
		grep -A30 'ERROR:' "$work/$f.log" | head -40
		status=1
	fi
done
exit $status
