#!/bin/sh
# ppsim sweep and merge: the cross product of values on two workers, one
# CSV for all points, a plot, named sweeps, jobs for elsewhere and their
# merge, and bad input.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
echo "1..11"

"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1024 --set driver.budget=32,64 \
	--case far-drop -j 2 --format csv --out "$tmp/o" >"$tmp/s.csv" 2>"$tmp/out"
check "a 2 x 2 sweep on two workers" test $? -eq 0
check "one CSV: the swept keys first, then run's columns" \
	grep -qx 'nic.rx_ring,driver.budget,case,policy,metric,unit,value,ci95,measured,error_pct,delta_pct' "$tmp/s.csv"
check "every point and policy has its rate" \
	sh -c "test \$(grep -c ',far-drop,v5.[45],rate,Mpps,' '$tmp/s.csv') -eq 8"
check "the same CSV in DIR" cmp "$tmp/s.csv" "$tmp/o/sweep.csv"
if command -v gnuplot >/dev/null 2>&1; then
	check "the rate plotted against the first key" test -s "$tmp/o/sweep.png" -a -s "$tmp/o/sweep.svg"
else
	n=$((n + 1)); echo "ok $n - plot # SKIP gnuplot is not installed"
fi

"$ppsim" sweep "$tiny" ring --format csv >"$tmp/named.csv" 2>"$tmp/out"
check "a named sweep from the scenario" sh -c "test $? -eq 0 && grep -q '^256,far-drop,v5.4,rate,' '$tmp/named.csv' && grep -q '^1024,far-drop,v5.5,rate,' '$tmp/named.csv'"

"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1024 --case far-drop --emit-jobs >"$tmp/jobs" 2>"$tmp/out"
check "--emit-jobs: one command a point" sh -c "test $? -eq 0 && test \$(wc -l <'$tmp/jobs') -eq 2 && grep -q \"set 'nic.rx_ring=1024'\" '$tmp/jobs'"
# the jobs, each of which must succeed (sh -e), and their merge
(cd "$tmp" && sed "s#^ppsim #'$ppsim' #" jobs | sh -e) 2>"$tmp/out"
jobs_rc=$?
"$ppsim" merge "$tmp/sweep-001.csv" "$tmp/sweep-002.csv" >"$tmp/merged.csv" 2>>"$tmp/out"
check "merge joins the jobs' CSVs under one header" sh -c "test $jobs_rc -eq 0 && test $? -eq 0 && test \$(grep -c '^nic.rx_ring,' '$tmp/merged.csv') -eq 1 && grep -q '^256,far-drop' '$tmp/merged.csv' && grep -q '^1024,far-drop' '$tmp/merged.csv'"
"$ppsim" merge "$tmp/sweep-001.csv" "$tmp/s.csv" >/dev/null 2>"$tmp/out"
check "merge refuses CSVs of other sweeps" sh -c "test $? -eq 2 && grep -q 's.csv:3: its columns differ' '$tmp/out'"

"$ppsim" sweep "$tiny" nope >/dev/null 2>"$tmp/out"
check "an unknown named sweep is named" sh -c "test $? -eq 2 && grep -q 'has no \[sweep nope\]; it has: ring' '$tmp/out'"
"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1000 --case far-drop >/dev/null 2>"$tmp/out"
check "a bad value fails before any run" sh -c "test $? -eq 2 && grep -q '^--set:1: rx_ring 1000 is not a power of 2' '$tmp/out'"
