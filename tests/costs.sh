#!/bin/sh
# The core families' cost tables (doc/notes/core-costs.md): what cpu.srso
# moves, a table of another family allowed, the shipped profiles' figures
# to the digit, and calibrate's fit_family.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
zen4=$src/tests/scenarios/zen4.ini
echo "1..7"

# rate CSV: the one rate of a one-row run
rate() { awk -F, '$3 == "rate" { print $5 }' "$1"; }
one="--case close-drop --policy v5.5 --reps 1 --format csv"

# ---- cpu.srso: the page_pool figures to PP08's ibpb run, and back ----
"$ppsim" run "$zen4" $one >"$tmp/z.csv" 2>"$tmp/out"
"$ppsim" run "$zen4" $one --set cpu.srso=ibpb >"$tmp/zi.csv" 2>>"$tmp/out"
"$ppsim" run "$zen4" $one --set cpu.srso=off >"$tmp/zo.csv" 2>>"$tmp/out"
check "zen4: ibpb's plain returns run faster than safe RET's thunk" \
	awk -v d="$(rate "$tmp/z.csv")" -v i="$(rate "$tmp/zi.csv")" \
	    'BEGIN { exit !(d > 0 && i > d * 1.02) }'
check "zen4: off is ibpb inside the softirq's loop" \
	test -n "$(rate "$tmp/zi.csv")" -a "$(rate "$tmp/zi.csv")" = "$(rate "$tmp/zo.csv")"
# Broadwell's table (no thunk in its figures) on a Zen 4 core under safe
# RET: the thunk's share added, a slower core than Broadwell's own
"$ppsim" run "$tiny" $one >"$tmp/b.csv" 2>>"$tmp/out"
"$ppsim" run "$tiny" $one --set cpu.family=zen4 >"$tmp/bz.csv" 2>>"$tmp/out"
rc=$?
check "a table of another family runs (borrowed, not refused)" test $rc -eq 0
check "broadwell's table on a zen4 core under safe RET: the thunk added" \
	awk -v b="$(rate "$tmp/b.csv")" -v z="$(rate "$tmp/bz.csv")" \
	    'BEGIN { exit !(z > 0 && z < b * 0.98) }'

# ---- the shipped profiles: every [cost] figure as it was, to the digit ----
# (the figures before hw/cost-broadwell.ini took them over; cqe_decompress
# stays the E5-1650 v4's own)
want="cost.pp_fast = 9.5|cost.pp_ring = 44.5|cost.page_alloc = 110|cost.page_free = 90|cost.dma_map = 30|cost.dma_sync = 13.5|cost.cache_op = 9.5|cost.pp_lock = 37|cost.redirect = 40|cost.doorbell = 50|cost.xdp = 15|cost.poll = 300|cost.recv = 50|cost.copy = 8|cost.cqe_decompress = 10"
for s in mlx5-cx4-numa xdp-paper-e5-1650v4; do
	rm -rf "$tmp/r"
	"$ppsim" run "$src/scenarios/$s.ini" --case "$(sed -n 's/^\[case \(.*\)\]$/\1/p' "$src/scenarios/$s.ini" | head -1)" \
		--reps 1 --duration 1ms --out "$tmp/r" >/dev/null 2>>"$tmp/out"
	check "$s: the Broadwell [cost] figures, to the digit" sh -c "
		sed 's/[ 	]*;.*//' '$tmp/r/resolved.ini' | grep -Ex '($want)' | sort -u | wc -l | grep -qx 15"
done

# ---- calibrate writes the core it fitted on ----
"$ppsim" calibrate "$src/tests/scenarios/fit.ini" --set cpu.family=sunny_cove \
	--reps 1 -j 2 >"$tmp/fit.cal.ini" 2>>"$tmp/out"
check "calibrate: fit_family, the [cpu]'s family, in [cost]" \
	grep -Eq '^fit_family = sunny_cove	; the core of the machine fitted on' "$tmp/fit.cal.ini"
