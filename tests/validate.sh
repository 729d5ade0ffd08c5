#!/bin/sh
# Calibration and validation: ppsim calibrate fits a free parameter on the
# calibration case only and writes it with its residuals; ppsim validate
# marks each figure in or out of the fit; and the seed scenario, with the
# calibration it ships, stays within the tolerance it declares, every
# before/after change with the measured sign.  Several scenarios validate
# in one run as they do one by one, a direction against the measurement is
# caught, and --sensitivity moves each prior and refits.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
echo "1..76"

cp "$src/tests/scenarios/fit.ini" "$src/tests/scenarios/tiny.ini" "$tmp/"
mkdir -p "$tmp/hw" && cp "$src/scenarios/hw/e5-2603v4-2s.ini" "$tmp/hw/"
sed -i 's#^include = ../../scenarios/hw/#include = hw/#' "$tmp/tiny.ini"
# tiny runs uncalibrated (cost.rx_pkt's prior): held to 15 %, it misses
printf '\n[calibrate]\ntolerance = 15\n' >>"$tmp/tiny.ini"
"$ppsim" calibrate "$tmp/fit.ini" --out "$tmp/fit.cal.ini" -j 2 >"$tmp/out" 2>>"$tmp/err"
check "calibrate succeeds" test $? -eq 0
check "the fitted value and its standard error are written" \
	grep -Eq '^rx_pkt = [0-9.]+	; standard error [0-9.e-]+; start 100; bounds \[5, 400\]$' "$tmp/fit.cal.ini"
check "residuals only of the fit case" sh -c "grep -c '^;   close-drop ' '$tmp/fit.cal.ini' | grep -qx 2 && ! grep -q '^;   far-drop' '$tmp/fit.cal.ini'"
check "the fit case is matched" awk '/^;   close-drop/ { v = $3 + 0; if (v < -3 || v > 3) bad = 1 } END { exit bad }' "$tmp/fit.cal.ini"
check "what the fit predicted, under [fitted]: a line a fit case, every policy" sh -c "
	grep -qx '\[fitted\]' '$tmp/fit.cal.ini' &&
	grep -Eq '^close-drop = v5.4:[0-9.]{6,} v5.5:[0-9.]{6,}\$' '$tmp/fit.cal.ini' &&
	! grep -q '^far-drop =' '$tmp/fit.cal.ini'"

# validate exits 0 when every figure is within the tolerance, 1 when some
# are not (or a simulation failed, which prints no figure), 2 on bad input
"$ppsim" validate "$tmp/fit.ini" --reps 1 >"$tmp/out" 2>>"$tmp/err"
check "validate marks in and out of the fit" sh -c "test $? -le 1 && grep -Eq '^close-drop +v5.4 .* in' '$tmp/out' && grep -Eq '^far-drop +v5.5 .* out' '$tmp/out'"
check "validate checks the direction and size of each change" grep -Eq '^#   far-drop +v5.4 -> v5.5: \+31.8 % measured, \+[0-9.]+ % predicted, [-+][0-9.]+ points: both up(  OVER)?$' "$tmp/out"
check "with one replication the ci95 column says '-', as run's does" \
	grep -Eq '^close-drop +v5.4 +[0-9.]+ +[0-9.]+ Mpps +- ' "$tmp/out"
check "a fit case with no [fitted] record is said, not checked" \
	grep -Eq '^#   close-drop +v5.4 +no \[fitted\] record of it: not checked' "$tmp/out"

# ---- a stale calibration: the model no longer predicts what its fit did ----
mkdir -p "$tmp/st/hw"
cp "$tmp/fit.ini" "$tmp/tiny.ini" "$tmp/fit.cal.ini" "$tmp/st/"
cp "$tmp/hw/e5-2603v4-2s.ini" "$tmp/st/hw/"
printf '[global]\ninclude = fit.ini\ninclude = fit.cal.ini\n' >"$tmp/st/cal.ini"
# the fit's replications and seed: the very figures it predicted
"$ppsim" validate "$tmp/st/cal.ini" --case close-drop >"$tmp/out" 2>"$tmp/st/err"
rc=$?
check "a calibration as it was fitted: its figures within 1 %, no warning" sh -c "
	test $rc -eq 0 && ! grep -q stale '$tmp/st/err' &&
	grep -qx '#   2 figures within 1 % of what the fit predicted ($tmp/st/fit.cal.ini)' '$tmp/out' &&
	grep -q ', 0 stale fitted\$' '$tmp/out'"
# the profile changed after the fit: 3 x the poll's cycles, over its
# cost table's (hw/cost-broadwell.ini, found in the data directory)
sed -i 's/^include = cost-broadwell.ini.*/&\npoll = 900/' "$tmp/st/hw/e5-2603v4-2s.ini"
"$ppsim" validate "$tmp/st/cal.ini" --case close-drop >"$tmp/out" 2>"$tmp/st/err"
rc=$?
check "a profile changed since the fit: each fitted figure STALE, at its record's line" sh -c "
	test $rc -eq 1 &&
	test \$(grep -Ec '^#   close-drop +v5.[45] +[0-9.]+ Mpps now, [0-9.]+ when fitted \($tmp/st/fit.cal.ini:[0-9]+\): -[0-9.]+ %  STALE\$' '$tmp/out') -eq 2 &&
	grep -q ', 2 stale fitted\$' '$tmp/out'"
check "and says so on stderr, in every format" sh -c "
	grep -q '^$tmp/st/cal.ini: warning: .*stale calibration' '$tmp/st/err' &&
	'$ppsim' validate '$tmp/st/cal.ini' --case close-drop --format csv 2>&1 >/dev/null |
		grep -q 'stale calibration'"
check "one stale figure is one (is, not are)" sh -c "
	'$ppsim' validate '$tmp/st/cal.ini' --case close-drop --policy v5.4 2>&1 >/dev/null |
		grep -q ': 1 of the figures it was fitted on is now predicted'"
check "--format csv: the fit's prediction and 1 in the stale column" sh -c "
	'$ppsim' validate '$tmp/st/cal.ini' --case close-drop --format csv 2>/dev/null |
		grep -Eq '^$tmp/st/cal.ini,close-drop,v5.4,.*,in,60,0,cpu,[0-9.]+,1,figure,,,,,,,,\$'"
# a [fitted] figure of a policy its case measures nothing under: no fit
# predicted it, and validate would never compare it
mkdir -p "$tmp/fpol"
cp -r "$tmp/st/." "$tmp/fpol/"
sed -i '/^\[fitted\]/,$ s/^\(close-drop = .*\)v5\.5:/\1v6.1:/' "$tmp/fpol/fit.cal.ini"
# the scenario the calibration is of, which includes it
sed -i 's/^include = tiny.ini$/&\ninclude = fit.cal.ini/' "$tmp/fpol/fit.ini"
line=$(line_of '^close-drop = ' "$tmp/fpol/fit.cal.ini")
check "a [fitted] figure of a policy the case does not measure: refused at its line" \
	fails 2 "^$tmp/fpol/fit.cal.ini:$line: \[fitted\] close-drop: v6.1: the case measures no figure" \
	"$ppsim" run "$tmp/fpol/fit.ini" --case close-drop --reps 1 --duration 1ms

# a shorter run, or a --set, is no stale calibration: not checked
"$ppsim" validate "$tmp/st/cal.ini" --case close-drop --duration 1ms >"$tmp/out" 2>"$tmp/st/err"
rc=$?
check "the command line's overrides (--duration): not checked, said" sh -c "
	test $rc -eq 0 && ! grep -q stale '$tmp/st/err' &&
	grep -qx '#   not checked: the command line.s overrides (--set, --duration) change what the fit ran' '$tmp/out'"
# a scenario that fits nothing, its calibration another's: not checked
printf '[global]\ninclude = tiny.ini\ninclude = fit.cal.ini\n[calibrate]\ncases = close-drop\n' >"$tmp/st/borrow.ini"
"$ppsim" validate "$tmp/st/borrow.ini" --case close-drop >"$tmp/out" 2>"$tmp/st/err"
check "a borrowed calibration (no [calibrate] free): not checked, said" sh -c "
	! grep -q stale '$tmp/st/err' && grep -q '^#   not checked: the scenario fits nothing' '$tmp/out'"
# a refit makes it current again
"$ppsim" calibrate "$tmp/st/fit.ini" --out "$tmp/st/fit.cal.ini" -j 2 >/dev/null 2>>"$tmp/err"
"$ppsim" validate "$tmp/st/cal.ini" --case close-drop >"$tmp/out" 2>"$tmp/st/err"
rc=$?
check "refitted, the calibration is current again" sh -c "
	test $rc -eq 0 && grep -q ', 0 stale fitted\$' '$tmp/out'"

"$ppsim" validate "$src/scenarios/mlx5-cx4-numa.ini" --reps 2 -j 2 >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "the seed scenario's figures are within its tolerance" \
	grep -q '^# 0 of 8 figures over the tolerance, ' "$tmp/out"
check "and says how far out of sample it is" grep -Eq '^# out of the fit, .*mlx5-cx4-numa.ini: mean \|error\| [0-9.]+ %, max \|error\| [0-9.]+ % over 4 figures$' "$tmp/out"

# the TCP rows: not yet within a tolerance (see the scenario), but every
# before/after change must have the measured sign
"$ppsim" validate "$src/scenarios/mlx5-cx4-tcp.ini" --reps 1 -j 2 >"$tmp/out" 2>>"$tmp/err"
check "the TCP rows change in the measured direction" sh -c "test $? -le 1 &&
	grep -Eq '^# [0-9]+ of 8 figures over the tolerance, [0-9]+ of [0-9]+ changes over the effect tolerance, [0-9]+ direction mismatches \(0 before/after, [0-9]+ trends\), 0 stale fitted\$' '$tmp/out'"

# ---- a glob of a scenarios/ folder: its calibrations and profiles too ----
"$ppsim" validate "$tmp/fit.cal.ini" "$tmp/hw/e5-2603v4-2s.ini" "$tmp/fit.ini" --reps 1 >"$tmp/out" 2>"$tmp/glob.err"
rc=$?
check "a calibration and a profile among the files: passed over, said, the scenario validated" sh -c "
	test $rc -le 1 &&
	grep -qx '$tmp/fit.cal.ini: passed over: no \[case NAME\] section (a profile or a calibration, not a scenario)' '$tmp/glob.err' &&
	grep -q '^$tmp/hw/e5-2603v4-2s.ini: passed over: ' '$tmp/glob.err' &&
	grep -q '1 file\$' '$tmp/out' && grep -q '^# $tmp/fit.ini  tolerance 60 %\$' '$tmp/out'"
printf '[global]\ninclude = hw/e5-2603v4-2s.ini\n[case nothing]\n' >"$tmp/nomeas.ini"
"$ppsim" validate "$tmp/fit.cal.ini" "$tmp/nomeas.ini" >"$tmp/out" 2>&1
rc=$?
check "nothing left to validate: exit 2, each file said" sh -c "
	test $rc -eq 2 && grep -q '^$tmp/nomeas.ini: passed over: no case has a measured figure\$' '$tmp/out' &&
	grep -qx 'ppsim validate: no scenario among the files has a measured figure: nothing to validate' '$tmp/out'"
printf '[global]\ninclude = tiny.ini\n[cpu]\ncores = many\n' >"$tmp/badpart.ini"
"$ppsim" validate "$tmp/badpart.ini" "$tmp/fit.ini" >"$tmp/out" 2>&1
rc=$?
check "a broken file with no case is still an error at its line, exit 2" sh -c "
	test $rc -eq 2 && grep -q '^$tmp/badpart.ini:4: cores: ' '$tmp/out'"

# ---- several files in one run: the same figures as one by one ----
"$ppsim" validate "$tmp/tiny.ini" --reps 1 >"$tmp/tiny.out" 2>>"$tmp/err"
"$ppsim" validate "$tmp/fit.ini" --reps 1 >"$tmp/fit.out" 2>>"$tmp/err"
"$ppsim" validate "$tmp/tiny.ini" "$tmp/fit.ini" --reps 1 -j 2 >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "two files: tiny's figures over its tolerance exit 1" test $rc -eq 1
# the figure rows (not #), grouped under each file's line, as one by one
rows() { grep -v '^#' "$1" | tail -n +2; }
# each under its file's line and its machine's title, as one by one
title() { grep '^# machine: ' "$1"; }
{ echo "# $tmp/tiny.ini  tolerance 15 %"; title "$tmp/tiny.out"; rows "$tmp/tiny.out"
  echo "# $tmp/fit.ini  tolerance 60 %"; title "$tmp/fit.out"; rows "$tmp/fit.out"; } >"$tmp/want"
sed -n '4,/^#$/p' "$tmp/out" | sed '$d' >"$tmp/got"
check "two files: every figure, grouped per file, as one by one" \
	sh -c "test \$(wc -l <'$tmp/got') -eq 12 && diff '$tmp/want' '$tmp/got'"
check "two files: each file's out-of-fit line as one by one" sh -c "
	grep -h '^# out of the fit, $tmp/' '$tmp/tiny.out' '$tmp/fit.out' >'$tmp/want' &&
	grep '^# out of the fit, $tmp/' '$tmp/out' | diff '$tmp/want' -"
# the overall line from the single runs' out-of-fit rows: the same count
# and largest error, the mean within the rounding of the rows
awk '!/^#/ && $8 == "out" {
	e = $7 < 0 ? -$7 : $7; s += e; n++; if (e > m) m = e }
	END { printf "%d %.1f %.2f\n", n, m, s / n }' \
	"$tmp/tiny.out" "$tmp/fit.out" >"$tmp/want"
check "two files: the overall line is the single runs' figures together" sh -c "
	grep -E '^# out of the fit, overall: mean \|error\| [0-9.]+ %, max \|error\| [0-9.]+ % over [0-9]+ figures\$' '$tmp/out' |
	awk -v want=\"\$(cat '$tmp/want')\" '{ split(want, w, \" \")
		mean = \$9 + 0; max = \$13 + 0; n = \$16 + 0
		d = mean - w[3]; if (d < 0) d = -d
		exit !(n == w[1] && max == w[2] && d <= 0.1001) }'"
check "the table's limit: what saturated, each row (the tiny cases: cpu)" \
	awk '/^case / { ok = $9 == "limit" } !/^#/ && !/^case / && NF >= 9 { n++; if ($9 != "cpu") bad = 1 }
	     END { exit !ok || bad || n != 4 }' "$tmp/tiny.out"
check "two files: the overall line says 6 figures" grep -q '^# out of the fit, overall: .* over 6 figures$' "$tmp/out"

"$ppsim" validate "$tmp/tiny.ini" "$tmp/fit.ini" --reps 1 -j 2 --format csv >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--format csv: the provenance, a header and one line a figure, the same status" sh -c "
	test $rc -eq 1 &&
	head -1 '$tmp/out' | grep -q '^# ppsim .* (git [^)]*) validate  2 files\$' &&
	sed -n 2p '$tmp/out' | grep -qx '# seed 1  reps 1  duration 4ms' &&
	sed -n 3p '$tmp/out' | grep -qx '# $tmp/tiny.ini  machine: Dell R730, 2x Xeon E5-2603 v4, ConnectX-4 100G' &&
	sed -n 4p '$tmp/out' | grep -qx '# $tmp/fit.ini  machine: Dell R730, 2x Xeon E5-2603 v4, ConnectX-4 100G' &&
	sed -n 5p '$tmp/out' | grep -qx 'file,case,policy,measured,predicted,unit,ci95,error_pct,fit,tolerance,over,saturated,fitted,stale,kind,from_case,from_policy,keys,measured_change_pct,predicted_change_pct,change_error_pts,effect_tolerance,mismatch' &&
	test \$(grep -c '^$tmp/tiny.ini,.*,figure,' '$tmp/out') -eq 4 &&
	test \$(grep -c '^$tmp/fit.ini,close-drop,v5.4,11,[0-9.]*,Mpps,,[-0-9.]*,in,60,0,cpu,,,figure,,,,,,,,\$' '$tmp/out') -eq 1 &&
	test \$(grep -c ',figure,' '$tmp/out') -eq 8 &&
	grep -Eq '^$tmp/fit.ini,far-drop,v5.5,,,Mpps,,,,,[01],,,,before_after,far-drop,v5.4,,31.8182,[-0-9.e]+,[-0-9.e]+,5,0\$' '$tmp/out'"

# ---- --format json: every file's figures and changes ----
"$ppsim" validate "$tmp/tiny.ini" "$tmp/fit.ini" --reps 1 -j 2 --format json >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--format json: an object, each file's figures and changes, the same status" sh -c "
	test $rc -eq 1 && head -1 '$tmp/out' | grep -q '^{\"ppsim\": .*\"command\": \"validate\"' &&
	tail -1 '$tmp/out' | grep -Eqx '], \"out_of_fit\": \{\"figures\": 6, .*\"changes_error\": \{\"changes\": [0-9]+, .*\}\}' &&
	test \$(grep -c '^  {\"file\": ' '$tmp/out') -eq 2 &&
	test \$(grep -c '^    {\"case\": ' '$tmp/out') -eq 8 &&
	grep -Eq '^    \{\"kind\": \"before_after\", \"from_case\": \"far-drop\", \"from_policy\": \"v5.4\", \"case\": \"far-drop\", \"policy\": \"v5.5\", \"keys\": \"\", \"measured_change_pct\": 31.8182, \"predicted_change_pct\": [0-9.e-]+, \"change_error_pts\": [-0-9.e]+, \"over\": (true|false), \"mismatch\": false\},?\$' '$tmp/out'"
check "--sensitivity --format json: refused, exit 2" sh -c "
	'$ppsim' validate --sensitivity '$tmp/fit.ini' --format json 2>&1 >/dev/null | grep -q 'not JSON'
	test \$? -eq 0"

# ---- directions: measured figures made up to go against the model ----
"$ppsim" validate "$src/tests/scenarios/opposite.ini" --reps 1 >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "a trend against the measured direction is a mismatch" grep -Eq \
	'^#   q1 +-> q2 +v5.5 +queues 1 -> 2: -20.0 % measured, \+[0-9.]+ % predicted, \+[0-9.]+ points: measured down, predicted up  MISMATCH  OVER$' "$tmp/out"
check "a trend along the measured direction is not; only consecutive cases" sh -c "
	grep -Eq '^#   q2 +-> q3 +v5.5 +queues 2 -> 3: \+162.5 % measured, \+[0-9.]+ % predicted, [-+][0-9.]+ points: both up(  OVER)?\$' '$tmp/out' &&
	! grep -Eq '^#   q1 +-> q3 ' '$tmp/out'"
# q2 not measured: q1 -> q3 is the trend, passed over no measured case
sed -e "s|^include = \.\./\.\./|include = $src/|" -e '/^measured = v5.5:8$/d' \
	"$src/tests/scenarios/opposite.ini" >"$tmp/opp-gap.ini"
"$ppsim" validate "$tmp/opp-gap.ini" --reps 1 >"$tmp/gap.out" 2>>"$tmp/err"
check "a case not measured between two is passed over: q1 -> q3 is checked" grep -Eq \
	'^#   q1 +-> q3 +v5.5 +queues 1 -> 3: \+110.0 % measured, \+[0-9.]+ % predicted, [-+][0-9.]+ points: both up(  OVER)?$' "$tmp/gap.out"
# two cases that differ in duration only: one run measured longer, no trend
printf '[global]\ninclude = %s\n[case d2]\nworkload = xdp_drop\nduration = 2ms\nmeasured = v5.4:9\n[case d4]\nworkload = xdp_drop\nduration = 4ms\nmeasured = v5.4:9\n' \
	"$src/tests/scenarios/tiny.ini" >"$tmp/dd.ini"
"$ppsim" validate "$tmp/dd.ini" --case d2 --case d4 --policy v5.4 --reps 1 >"$tmp/dd.out" 2>>"$tmp/err"
check "cases that differ in duration only are no trend" sh -c "
	grep -q '^#   none: no two cases with measured figures differ in one key or one coupled pair only' '$tmp/dd.out' &&
	! grep -q 'duration 2ms -> ' '$tmp/dd.out'"
check "the before/after heading says the baseline, which it uses" \
	grep -qx "# before/after, each case's baseline (its baseline key, else its first policy) against the" "$tmp/out"
check "a before/after against the measured direction is a mismatch, its error in points" grep -Eq \
	'^#   far +v5.4 -> v5.5: -24.1 % measured, \+([0-9.]+) % predicted, \+[0-9.]+ points: measured down, predicted up  MISMATCH  OVER$' "$tmp/out"
check "a step along a coupled pair of keys: the migration" grep -Eq \
	'^#   q1 +-> far +v5.5 +migrate_at never -> 500us, migrate_cpu 0 -> 6: -56.0 % measured, ' "$tmp/out"
check "the changes' mean and largest error, per file" grep -Eq \
	'^# changes, .*opposite.ini: mean \|error\| [0-9.]+ points, max \|error\| [0-9.]+ points over 4 changes$' "$tmp/out"
# two keys of two axes are no step: queues and what the program touches
printf '[global]\ninclude = %s\n[case a]\nmeasured = v5.4:9\n[case b]\nqueues = 2\nmeasured = v5.4:18\n[case c]\nxdp_touch = none\nmeasured = v5.4:10\n[case d]\nqueues = 2\nxdp_touch = none\nmeasured = v5.4:20\n' \
	"$src/tests/scenarios/tiny.ini" >"$tmp/axes.ini"
"$ppsim" validate "$tmp/axes.ini" --reps 1 --duration 1ms >"$tmp/axes.out" 2>>"$tmp/err"
check "two independent axes mixed are no step; each axis alone is" sh -c "
	test \$(grep -Ec '^#   [abcd] +-> [abcd] +v5.4 ' '$tmp/axes.out') -eq 4 &&
	! grep -Eq '^#   a +-> d |^#   b +-> c ' '$tmp/axes.out' &&
	grep -Eq '^#   a +-> c +v5.4 +xdp_touch read -> none: ' '$tmp/axes.out'"
# the same, every change's error accepted: the directions alone fail it
sed -e "s|^include = \.\./\.\./|include = $src/|" "$src/tests/scenarios/opposite.ini" >"$tmp/opp-wide.ini"
printf '\n[calibrate]\neffect_tolerance = 1000\n' >>"$tmp/opp-wide.ini"
"$ppsim" validate "$tmp/opp-wide.ini" --reps 1 >"$tmp/wide.out" 2>>"$tmp/err"
check "directions alone fail validate" sh -c "test $? -eq 1 &&
	grep -qx '# 0 of 5 figures over the tolerance, 0 of 4 changes over the effect tolerance, 2 direction mismatches (1 before/after, 1 trends), 0 stale fitted' '$tmp/wide.out'"
# every figure within its tolerance and every direction right, one change
# three times its measured size: the change's size alone fails validate
printf '[global]\ninclude = %s\n[case far-drop]\nmeasured = v5.4:4.4 v5.5:13.2\n[calibrate]\ntolerance = 1000\n' \
	"$src/tests/scenarios/tiny.ini" >"$tmp/size.ini"
"$ppsim" validate "$tmp/size.ini" --case far-drop --reps 1 >"$tmp/size.out" 2>>"$tmp/err"
rc=$?
check "a change's size alone fails validate: OVER, exit 1" sh -c "test $rc -eq 1 &&
	grep -Eq '^#   far-drop +v5.4 -> v5.5: \+200.0 % measured, \+[0-9.]+ % predicted, -[0-9.]+ points: both up  OVER\$' '$tmp/size.out' &&
	grep -qx '# 0 of 2 figures over the tolerance, 1 of 1 changes over the effect tolerance, 0 direction mismatches (0 before/after, 0 trends), 0 stale fitted' '$tmp/size.out'"
printf 'effect_tolerance = 1000\n' >>"$tmp/size.ini"
check "within a wider effect_tolerance it passes" "$ppsim" validate "$tmp/size.ini" --case far-drop --reps 1 --quiet

# what the predictions hang on first: a prior whose move is beyond its
# noise (the store's exposure: 0.0 of noise) before those within theirs
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 3 -j 2 \
	--param model.store_exposure --param model.win_ring >"$tmp/out" 2>>"$tmp/err"
check "--sensitivity: the moves beyond their noise listed first" sh -c "
	sed -n '/^parameter /,\$p' '$tmp/out' | grep -v '^#' | sed 1d | awk '
		NR == 1 && \$1 != \"model.store_exposure\" { bad = 1 }
		/, within noise\$/ { within = 1; next }
		within { bad = 1 }
		END { exit bad || NR != 3 }'"

# ---- --sensitivity: one prior (cost.xdp), the free cost.rx_pkt refitted ----
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--sensitivity: one row, the prior the file sets and does not fit" sh -c "
	test $rc -eq 0 && grep -q '^parameter ' '$tmp/out' &&
	test \$(sed -n '/^parameter /,\$p' '$tmp/out' | grep -vc '^#') -eq 2 &&
	grep -Eq '^cost.xdp +15 ' '$tmp/out' && ! grep -q '^cost.rx_pkt' '$tmp/out'"
# cost.xdp costs what cost.rx_pkt does, per packet: the refit absorbs it
check "--sensitivity: the refit absorbs a per-packet cost" awk \
	'$1 == "cost.xdp" { found = 1; bad = $3 > 1 || $4 > 1 } END { exit !found || bad }' "$tmp/out"
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param model.win_ring >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--sensitivity --param: a row more, the largest movement first" sh -c "
	test $rc -eq 0 &&
	sed -n '/^parameter /,\$p' '$tmp/out' | grep -v '^#' | sed -n '2,\$p' | awk '
		{ seen[\$1] = 1; m = \$3 > \$4 ? \$3 : \$4
		  if (NR > 1 && m > last) unsorted = 1; last = m }
		END { exit unsorted || NR != 2 || !seen[\"model.win_ring\"] ||
			    !seen[\"cost.xdp\"] }' &&
	grep -Eq '^model.win_ring +102 +[0-9.]+ +[0-9.]+ .* far-drop v5.5\$' '$tmp/out'"
# a prior the cases read but never use (no ring put in XDP_DROP) moves
# nothing, to the digit: a move's refit starts where the baseline's fit
# stopped, and its simulations are the baseline's
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param cost.pp_ring >"$tmp/out" 2>>"$tmp/err"
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param cost.pp_ring --format csv >"$tmp/ring.csv" 2>>"$tmp/err"
check "--sensitivity: a prior no case uses moves nothing, either way" sh -c "
	grep -Eq '^cost.pp_ring +44.5 +0.0 +0.0 +- +\+0.0 +\+0.0 +-\$' '$tmp/out' &&
	awk -F, '\$1 == \"cost.pp_ring\" { n++; if (\$7 != \$8 || \$9 != 0 || \$10 != \"\") bad = 1 }
		END { exit bad || n != 2 }' '$tmp/ring.csv'"
# a move's noise pairs each replication with the baseline's of its seed:
# a move that changes nothing has none (unpaired, the two runs' spreads
# would add up; at 3 ms the baseline's replications differ); a row is
# within noise exactly when its larger move is
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 3 -j 2 \
	--set duration=3ms --param cost.pp_ring --param model.win_ring \
	>"$tmp/out" 2>>"$tmp/err"
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 3 -j 2 \
	--set duration=3ms --param cost.pp_ring --format csv \
	>"$tmp/ring.csv" 2>>"$tmp/err"
check "--sensitivity: noise from replications paired by seed" sh -c "
	grep -Eq '^cost.pp_ring +44.5 +0.0 +0.0 +0.0 +\+0.0 +\+0.0 +-\$' '$tmp/out' &&
	awk -F, '\$1 == \"cost.pp_ring\" { n++; if (\$10 != 0) bad = 1 }
		\$1 == \"cost.xdp\" && \$10 !~ /^[0-9.e-]+\$/ { bad = 1 }
		END { exit bad || n != 2 }' '$tmp/ring.csv' &&
	sed -n '/^parameter /,\$p' '$tmp/out' | grep -v '^#' | sed 1d | awk '
		\$1 == \"cost.pp_ring\" { next }
		{ n++; within = (\$3 > \$4 ? \$3 : \$4) <= \$5
		  if (within != /, within noise\$/ || \$5 !~ /^[0-9.]+\$/) bad = 1 }
		END { exit bad || n != 2 }'"
# a figure predicted 0 has no move in per cent: an empty CSV cell and a
# note, never nan or inf, and the table's largest move is another's
cp "$src/tests/scenarios/sens.ini" "$tmp/zero.ini"
printf '[case trickle]\nworkload = xdp_drop\nrate = 100\nmeasured = v5.5:0.0001\n' >>"$tmp/zero.ini"
"$ppsim" validate --sensitivity "$tmp/zero.ini" --reps 1 -j 2 --format csv \
	>"$tmp/zero.csv" 2>"$tmp/zero.err"
check "--sensitivity: a figure predicted 0 moves by no per cent, said so" sh -c "
	grep -q '^cost.xdp,0.75,.*,trickle,v5.5,0.0001,0,0,,\$' '$tmp/zero.csv' &&
	! grep -qi 'nan\|inf' '$tmp/zero.csv' &&
	grep -q 'note: trickle v5.5: predicted 0 at the baseline' '$tmp/zero.err'"
check "--sensitivity --format commit: refused, exit 2" \
	fails 2 "--sensitivity prints a table or CSV, not a commit's table" \
	"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --format commit
# its progress line on a terminal, none with --quiet (script gives a tty)
if command -v script >/dev/null; then
	script -qc "'$ppsim' validate --sensitivity '$src/tests/scenarios/sens.ini' --reps 1 --quiet >/dev/null" \
		/dev/null >"$tmp/tty" 2>&1
	check "--sensitivity --quiet draws no progress on a terminal" sh -c "
		test -f '$tmp/tty' && ! grep -q 'baseline' '$tmp/tty'"
else
	ok "--sensitivity --quiet draws no progress on a terminal # SKIP no script(1)"
fi
# a file that fits nothing (no [calibrate]) moves its priors all the same
"$ppsim" validate --sensitivity "$src/tests/scenarios/tiny.ini" --reps 1 -j 2 \
	--param model.win_ring >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--sensitivity on a file with no [calibrate]: its priors moved, nothing refitted" sh -c "
	test $rc -eq 0 && grep -q 'no \[calibrate\] free: nothing refitted' '$tmp/out' &&
	grep -Eq '^cost.rx_pkt +100 +[1-9]' '$tmp/out'"
check "--param of the measurement's window: refused, exit 2" \
	fails 2 "--param duration: how long the run measures" \
	"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --param duration
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param migrate_at >"$tmp/out" 2>&1
check "--param migrate_at: the close case's 'never' is not moved, said" sh -c "
	test $? -eq 1 && grep -q \"migrate_at = .* in case close-drop: a value below 0 means 'never'\" '$tmp/out'"
# a whole number moves by one at least: 2 x 0.75 rounds back to 2
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param cache.ddio_ways >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--sensitivity: a whole number moves to 1 and 3 from 2, and says so" sh -c "
	test $rc -eq 0 && grep -Eq '^cache.ddio_ways +2 +[0-9.]+ +[0-9.]+ ' '$tmp/out' &&
	grep -qx '# cache.ddio_ways: a whole number, moved to 1 and 3' '$tmp/out'"
# a move the scenario's checks refuse (a ring of 768 is no power of 2)
# is not made, and said so; the others run
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param nic.rx_ring >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--sensitivity: a move the checks refuse is shown refused (exit 1), the rest run" sh -c "
	test $rc -eq 1 && grep -Eq '^nic.rx_ring +1024 +refused +refused +- +refused +refused ' '$tmp/out' &&
	grep -q '^# nic.rx_ring x0.75: refused by the scenario.s checks, not run: .*sens.ini:[0-9]*: .*rx_ring 768 is not a power of 2' '$tmp/out' &&
	grep -Eq '^cost.xdp +15 +[0-9.]+ ' '$tmp/out'"
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param nic.rx_ring --format csv >"$tmp/out" 2>"$tmp/stderr"
rc=$?
check "--sensitivity --format csv: a refused move has no line, and is said on stderr (exit 1)" sh -c "
	test $rc -eq 1 && ! grep -q '^nic.rx_ring,' '$tmp/out' && grep -q '^cost.xdp,1.25,' '$tmp/out' &&
	grep -q '^ppsim validate: nic.rx_ring x0.75: refused by the scenario.s checks, not run: .*sens.ini:[0-9]*: ' '$tmp/stderr'"
check "--sensitivity --dry-run: each prior, each way moved or refused, the count; nothing run" sh -c "
	'$ppsim' validate --sensitivity '$src/tests/scenarios/sens.ini' --dry-run --param nic.rx_ring >'$tmp/dry' 2>&1 &&
	grep -Eq '^  cost.xdp +15 +x0.75 moved, x1.25 moved\$' '$tmp/dry' &&
	grep -Eq '^  nic.rx_ring +1024 +x0.75 refused, x1.25 refused\$' '$tmp/dry' &&
	grep -q '^dry run: validate --sensitivity: 2 priors, 2 moves and the baseline, .*nothing run\$' '$tmp/dry'"
# keys one of which holds the other move together: pp_ring's cycles hold
# pp_lock's, so neither move is refused by pp_lock <= pp_ring
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --reps 1 -j 2 \
	--param cost.pp_ring --param cost.pp_lock >"$tmp/out" 2>>"$tmp/err"
rc=$?
check "--sensitivity: pp_ring and pp_lock move together, neither refused" sh -c "
	test $rc -eq 0 && ! grep -q refused '$tmp/out' &&
	grep -Eq '^cost.pp_ring +44.5 +[0-9.]+ +[0-9.]+ ' '$tmp/out' &&
	grep -Eq '^cost.pp_lock +37 +[0-9.]+ +[0-9.]+ ' '$tmp/out'"
"$ppsim" validate --sensitivity "$src/tests/scenarios/sens.ini" --param nic.no_such >"$tmp/out" 2>&1
rc=$?
check "--param of an unknown key is bad input" sh -c "test $rc -eq 2 &&
	grep -q '^ppsim validate: --param nic.no_such: not a numeric key' '$tmp/out'"

# ---- calibrate writes only where told, and its fit is a fixed point ----
mkdir "$tmp/fp" && cp "$src/tests/scenarios/fit.ini" "$src/tests/scenarios/tiny.ini" "$tmp/fp/"
# writable, as a user's own files are (distcheck's sources are read-only,
# and so would be their copies: a read-only file is refused for that)
chmod u+w "$tmp/fp/fit.ini" "$tmp/fp/tiny.ini"
sed -i "s#^include = ../../#include = $src/#" "$tmp/fp/tiny.ini"
# the fit included, as the shipped scenarios include theirs
sed -i 's/^include = tiny.ini$/&\ninclude = fit.cal.ini/' "$tmp/fp/fit.ini"
printf '; not fitted yet\n' >"$tmp/fp/fit.cal.ini"
(cd "$tmp/fp" && "$ppsim" calibrate fit.ini --reps 1 >"$tmp/stdout" 2>>"$tmp/err")
check "calibrate without --out or --update: the fit on stdout, no file touched" \
	sh -c "grep -q '^rx_pkt = ' '$tmp/stdout' && test \"\$(cat '$tmp/fp/fit.cal.ini')\" = '; not fitted yet' && test \$(ls '$tmp/fp' | wc -l) -eq 3"
(cd "$tmp/fp" && "$ppsim" calibrate fit.ini --reps 1 --update >/dev/null 2>>"$tmp/err" &&
 cp fit.cal.ini first.cal.ini &&
 "$ppsim" calibrate fit.ini --reps 1 --update >/dev/null 2>>"$tmp/err")
rc=$?
# the second fit starts where the first ended and moves less than the
# fit's tolerance (1e-6 relative in the parameter, with the same seeds)
check "calibrating on its own output changes nothing: a fixed point" sh -c "
	test $rc -eq 0 &&
	a=\$(sed -n 's/^rx_pkt = \([0-9.]*\).*/\1/p' '$tmp/fp/first.cal.ini') &&
	b=\$(sed -n 's/^rx_pkt = \([0-9.]*\).*/\1/p' '$tmp/fp/fit.cal.ini') &&
	grep -q \"; start \$a;\" '$tmp/fp/fit.cal.ini' &&
	awk -v a=\"\$a\" -v b=\"\$b\" 'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 1e-4 && d > -1e-4) }'"

# every digit the fit evaluated (10 significant), so that a run from the
# file predicts what the fit did: 6 digits (the TCP fit's 519.5668977
# written 519.567) moved close-tcp1 by 0.1 % where the file said +0.00 %
check "calibrate writes the value its fit evaluated, 10 significant digits" \
	grep -Eq '^rx_pkt = [0-9]{2}\.[0-9]{8}\b' "$tmp/fp/first.cal.ini"

# ---- hostile names and calibrations that would lie ----
mkdir "$tmp/h" && cp "$tmp/fp/fit.ini" "$tmp/fp/tiny.ini" "$tmp/h/"
printf '; not fitted yet\n' >"$tmp/h/fit.cal.ini"
printf '[global]\ninclude = tiny.ini\n[case a,b]\nmeasured = v5.4:5\n[case c"d]\nmeasured = v5.4:5\n' >"$tmp/h/q,1.ini"
"$ppsim" validate "$tmp/h/q,1.ini" --case 'a,b' --case 'c"d' --policy v5.4 --reps 1 --format csv >"$tmp/out" 2>>"$tmp/err"
check "--format csv: a comma or a quote in a file or case name is quoted (RFC 4180)" sh -c "
	grep -q '^\"$tmp/h/q,1.ini\",\"a,b\",v5.4,5,' '$tmp/out' &&
	grep -q '^\"$tmp/h/q,1.ini\",\"c\"\"d\",v5.4,5,' '$tmp/out'"
(cd "$tmp/h" && "$ppsim" validate fit.ini ./fit.ini --dry-run) >"$tmp/out" 2>&1
check "one file named twice is refused: its figures would count twice" sh -c "
	test $? -eq 2 && grep -q '^ppsim validate: ./fit.ini: the same file as fit.ini' '$tmp/out'"
cp "$tmp/h/fit.ini" "$tmp/h/keep"
(cd "$tmp/h" && "$ppsim" calibrate fit.ini --out fit.ini --reps 1) >"$tmp/out" 2>&1
check "calibrate --out the scenario itself is refused before the fit, the file kept" sh -c "
	test $? -eq 2 && cmp -s '$tmp/h/fit.ini' '$tmp/h/keep' &&
	grep -q 'that is fit.ini, a file this run reads' '$tmp/out' && ! grep -q iteration '$tmp/out'"
(cd "$tmp/h" && "$ppsim" calibrate fit.ini --out '' --reps 1) >"$tmp/out" 2>&1
check "calibrate --out '' is refused before the fit" sh -c "
	test $? -eq 2 && grep -q '^ppsim calibrate: --out: an empty name' '$tmp/out' && ! grep -q iteration '$tmp/out'"
(cd "$tmp/h" && "$ppsim" calibrate fit.ini --update --set cost.xdp=60 --reps 1) >"$tmp/out" 2>&1
check "calibrate --update under --set is refused: no file would describe what it fitted" sh -c "
	test $? -eq 2 && grep -q '^ppsim calibrate: --set: a calibration written is of the scenario as its files are' '$tmp/out' &&
	test \"\$(cat '$tmp/h/fit.cal.ini')\" = '; not fitted yet'"
sed 's/^measured = v5.4:11 v5.5:10.9$/measured = v5.4:1000 v5.5:1000/' "$tmp/h/tiny.ini" >"$tmp/h/huge.ini"
sed 's/^include = tiny.ini$/include = huge.ini/' "$tmp/h/fit.ini" >"$tmp/h/bound.ini"
(cd "$tmp/h" && "$ppsim" calibrate bound.ini --out bound.cal.ini --reps 1) >"$tmp/out" 2>&1
check "a fit stopped at a bound is no fit: exit 1, said, nothing written" sh -c "
	test $? -eq 1 && test ! -e '$tmp/h/bound.cal.ini' &&
	grep -q '^ppsim calibrate: cost.rx_pkt stopped at 5, at a bound of \[5, 400\]' '$tmp/out'"
(cd "$tmp/h" && "$ppsim" calibrate fit.ini --set cost.rx_pkt=5 --reps 1) >"$tmp/cal" 2>"$tmp/out"
check "a fit whose start is at a bound starts inside it, said, and leaves it" sh -c "
	test $? -eq 0 && grep -q 'cost.rx_pkt = 5 is at or beyond a bound of \[5, 400\]: the fit starts at 24.75' '$tmp/out' &&
	awk '/^rx_pkt = / { exit !(\$3 > 20) }' '$tmp/cal'"
nl='
'
cp "$tmp/h/fit.ini" "$tmp/h/inj${nl}[model]${nl}jitter = 0.9${nl};.ini"
(cd "$tmp/h" && "$ppsim" calibrate "inj${nl}[model]${nl}jitter = 0.9${nl};.ini" --update --reps 1) >/dev/null 2>>"$tmp/err"
check "a line break in the scenario's name is \\x0a in the calibration's comment: no line forged" sh -c "
	test $? -eq 0 && f=\$(ls '$tmp/h'/inj*.cal.ini) &&
	grep -q '^; Written by ppsim .* from inj\\\\x0a\[model\]\\\\x0ajitter = 0.9\\\\x0a;.ini: ' \"\$f\" &&
	! grep -q '^jitter' \"\$f\" && ! grep -qx '\[model\]' \"\$f\""
grep -v '^include = fit.cal.ini$' "$tmp/h/fit.ini" >"$tmp/h/bare.ini"
(cd "$tmp/h" && "$ppsim" calibrate bare.ini --update --reps 1 &&
 "$ppsim" calibrate fit.ini --update --reps 1) >/dev/null 2>"$tmp/out"
check "calibrate --update notes a calibration its scenario does not include, and only that" sh -c "
	test $? -eq 0 && test -s '$tmp/h/bare.cal.ini' &&
	test \$(grep -c 'note: .* does not include' '$tmp/out') -eq 1 &&
	grep -q '^ppsim calibrate: note: bare.ini does not include bare.cal.ini' '$tmp/out'"
"$ppsim" validate "$tmp/h/fit.ini" --policy v9 --case nosuch --dry-run >"$tmp/out" 2>&1
check "an unknown --policy or --case is named as such, not 'no figure matches'" sh -c "
	test $? -eq 2 && grep -q '^--policy v9: no such policy' '$tmp/out' &&
	grep -q '^--case nosuch: no such case' '$tmp/out' && ! grep -q 'matches' '$tmp/out'"
