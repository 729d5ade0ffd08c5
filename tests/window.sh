#!/bin/sh
# A case's precision (ppsim-scenario(5)): the run ends its window once
# the rates are known to it; a run that never gets there, and a
# calibration's fit cases, measure the whole duration.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
seed=$src/scenarios/mlx5-cx4-numa.ini
tiny=$src/tests/scenarios/tiny.ini
one="--case far-drop --policy v5.5 --reps 1"
echo "1..12"

# figures CSV: the figures of a run's CSV, their values and intervals
# (no provenance; error_pct is left empty under a --set)
figures() { grep -v '^#' "$1" | cut -d, -f1-6; }
# rate CSV: its rate
rate() { grep "^$case,v5.4,rate," "$1" | cut -d, -f5; }

# one of V1's: one queue, 26 Mpps, its rate known to 0.1 % in ~15 ms
paper=$src/scenarios/xdp-paper-e5-1650v4.ini
case=read-1024-q1
t "$ppsim" run "$paper" --case $case --reps 1 --format csv --out "$tmp/early" \
	>"$tmp/early.csv" 2>"$tmp/out"
t "$ppsim" run "$paper" --case $case --reps 1 --format csv --set precision=0 \
	--out "$tmp/whole" >"$tmp/whole.csv" 2>>"$tmp/out"
# the samples a run took: one a millisecond until its window ended
samples() { grep -c "^$case," "$1/transient.csv"; }
check "a steady case ends its window early (the shipped 0.1 %)" \
	test "$(samples "$tmp/early")" -lt "$(samples "$tmp/whole")"
check "its rate is the whole window's within 0.1 %" \
	awk -v a="$(rate "$tmp/early.csv")" -v b="$(rate "$tmp/whole.csv")" \
	'BEGIN { d = a / b - 1; exit !(a > 0 && d < 0.001 && d > -0.001) }'
check "the table says the precision: 'duration 50ms,0.1%'" \
	grep -q '^# seed 1  reps 1  duration 50ms,0\.1%$' "$tmp/early.csv"
check "report reads that run back" \
	t "$ppsim" report "$tmp/early/results.csv" "$paper"

# a precision no run reaches: the run measures warmup and duration
t "$ppsim" run "$paper" --case $case --reps 1 --format csv \
	--set precision=0.0001 >"$tmp/never.csv" 2>"$tmp/out"
t "$ppsim" run "$tiny" --reps 1 --format csv >"$tmp/none.csv" 2>>"$tmp/out"
t "$ppsim" run "$tiny" --reps 1 --format csv --set precision=0 \
	>"$tmp/zero.csv" 2>>"$tmp/out"
for f in never whole none zero; do figures "$tmp/$f.csv" >"$tmp/$f.fig"; done
check "a precision never reached: the figures of warmup and duration" \
	cmp "$tmp/never.fig" "$tmp/whole.fig"
check "precision = 0 is no precision, byte for byte" \
	cmp "$tmp/zero.fig" "$tmp/none.fig"

# packets are counted a poll at a time: samples alike (a zero variance:
# the seed's far-drop after the patch counts 5889 packets a millisecond
# for 14 ms on end) are not a rate known to any precision
for p in 0.1 0; do
	t "$ppsim" run "$seed" $one --format csv --set precision=$p \
		2>>"$tmp/out" | figures - >"$tmp/alike$p"
done
check "samples alike resolve nothing finer than a poll's packets" \
	cmp "$tmp/alike0.1" "$tmp/alike0"
# a rate that wanders from sample to sample (V1's four queues of
# 1024-entry rings) is not known: its samples are correlated, its
# window's halves differ
for p in 0.1 0; do
	t "$ppsim" run "$paper" --case read-1024-q4 --reps 1 --format csv \
		--set precision=$p 2>>"$tmp/out" | figures - >"$tmp/wander$p"
done
check "a rate that wanders runs its whole duration" \
	cmp "$tmp/wander0.1" "$tmp/wander0"

# the fit's cases measure warmup and duration whatever the precision
cal="calibrate $seed --reps 1 --duration 5ms --quiet"
# shellcheck disable=SC2086
t "$ppsim" $cal --set precision=0 >"$tmp/cal0" 2>"$tmp/out"
# shellcheck disable=SC2086
t "$ppsim" $cal --set precision=5 >"$tmp/cal5" 2>>"$tmp/out"
check "a calibration fits the same at any precision" \
	sh -c "sed 's/precision=[0-9]*//' '$tmp/cal0' >'$tmp/a'; sed 's/precision=[0-9]*//' '$tmp/cal5' >'$tmp/b'; cmp '$tmp/a' '$tmp/b'"

# and so do --sensitivity's refits of them (a copy of the scenario a move)
sed -e 's/^warmup = 1ms/warmup = 10ms/' \
	-e 's/^duration = 2ms/duration = 30ms\nprecision = 0.1/' \
	"$src/tests/scenarios/sens.ini" >"$tmp/sens.ini"
fitted=$(t "$ppsim" calibrate "$tmp/sens.ini" --reps 1 --quiet 2>>"$tmp/out" |
	 sed -n 's/^rx_pkt = \([0-9.]*\).*/\1/p')
check "--sensitivity's baseline fit is calibrate's ($fitted)" \
	sh -c "t() { timeout 120 \"\$@\"; }; '$ppsim' validate --sensitivity '$tmp/sens.ini' --reps 1 --quiet 2>&1 | grep -F 'refitted cost.rx_pkt (baseline $(printf '%.2f' "$fitted"))'"

# a window off the samples' beat (warmup 20.0001 ms): its first slice
# of 0.1 us joins the next sample, no rate of nothing drawn
t "$ppsim" run "$paper" --case $case --reps 1 --set warmup=20.0001ms \
	--out "$tmp/beat" >/dev/null 2>>"$tmp/out"
check "a window off the samples' beat: no sample of a slice" \
	awk -F, '$1 == "'$case'" { if ($5 + 0 < 1 || $4 == t) bad = 1; t = $4 }
		 END { exit bad }' "$tmp/beat/transient.csv"

printf '[global]\ninclude = %s\nprecision = 51\n[case c]\n' \
	"$src/scenarios/hw/e5-2603v4-2s.ini" >"$tmp/bad.ini"
check "a precision above 50 % is refused at its line, exit 2" \
	fails 2 "bad.ini:3: .*precision" "$ppsim" run "$tmp/bad.ini"
