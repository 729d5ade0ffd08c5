#!/bin/sh
# The validation corpus held to issue 32's targets, out of the fit, with
# the seed's calibration only.  The seed (validate's default replications):
# each of its four far before/after changes within 3 points of the
# measured one, its close ones flat (within 2 %), its XDP figures within a
# mean |error| of 5 % and a max of 8 %, its TCP figures 8 % and 12 %.  The
# XDP paper's host V1: mean 6 %, max 15 %, every trend in the measured
# direction, its changes within a mean of 4 points.  V4's redirect: each
# figure within 15 %.  Issue 34's V5 (legacy against striding RQ on an
# 8380): each figure within 10 %, the striding RQ's gain (XDP_DROP and
# XDP_TX) within 5 points of the measured one.  V6 (TCP on a Gold 6354):
# each change it gives (1 -> 6 flows, ring 1024 -> 2048) within 5 points,
# every throughput step in its direction, and the directions of its LLC
# miss and DRAM figures in the packet reads the model took from DRAM.
# A target the model does not meet yet is a TODO
# point (an expected failure, which the suite counts apart); one it meets
# while marked TODO is an unexpected pass, and fails the suite: the TODO
# must then go.  Last, every prediction (each figure and each change) is
# held to tests/golden/corpus.golden, within 0.5 % of a figure and 0.5
# points of a change: a model change that moves one fails until the file
# is written anew (PPSIM_GOLDEN_WRITE=1 make check TESTS=tests/corpus.sh)
# in a commit that says why.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
echo "1..30"

# validate FILE [OPTION...]: its output in $tmp/FILE.out; its out-of-fit
# line, "MEAN MAX N", in $tmp/FILE.fit
validate() {
	f=$1
	shift
	"$ppsim" validate "$src/scenarios/$f.ini" -j 2 "$@" \
		>"$tmp/$f.out" 2>"$tmp/$f.err"
	sed -n "s#^\# out of the fit, .*$f.ini: mean |error| \([0-9.]*\) %, max |error| \([0-9.]*\) % over \([0-9]*\) figures\$#\1 \2 \3#p" \
		"$tmp/$f.out" >"$tmp/$f.fit"
}

# point MET WHAT TODO: a test point, "ok" when MET is 0; TODO, if not
# empty, says why the target is not met yet
point() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2${3:+ # TODO $3}"
	else echo "not ok $n - $2${3:+ # TODO $3}"; fi
}

# target FILE MEAN MAX TODO: the file's out-of-fit errors within MEAN and
# MAX (%).  No figure to judge (validate failed, or its output changed) is
# a plain failure.
target() {
	read -r mean max figs <"$tmp/$1.fit" || figs=0
	if [ "$figs" -eq 0 ]; then
		not_ok "$1: no out-of-fit figures to judge"
		sed 's/^/# /' "$tmp/$1.out" "$tmp/$1.err" | head -20
		return
	fi
	awk -v m="$mean" -v x="$max" -v a="$2" -v b="$3" \
		'BEGIN { exit !(m <= a && x <= b) }'
	met=$?
	point $met "$1: out of the fit, mean |error| $mean % <= $2 %, max $max % <= $3 % ($figs figures)" "$4"
	[ $met -eq 0 ] || grep -E ' (out|in) ' "$tmp/$1.out" | sed 's/^/# /' | head -40
}

# change FILE CASE MAX TODO: the case's before/after change, predicted
# against measured, within MAX points
change() {
	line=$(grep -E "^#   $2 +v5.4 -> v5.5: " "$tmp/$1.out")
	pts=$(echo "$line" | sed -n 's/.* predicted, \([-+][0-9.]*\) points: .*/\1/p')
	if [ -z "$pts" ]; then
		not_ok "$1: $2: no before/after change to judge"
		return
	fi
	awk -v p="$pts" -v m="$3" 'BEGIN { exit !(p <= m && -p <= m) }'
	point $? "$1: $2 v5.4 -> v5.5 within $3 points of the measured change ($pts)" "$4"
	echo "$line" | sed 's/^#/# /'
}

# flat FILE...: every close case's predicted change within 2 %
flat() {
	bad=$(cat "$@" | grep -E '^#   close-[a-z0-9]+ +v5.4 -> v5.5: ' |
		sed -n 's/.* \([-+][0-9.]*\) % predicted,.*/& \1/p' |
		awk '{ p = $NF + 0; if (p > 2 || p < -2) print }')
	if [ -z "$(cat "$@" | grep -E '^#   close-[a-z0-9]+ +v5.4 -> v5.5: ')" ]; then
		not_ok "the seed's close cases: no change to judge"
	else
		point "$([ -z "$bad" ]; echo $?)" "the seed's close cases: every predicted change flat (within 2 %)" ""
		[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'
	fi
}

# trend FILE FROM TO MAX TODO: validate's trend step from case FROM to
# case TO, predicted against measured, within MAX points
trend() {
	line=$(grep -E "^#   $2 +-> $3 +[^ ]+ +.*: [-+][0-9.]+ % measured, " "$tmp/$1.out")
	pts=$(echo "$line" | sed -n 's/.* predicted, \([-+][0-9.]*\) points: .*/\1/p')
	if [ -z "$pts" ]; then
		not_ok "$1: $2 -> $3: no trend step to judge"
		sed 's/^/# /' "$tmp/$1.out" "$tmp/$1.err" | head -20
		return
	fi
	awk -v p="$pts" -v m="$4" 'BEGIN { exit !(p <= m && -p <= m) }'
	point $? "$1: $2 -> $3 within $4 points of the measured change ($pts)" "$5"
	echo "$line" | sed 's/^#/# /'
}

# mismatches FILE WHAT TODO: none of the file's changes in another
# direction than the measured one
mismatches() {
	mm=$(sed -n 's/^# [0-9]* of [0-9]* figures over the tolerance, [0-9]* of [0-9]* changes over the effect tolerance, \([0-9]*\) direction mismatches.*/\1/p' \
		"$tmp/$1.out")
	if [ -z "$mm" ]; then
		not_ok "$1: no direction count to judge"
	else
		point "$mm" "$1: $2 ($mm mismatches)" "$3"
		grep MISMATCH "$tmp/$1.out" | sed 's/^/# /'
	fi
}

# metric FILE CASE METRIC: the case's figure in the run's CSV ($tmp/FILE.csv)
metric() {
	awk -F, -v c="$2" -v m="$3" '$1 == c && $3 == m { print $5 }' "$tmp/$1.csv"
}

# rises FILE WHAT A B TODO: B above A by more than 2 % of A (what
# validate calls up); falls: below by more
rises() {
	awk -v a="$3" -v b="$4" 'BEGIN { exit !(a != "" && b != "" && b > a * 1.02) }'
	point $? "$1: $2 (${3:-?} -> ${4:-?})" "$5"
}
falls() {
	awk -v a="$3" -v b="$4" 'BEGIN { exit !(a != "" && b != "" && b < a * 0.98) }'
	point $? "$1: $2 (${3:-?} -> ${4:-?})" "$5"
}

validate mlx5-cx4-numa
validate mlx5-cx4-tcp
validate xdp-paper-e5-1650v4 --reps 1
validate xdp-redirect-e5-1650v4 --reps 1
validate xdp-striding-8380 --reps 1
validate pagecache-8380 --reps 1
# V6: one run, its CSV for the packet reads from DRAM, validated from it
"$ppsim" run "$src/scenarios/tcp-sepia-6354.ini" -j 2 --reps 1 --format csv \
	>"$tmp/tcp-sepia-6354.csv" 2>"$tmp/tcp-sepia-6354.err"
"$ppsim" validate --results "$tmp/tcp-sepia-6354.csv" \
	"$src/scenarios/tcp-sepia-6354.ini" >"$tmp/tcp-sepia-6354.out" \
	2>>"$tmp/tcp-sepia-6354.err"

target mlx5-cx4-numa 5 8 ""
target mlx5-cx4-tcp 8 12 "far-tcp1 15-17 % low; a stream's reader is not modelled closely enough (design memo 7.3, 12)"
change mlx5-cx4-numa far-drop 3 ""
change mlx5-cx4-numa far-tx 3 "v5.5 4.3 Mpps where 4.0 were measured: no TX cost that grows with a far page is known (design memo 12)"
change mlx5-cx4-tcp far-tcp1 3 ""
change mlx5-cx4-tcp far-tcp12 3 ""
flat "$tmp/mlx5-cx4-numa.out" "$tmp/mlx5-cx4-tcp.out"
target xdp-paper-e5-1650v4 6 15 "the compression rows: the falling rate a queue (design memo 6.5)"
target xdp-redirect-e5-1650v4 15 15 ""

# V1's shapes: every trend step in the measured direction, and the size
# of its changes
mismatches xdp-paper-e5-1650v4 "every trend step in the measured direction" "read/1024 and XDP_TX from 3 to 4 queues (design memo 8, 12)"
eff=$(sed -n 's/^# changes, .*xdp-paper-e5-1650v4.ini: mean |error| \([0-9.]*\) points, .*/\1/p' \
	"$tmp/xdp-paper-e5-1650v4.out")
if [ -z "$eff" ]; then
	not_ok "xdp-paper-e5-1650v4: no change error to judge"
else
	awk -v e="$eff" 'BEGIN { exit !(e <= 4) }'
	point $? "xdp-paper-e5-1650v4: its changes within a mean |error| of 4 points ($eff)" "the compression steps and touch/ring at 3-4 queues (design memo 12)"
fi

# V5: the 8380's figures, and the striding RQ's gain over the legacy RQ
v5_todo="the model has no packet rate of the adapter over all its queues, so both RQ types run at line rate or PCIe's limit; and V5 ran multi-buffer XDP at MTU 9000, which the model refuses (the cases run at 1500)"
target xdp-striding-8380 10 10 "$v5_todo"
trend xdp-striding-8380 drop-legacy drop-striding 5 "$v5_todo"
trend xdp-striding-8380 tx-legacy tx-striding 5 "$v5_todo"

# The Ice Lake-SP's calibration (one figure) and the checks beside it:
# each within 15 %, the page cache's XDP gain within 5 points
target pagecache-8380 8 15 ""
pc_todo="mlx5's page cache gains 15 % for XDP_DROP where 6.7 % was measured, and nothing for TCP where its head-of-queue blocking cost 8.5 %: the model's reader frees each skb right after the poll, so the cache's head is seldom busy (design memo 12.4, the reader's lag)"
trend pagecache-8380 drop-legacy drop-legacy-cache 5 "$pc_todo"
trend pagecache-8380 tcp-legacy tcp-legacy-cache 5 "$pc_todo"

# V6: its changes, their directions, and those of its LLC and DRAM figures
trend tcp-sepia-6354 flows1 flows6 5 "one flow 90 Gbps where 61 were derived: 0.8 us a 9000-byte packet where V6 spent ~1.2; the stack's cycles were fitted on 1500-byte packets on Broadwell (core-costs.md section 3), the reader's buffer lines are not modelled"
trend tcp-sepia-6354 flows1 flows1-ring2048 5 "-31 % where V6 lost 11 %: a quarter of the packet lines from DRAM (V6: LLC miss 16.5 %) on a core with no time to spare (the flows1 -> flows6 point)"
mismatches tcp-sepia-6354 "every throughput step in V6's direction" ""
rises tcp-sepia-6354 "1 -> 6 flows: more packet reads from DRAM, % (V6: LLC miss 0.9 -> 60.4 %)" \
	"$(metric tcp-sepia-6354 flows1 pkt_dram)" "$(metric tcp-sepia-6354 flows6 pkt_dram)" \
	"the six cores idle 65 % and read each packet soon after DDIO wrote it (98 % LLC hits), where V6 needed all six: the one flow too fast (the flows1 -> flows6 point)"
rises tcp-sepia-6354 "ring 1024 -> 2048: more packet reads from DRAM, % (V6: LLC miss 0.9 -> 16.5 %)" \
	"$(metric tcp-sepia-6354 flows1 pkt_dram)" "$(metric tcp-sepia-6354 flows1-ring2048 pkt_dram)" ""
dram4=$(awk -F, '($1 == "flows4" || $1 == "flows4-ring256") && ($3 == "packets" || $3 == "pkt_dram") { v[$1 " " $3] = $5 }
	END { if (("flows4 packets" in v) && ("flows4-ring256 packets" in v) && ("flows4 pkt_dram" in v) && ("flows4-ring256 pkt_dram" in v))
		printf "%.4f %.4f", v["flows4 packets"] * v["flows4 pkt_dram"], v["flows4-ring256 packets"] * v["flows4-ring256 pkt_dram"] }' \
	"$tmp/tcp-sepia-6354.csv")
# shellcheck disable=SC2086
falls tcp-sepia-6354 "4 flows, ring 1024 -> 256: fewer packet reads from DRAM a second, Mpps x % (V6: DRAM bandwidth -47 %)" \
	$dram4 ""

# predictions FILE: the file's figures ("FILE fig CASE POLICY VALUE") and
# changes ("FILE chg WHAT VALUE", WHAT what the line says changed), as
# the table prints them
predictions() {
	awk -v f="$1" '
		/^#   / && / % predicted, / {
			what = $0; sub(/^#   /, "", what); sub(/: [-+][0-9.]+ % measured.*/, "", what)
			gsub(/ +/, "_", what)
			v = $0; sub(/ % predicted,.*/, "", v); sub(/.* /, "", v)
			print f, "chg", what, v + 0; next }
		/^#/ || /^case / { next }
		NF >= 9 && ($5 == "Mpps" || $5 == "Gbps") { print f, "fig", $1 "_" $2, $4 + 0 }
	' "$tmp/$1.out"
}
golden=$src/tests/golden/corpus.golden
corpus="mlx5-cx4-numa mlx5-cx4-tcp xdp-paper-e5-1650v4 xdp-redirect-e5-1650v4 xdp-striding-8380 pagecache-8380 tcp-sepia-6354"
for f in $corpus; do
	predictions $f
done >"$tmp/now"
if [ -n "${PPSIM_GOLDEN_WRITE:-}" ]; then
	{ echo "# every corpus prediction, as tests/corpus.sh runs validate (the seed's"
	  echo "# two files at 3 replications, V1, V4, V5, the 8380's and V6 at 1): FILE fig CASE_POLICY"
	  echo "# RATE, or FILE chg WHAT CHANGE_PCT.  Written by"
	  echo "# PPSIM_GOLDEN_WRITE=1 make check TESTS=tests/corpus.sh"
	  cat "$tmp/now"; } >"$golden"
fi
for f in $corpus; do
	grep "^$f " "$tmp/now" >"$tmp/got"
	grep "^$f " "$golden" 2>/dev/null >"$tmp/want"
	awk 'NR == FNR { want[$2 " " $3] = $4; next }
	     { k = $2 " " $3; if (!(k in want)) { print "new: " $0; bad = 1; next }
	       w = want[k]; v = $4; seen[k] = 1
	       d = $2 == "fig" ? (w ? (v - w) / w * 100 : v - w) : v - w
	       if (d > 0.5 || d < -0.5) { print "moved: " $0 " (was " w ")"; bad = 1 } }
	     END { for (k in want) if (!(k in seen)) { print "gone: " k; bad = 1 }
		   exit bad || !length(want) }' "$tmp/want" "$tmp/got" >"$tmp/gdiff"
	point $? "$f: every prediction as tests/golden/corpus.golden holds it ($(wc -l <"$tmp/got") within 0.5 % or 0.5 points)" ""
	sed 's/^/# /' "$tmp/gdiff" | head -20
done
