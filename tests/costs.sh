#!/bin/sh
# The core families' cost tables (doc/notes/core-costs.md): what cpu.srso
# moves, a table of another family allowed, the shipped profiles' figures
# to the digit, calibrate's fit_family, and borrowed costs said in every
# format.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
zen4=$src/tests/scenarios/zen4.ini
echo "1..27"

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

# ---- borrowed costs, said in every format (core-costs.md section 7) ----
# the seed on a Zen 4 core: Broadwell's table, its fit Broadwell's too
seed=$src/scenarios/mlx5-cx4-numa.ini
text="a zen4 core: broadwell's cost table, driver cycles fitted on broadwell"
b="--case close-drop --reps 1 --duration 1ms --set cpu.family=zen4"
"$ppsim" run "$seed" $b >"$tmp/m.txt" 2>"$tmp/out"
"$ppsim" run "$seed" $b --format csv >"$tmp/m.csv" 2>>"$tmp/out"
"$ppsim" run "$seed" $b --format json >"$tmp/m.json" 2>>"$tmp/out"
"$ppsim" run "$seed" $b --format commit >"$tmp/m.commit" 2>>"$tmp/out"
"$ppsim" run "$seed" $b --out "$tmp/mo" >/dev/null 2>>"$tmp/out"
check "table: the '# costs borrowed for' line" grep -qxF "# costs borrowed for $text" "$tmp/m.txt"
check "CSV: the same line among its provenance" grep -qxF "# costs borrowed for $text" "$tmp/m.csv"
# has TEXT FILE: FILE holds TEXT (TEXT has a quote: no sh -c)
has() { grep -qF -- "$1" "$2"; }
check "JSON: costs_borrowed, and uncalibrated (fitted on another core)" \
	has "\"uncalibrated\": true, \"costs_borrowed\": \"$text\"" "$tmp/m.json"
tr '\n' ' ' <"$tmp/m.commit" >"$tmp/m.joined"
has "Costs borrowed for $text." "$tmp/m.joined"
check "commit table: 'Costs borrowed for' under it, within 72 columns" sh -c "
	test $? -eq 0 && grep -q '^Costs borrowed for a zen4 core' '$tmp/m.commit' &&
	! awk 'length > 72 { bad = 1 } END { exit !bad }' '$tmp/m.commit'"
check "index.html: a paragraph" grep -qF "<strong>Costs borrowed</strong> for a zen4 core" "$tmp/mo/index.html"
if command -v gnuplot >/dev/null; then
	check "plot title: borrowed costs" grep -q 'uncalibrated, borrowed costs)' "$tmp/mo/rates.svg"
else
	ok "# SKIP no gnuplot: no plot title"
fi
"$ppsim" report "$tmp/m.csv" --format json >"$tmp/r.json" 2>>"$tmp/out"
check "ppsim report: the CSV's line read back" grep -qF "\"costs_borrowed\": \"$text\"" "$tmp/r.json"
# the CSV's line checked against the scenario, as its '# machine:' is
bl=$(grep -n '^# costs borrowed for ' "$tmp/m.csv" | cut -d: -f1)
sed 's/^# costs borrowed for a zen4/# costs borrowed for a zen3/' "$tmp/m.csv" >"$tmp/m-edit.csv"
"$ppsim" report "$tmp/m-edit.csv" >/dev/null 2>"$tmp/err"
check "report: an edited '# costs borrowed' line refused at its line" sh -c "
	test $? -eq 2 && grep -q '^$tmp/m-edit.csv:$bl: the run.s costs were borrowed for a zen3 core' '$tmp/err'"
grep -v '^# costs borrowed for ' "$tmp/m.csv" >"$tmp/m-cut.csv"
"$ppsim" report "$tmp/m-cut.csv" >/dev/null 2>"$tmp/err"
check "report: the line cut out (a '# machine:' line says it was written) refused" sh -c "
	test $? -eq 2 && grep -q '^$tmp/m-cut.csv:1: no .# costs borrowed for. line, but ' '$tmp/err'"
grep -v '^# costs borrowed for \|^# machine: ' "$tmp/m.csv" >"$tmp/m-old.csv"
"$ppsim" report "$tmp/m-old.csv" --format json >"$tmp/r-old.json" 2>"$tmp/err"
test $? -eq 0 && has "\"costs_borrowed\": \"$text\"" "$tmp/r-old.json"
check "report: a CSV older than the marking taken, the scenario's marking said" test $? -eq 0
"$ppsim" run "$seed" --case close-drop --reps 1 --duration 1ms --format csv >"$tmp/own.csv" 2>>"$tmp/out"
sed '/^# machine: /a # costs borrowed for a zen4 core: forged' "$tmp/own.csv" >"$tmp/own-forged.csv"
"$ppsim" report "$tmp/own-forged.csv" >/dev/null 2>"$tmp/err"
check "report: a marking the scenario does not borrow refused" sh -c "
	test $? -eq 2 && grep -q 'own-forged.csv:3: .*now borrows none: not the scenario it ran' '$tmp/err'"
"$ppsim" validate "$seed" $b >"$tmp/v.txt" 2>>"$tmp/out"
"$ppsim" validate "$seed" $b --format csv >"$tmp/v.csv" 2>>"$tmp/out"
"$ppsim" validate "$seed" $b --format json >"$tmp/v.json" 2>>"$tmp/out"
has "# costs borrowed for $text" "$tmp/v.txt" && has ": costs borrowed for $text" "$tmp/v.csv" &&
	has "\"costs_borrowed\": \"$text\"" "$tmp/v.json"
check "validate: under the file's header, in its CSV and JSON" test $? -eq 0
# the tables that hold another family's figures say so: a profile of
# their own core that includes them runs on borrowed costs
for t in sunny-cove:sunny_cove:broadwell golden-cove:golden_cove:broadwell zen3:zen3:zen4; do
	file=${t%%:*} own=${t#*:}; own=${own%%:*} whose=${t##*:}
	printf '[global]\ninclude = %s\ninclude = %s\n[cpu]\nfamily = %s\n[case a]\n' \
		"$src/scenarios/hw/e5-2603v4-2s.ini" \
		"$src/scenarios/hw/cost-$file.ini" "$own" >"$tmp/own.ini"
	"$ppsim" run "$tmp/own.ini" --reps 1 --duration 1ms >"$tmp/own.txt" 2>>"$tmp/out"
	check "cost-$file.ini: $whose's figures, borrowed for a $own core" \
		grep -qxF "# costs borrowed for a $own core: $whose's cost table" "$tmp/own.txt"
done
"$ppsim" validate "$seed" $b --format commit >"$tmp/v.commit" 2>>"$tmp/out"
tr '\n' ' ' <"$tmp/v.commit" >"$tmp/v.joined"
sed -n 1p "$tmp/v.commit" | grep -qx 'Machine: Dell R730, .*' &&
	grep -qx 'Rests on [0-9]* guessed or prior figures and uncalibrated cycles\.' "$tmp/v.commit" &&
	has "Costs borrowed for $text." "$tmp/v.joined" &&
	! awk 'length > 72 { bad = 1 } END { exit !bad }' "$tmp/v.commit"
check "validate, commit: run's Machine:, Rests on and Costs borrowed lines" test $? -eq 0
# the seed on its own core: nothing said
"$ppsim" run "$seed" --case close-drop --reps 1 --duration 1ms --format json >"$tmp/n.json" 2>>"$tmp/out"
check "the seed on its own core: nothing borrowed, calibrated" sh -c "
	! grep -q costs_borrowed '$tmp/n.json' && grep -q '\"uncalibrated\": false' '$tmp/n.json'"

# ---- each driver cost by the calibration it came from ----
# an 8380 of one's own: the profile, the Sunny Cove fit of rx_pkt
# (pagecache-8380.cal.ini), XDP_DROP alone: rx_pkt is fitted on its core
sc=$src/scenarios
printf '[global]\ninclude = %s\ninclude = %s\npolicies = v6.12\nirq_cpu = 0\n[case drop]\nworkload = xdp_drop\n' \
	"$sc/hw/xeon-8380-2s.ini" "$sc/pagecache-8380.cal.ini" >"$tmp/drop8380.ini"
"$ppsim" run "$tmp/drop8380.ini" --reps 1 --duration 1ms --format json \
	>"$tmp/d8.json" 2>>"$tmp/out"
check "XDP_DROP on rx_pkt fitted on its core: calibrated (the table borrowed)" \
	sh -c "grep -q '\"uncalibrated\": false' '$tmp/d8.json' &&
	       grep -q 'broadwell.s cost table\"' '$tmp/d8.json'"
# a TCP case beside it reads cost.stack, the profile's prior
printf '[case tcp]\nworkload = tcp\npkt_size = 1514\n' >>"$tmp/drop8380.ini"
"$ppsim" run "$tmp/drop8380.ini" --reps 1 --duration 1ms --format json \
	>"$tmp/t8.json" 2>>"$tmp/out"
check "a TCP case on the profile's stack cycles: uncalibrated" \
	grep -q '"uncalibrated": true' "$tmp/t8.json"
# the seed's TCP fit of cost.stack (Broadwell's) before or after the
# Sunny Cove fit of rx_pkt: fitted on broadwell either way
for order in "pagecache-8380 mlx5-cx4-tcp" "mlx5-cx4-tcp pagecache-8380"; do
	set -- $order
	printf '[global]\ninclude = %s\ninclude = %s.cal.ini\ninclude = %s.cal.ini\npolicies = v6.12\nirq_cpu = 0\n[case tcp]\nworkload = tcp\npkt_size = 1514\n' \
		"$sc/hw/xeon-8380-2s.ini" "$sc/$1" "$sc/$2" >"$tmp/$1.ini"
	"$ppsim" run "$tmp/$1.ini" --reps 1 --duration 1ms 2>>"$tmp/out" |
		grep '^# costs borrowed' >"$tmp/$1.said"
done
check "the stack fitted on broadwell is said whatever the includes' order" \
	sh -c "grep -q 'driver cycles fitted on broadwell' '$tmp/pagecache-8380.said' &&
	       grep -q 'driver cycles fitted on broadwell' '$tmp/mlx5-cx4-tcp.said'"
