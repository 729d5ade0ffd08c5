#!/bin/sh
# Calibration and validation: ppsim calibrate fits a free parameter on the
# calibration case only and writes it with its residuals; ppsim validate
# marks each figure in or out of the fit; and the seed scenario, with the
# calibration it ships, stays within the tolerance it declares, every
# before/after change with the measured sign.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
echo "1..9"

cp "$src/tests/scenarios/fit.ini" "$src/tests/scenarios/tiny.ini" "$tmp/"
mkdir -p "$tmp/hw" && cp "$src/scenarios/hw/e5-2603v4-2s.ini" "$tmp/hw/"
sed -i 's#^include = ../../scenarios/hw/#include = hw/#' "$tmp/tiny.ini"
"$ppsim" calibrate "$tmp/fit.ini" --out "$tmp/fit.cal.ini" -j 2 >"$tmp/out" 2>&1
check "calibrate succeeds" test $? -eq 0
check "the fitted value and its standard error are written" \
	grep -Eq '^rx_pkt = [0-9.]+	; standard error [0-9.e-]+; start 100; bounds \[5, 400\]$' "$tmp/fit.cal.ini"
check "residuals only of the fit case" sh -c "grep -c '^;   close-drop ' '$tmp/fit.cal.ini' | grep -qx 2 && ! grep -q '^;   far-drop' '$tmp/fit.cal.ini'"
check "the fit case is matched" awk '/^;   close-drop/ { v = $3 + 0; if (v < -3 || v > 3) bad = 1 } END { exit bad }' "$tmp/fit.cal.ini"

# validate exits 0 when every figure is within the tolerance, 1 when some
# are not (or a simulation failed, which prints no figure), 2 on bad input
"$ppsim" validate "$tmp/fit.ini" --reps 1 >"$tmp/out" 2>&1
check "validate marks in and out of the fit" sh -c "test $? -le 1 && grep -Eq '^close-drop +v5.4 .* in' '$tmp/out' && grep -Eq '^far-drop +v5.5 .* out' '$tmp/out'"
check "validate checks the direction of each change" grep -q 'far-drop     v5.4 -> v5.5: measured up, predicted up' "$tmp/out"

"$ppsim" validate "$src/scenarios/mlx5-cx4-numa.ini" --reps 2 -j 2 >"$tmp/out" 2>&1
rc=$?
check "the seed scenario validates within its tolerance" test $rc -eq 0
check "and says how far out of sample it is" grep -Eq '^# mean absolute error out of the fit: [0-9.]+ % over 4 figures$' "$tmp/out"

# the TCP rows: not yet within a tolerance (see the scenario), but every
# before/after change must have the measured sign
"$ppsim" validate "$src/scenarios/mlx5-cx4-tcp.ini" --reps 1 -j 2 >"$tmp/out" 2>&1
check "the TCP rows change in the measured direction" sh -c "test $? -le 1 &&
	grep -Eq '^# [0-9]+ of 8 figures over the tolerance, 0 direction mismatches\$' '$tmp/out'"
