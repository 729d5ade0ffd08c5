#!/bin/sh
# What run, validate and compare say about before and after: delta%
# against the baseline policy (the key baseline), --format commit, ppsim
# compare, the provenance (the CSV's '#' lines, err% withheld under
# --set, resolved.ini read back), and the progress bar only on a
# terminal.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
echo "1..63"

time_limit=60	# fails (tests/tap.sh): each command within 60 s
# rate CSV CASE POLICY FIELD: a rate line's field (5 value, 6 ci95,
# 8 error_pct, 9 delta_pct)
rate() { awk -F, -v c="$2" -v p="$3" -v f="$4" '$1 == c && $2 == p && $3 == "rate" { print $f }' "$1"; }

# ---- delta% against the first policy ----
"$ppsim" run "$tiny" --reps 2 --format csv >"$tmp/a.csv" 2>"$tmp/out"
check "delta_pct: (v5.5 - v5.4) / v5.4 in %, the baseline's 0" \
	awk -v a="$(rate "$tmp/a.csv" far-drop v5.4 5)" -v b="$(rate "$tmp/a.csv" far-drop v5.5 5)" \
	    -v d="$(rate "$tmp/a.csv" far-drop v5.5 9)" -v z="$(rate "$tmp/a.csv" far-drop v5.4 9)" \
	    'BEGIN { want = (b - a) / a * 100; exit !(a > 0 && z == 0 && d - want < 1e-3 && want - d < 1e-3 && d > 1) }'
"$ppsim" run "$tiny" --reps 1 --case far-drop >"$tmp/t.txt" 2>"$tmp/out"
check "the table: base on the baseline's row, the change on the other's" \
	sh -c "grep -Eq '^far-drop +v5.4 .* base ' '$tmp/t.txt' && grep -Eq '^far-drop +v5.5 .* \+[0-9.]+ ' '$tmp/t.txt'"

# ---- --explain: where a packet's time went, before and after ----
mkdir -p "$tmp/ex"
"$ppsim" run "$tiny" --reps 1 --case far-drop --explain --out "$tmp/ex" >"$tmp/x.txt" 2>"$tmp/out"
check "--explain: the case's policies side by side, the wait by what and where" sh -c "
	grep -Eq '^far-drop +v5.4 +v5.5\$' '$tmp/x.txt' &&
	grep -Eq '^  waited for +served from +n/pkt +ns/pkt +n/pkt +ns/pkt\$' '$tmp/x.txt' &&
	grep -Eq '^  packet page +remote DRAM +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\$' '$tmp/x.txt'"
# the table's stall, cpu_ns and idle columns: the explanation's totals,
# its classes adding up to its wait, and all three to the packet's time
check "--explain: its classes add up to the table's stall; work, idle and wait to the packet's time" \
	awk '/^far-drop +v5.[45] .* Mpps / { st[$2] = $10; cpu[$2] = $9; idle[$2] = $11 }
	     /^  waited on memory/ { w4 = $4; w5 = $5 }
	     /^  worked/ { c4 = $2; c5 = $3 }
	     /^  a packet, all told/ { t4 = $5; t5 = $6 }
	     /^  [a-z].* (own L2|local LLC|remote cache|local DRAM|remote DRAM) / { s4 += $(NF - 2); s5 += $NF }
	     function near(a, b) { return a - b < 0.25 && b - a < 0.25 }
	     END { exit !(near(w4, st["v5.4"]) && near(w5, st["v5.5"]) &&
			  near(s4, w4) && near(s5, w5) && near(c4, cpu["v5.4"]) &&
			  near(t4, c4 + w4 + idle["v5.4"]) && near(t5, c5 + w5 + idle["v5.5"]) && w4 > w5) }' "$tmp/x.txt"
check "--out writes explain.txt, the same lines" sh -c "
	grep -q '^  a packet, all told' '$tmp/ex/explain.txt' &&
	sed -n '/^# why/,\$p' '$tmp/x.txt' | diff - '$tmp/ex/explain.txt'"
check "--out writes every format of the one run: table.txt is the table printed" sh -c "
	sed '/^# why/,\$d' '$tmp/x.txt' | diff - '$tmp/ex/table.txt' &&
	grep -q '^far-drop *| ' '$tmp/ex/commit.txt' && grep -q '\"rows\": \\[' '$tmp/ex/results.json'"
"$ppsim" run "$tiny" --reps 1 --duration 1ms --policy v5.4 --out "$tmp/one-pol" >/dev/null 2>&1
check "--out of one policy: commit.txt says there is no before/after" \
	grep -qx 'No before/after: no case ran its baseline policy and another.' "$tmp/one-pol/commit.txt"
"$ppsim" run "$tiny" --reps 1 --case far-drop --format json >"$tmp/x.json" 2>"$tmp/out"
check "... results.json is --format json's" sh -c "
	sed 's/\"commit\": \"[^\"]*\"//' '$tmp/x.json' >'$tmp/x1' &&
	sed 's/\"commit\": \"[^\"]*\"//' '$tmp/ex/results.json' | diff '$tmp/x1' -"
check "--format json: each row's explanation, by what and where" \
	grep -Eq '\"explain\": \{\"packet page\": \{.*\"remote DRAM\": \{\"n\": [0-9.e-]+, \"ns\": [0-9.e-]+\}' "$tmp/x.json"

# ---- baseline = POLICY ----
sed 's/^policies = v5.4 v5.5$/policies = v5.4 v5.5\nbaseline = v5.5/' "$tiny" >"$tmp/base.ini"
sed -i "s#\.\./\.\./scenarios#$src/scenarios#" "$tmp/base.ini"
"$ppsim" run "$tmp/base.ini" --reps 2 --format csv >"$tmp/b.csv" 2>"$tmp/out"
check "baseline = v5.5: v5.4's change is against v5.5" \
	awk -v d4="$(rate "$tmp/b.csv" far-drop v5.4 9)" -v d5="$(rate "$tmp/b.csv" far-drop v5.5 9)" \
	    'BEGIN { exit !(d5 == 0 && d4 < -1) }'
sed 's/^baseline = v5.5$/baseline = v9.9/' "$tmp/base.ini" >"$tmp/bad.ini"
line=$(grep -n '^baseline' "$tmp/bad.ini" | cut -d: -f1)
check "baseline naming an unknown policy: FILE:LINE, exit 2" \
	fails 2 "bad.ini:$line: baseline: unknown policy 'v9.9'" "$ppsim" run "$tmp/bad.ini"
sed 's/^baseline = v5.5$/baseline = v6.1/' "$tmp/base.ini" >"$tmp/out-of.ini"
check "baseline not among the case's policies: FILE:LINE, exit 2" \
	fails 2 "out-of.ini:$line: baseline v6.1 is not among the policies" "$ppsim" run "$tmp/out-of.ini"

# ---- --format commit ----
"$ppsim" run "$tiny" --reps 1 --format commit >"$tmp/c.txt" 2>"$tmp/out"
check "--format commit: Before | After, at most 72 columns" \
	sh -c "grep -q '^Case .*| Before .*| After ' '$tmp/c.txt' && grep -Eq '^far-drop +\| +[0-9.]+ Mpps \| +[0-9.]+ Mpps \| +\+[0-9.]+ % \| \+31.8 %' '$tmp/c.txt' && awk 'length > 72 { exit 1 }' '$tmp/c.txt'"
check "--format commit with one policy: nothing to compare, said, exit 2" \
	fails 2 'no case runs its baseline policy and another' "$ppsim" run "$tiny" --policy v5.5 --format commit
# the seed's own columns: label_columns over every case's label cells
sed -e 's/^policies = v5.4 v5.5$/policies = v5.4 v5.5\nlabel_columns = NUMA | XDP/' \
    -e 's/^\[case far-drop\]$/[case far-drop]\nlabel = Far | Drop/' \
    -e 's/^\[case close-drop\]$/[case close-drop]\nlabel = Close | Drop/' \
    -e "s#\.\./\.\./scenarios#$src/scenarios#" "$tiny" >"$tmp/label.ini"
"$ppsim" run "$tmp/label.ini" --reps 1 --format commit >"$tmp/l.txt" 2>"$tmp/out"
check "--format commit with labels: NUMA | XDP | Before | After" \
	sh -c "grep -Eq '^NUMA +\| XDP +\| Before ' '$tmp/l.txt' && grep -Eq '^Far +\| Drop +\| +[0-9.]+ Mpps \| +[0-9.]+ Mpps \| +\+[0-9.]+ % \| \+31.8 %' '$tmp/l.txt'"
sed 's/^label = Far | Drop$/label = Far/' "$tmp/label.ini" >"$tmp/label-bad.ini"
line=$(grep -n '^label = Far$' "$tmp/label-bad.ini" | cut -d: -f1)
check "a label with fewer cells than label_columns: FILE:LINE, exit 2" \
	fails 2 "label-bad.ini:$line: label 'Far' has 1 cells, label_columns 'NUMA \| XDP' 2 headers: give as many" "$ppsim" run "$tmp/label-bad.ini"
sed 's/^label = Far | Drop$/label = a|b|c|d|e|f/' "$tmp/label.ini" >"$tmp/label-six.ini"
sed -e 's/^label = Far | Drop$/label = a|b/' -e '/^label_columns = /d' "$tmp/label.ini" >"$tmp/label-nocol.ini"
check "a label of 2 cells and no label_columns is said so (it said label_columns '' 0 headers)" \
	fails 2 "label-nocol.ini:$((line - 1)): label 'a\|b' has 2 cells and no label_columns names them" "$ppsim" run "$tmp/label-nocol.ini"
check "a label of 6 cells is said to have 6 (the count went to 5 and stopped)" \
	fails 2 "label-six.ini:$line: label 'a\|b\|c\|d\|e\|f' has 6 cells" "$ppsim" run "$tmp/label-six.ini"
"$ppsim" validate "$tiny" --reps 1 --format commit >"$tmp/v.txt" 2>"$tmp/out"
check "validate --format commit: measured and predicted changes" \
	sh -c "grep -Eq '^far-drop +\\| v5.4 -> v5.5 +\\| +\\+31.8 % \\| +\\+[0-9.]+ % \\| +[-+][0-9.]+( [*!])?\$' '$tmp/v.txt' &&
		test \$(awk '{ if (length > m) m = length } END { print m }' '$tmp/v.txt') -le 72"

# a case with its own baseline: its table says its own before and after
printf '[global]\ninclude = %s\n[case far-drop]\nbaseline = v5.5\n' "$tiny" >"$tmp/own.ini"
"$ppsim" run "$tmp/own.ini" --reps 1 --duration 1ms --format commit >"$tmp/own.txt" 2>"$tmp/out"
check "--format commit: a table per (before, after) pair, labelled with it" sh -c "
	grep -qx 'Before: v5.4, after: v5.5.' '$tmp/own.txt' &&
	grep -qx 'Before: v5.5, after: v5.4.' '$tmp/own.txt' &&
	test \$(grep -c '^Before: ' '$tmp/own.txt') -eq 2"
# more than two policies: one table, a column each, the measured change
# where the scenario has both figures; --policy chooses the policies (one
# the file does not list too) and the first is the baseline
"$ppsim" run "$tiny" --policy v5.4 --policy v5.5 --policy v6.12 --reps 1 \
	--duration 1ms --format commit >"$tmp/three.txt" 2>"$tmp/out"
check "--format commit, three policies: one table, each against the first" sh -c "
	test \$(grep -c '^ppsim ' '$tmp/three.txt') -eq 1 &&
	grep -q '| v5.4 *| v5.5 *|  Change | Measured | v6.12 *|  Change\$' '$tmp/three.txt' &&
	grep -qx 'Each change against v5.4.' '$tmp/three.txt'"
"$ppsim" run "$tiny" --policy v5.5 --policy v5.4 --reps 1 --duration 1ms \
	--format commit >"$tmp/swap.txt" 2>"$tmp/out"
check "--policy: the first given is the baseline" \
	grep -qx 'Before: v5.5, after: v5.4.' "$tmp/swap.txt"
check "--policy of eras the file has no figure of: run, the figures left out said" \
	fails 0 'tiny.ini: note: 2 measured figures of policies not run \(--policy, --set policies=\) left out' \
	"$ppsim" run "$tiny" --policy v5.5 --policy v6.12 --reps 1 --duration 1ms
check "--policy and --set policies= both: refused, exit 2" \
	fails 2 'both choose the policies' "$ppsim" run "$tiny" --policy v5.5 --set "policies=v5.4 v5.5"
check "--policy of a policy ppsim lacks: said, exit 2" \
	fails 2 '^--policy v9.9: no such policy' "$ppsim" run "$tiny" --policy v9.9
# a change past 999 % fits its column
printf '[global]\ninclude = %s\n[case far-drop]\nmeasured = v5.4:0.001 v5.5:100\n' "$tiny" >"$tmp/huge.ini"
check "--format commit: a change past 999 %% is '>999 %%', the table within 72 columns" sh -c "
	'$ppsim' run '$tmp/huge.ini' --case far-drop --reps 1 --duration 1ms --format commit >'$tmp/h1.txt' 2>/dev/null &&
	'$ppsim' validate '$tmp/huge.ini' --case far-drop --reps 1 --duration 1ms --format commit >'$tmp/h2.txt' 2>/dev/null
	grep -q '>999 %' '$tmp/h1.txt' && grep -q '>999 %' '$tmp/h2.txt' &&
	test \$(cat '$tmp/h1.txt' '$tmp/h2.txt' | awk '{ if (length > m) m = length } END { print m }') -le 72"

# ---- compare ----
"$ppsim" run "$tiny" --reps 2 --set nic.rx_ring=256 --format csv >"$tmp/r256.csv" 2>"$tmp/out"
# B: another machine's run, one rate made 1.5 times A's (beyond any CI)
awk -F, -v OFS=, '$1 == "far-drop" && $2 == "v5.5" && $3 == "rate" { $5 *= 1.5 } 1' "$tmp/r256.csv" >"$tmp/b2.csv"
"$ppsim" compare "$tmp/a.csv" "$tmp/b2.csv" >"$tmp/cmp.txt" 2>"$tmp/out"
# every row's change and verdict, from the two CSVs' own figures
awk -F, 'FNR == 1 { f++ } $3 == "rate" { v[f, $1 " " $2] = $5; c[f, $1 " " $2] = $6 }
	 END { for (k in v) { split(k, p, SUBSEP); if (p[1] != 1) continue; r = p[2]
		a = v[1, r]; b = v[2, r]; d = b - a; if (d < 0) d = -d
		printf "%s %.1f %s\n", r, (b - a) / a * 100, (d > c[1, r] + c[2, r]) ? "yes" : "no" } }' \
	"$tmp/a.csv" "$tmp/b2.csv" | sort >"$tmp/want"
awk '$2 ~ /^v5/ { printf "%s %s %.1f %s\n", $1, $2, $(NF - 1), $NF }' "$tmp/cmp.txt" | sort >"$tmp/got"
check "compare: every rate of A beside B's, the change and the CIs' verdict" \
	sh -c "test \$(wc -l <'$tmp/want') -eq 6 && grep -q ' yes$' '$tmp/want' && grep -q ' no$' '$tmp/want' && diff '$tmp/want' '$tmp/got'"
check "compare: six rows of each, matched" \
	test "$(grep -c -e ' v5.4 ' -e ' v5.5 ' "$tmp/cmp.txt")" -eq 6
# the same pairs as CSV and JSON: the table's figures, each in its field
"$ppsim" compare "$tmp/a.csv" "$tmp/b2.csv" --format csv >"$tmp/cmp.csv" 2>"$tmp/out"
awk -F, 'NR > 3 { printf "%s %s %.1f %s\n", $1, $2, $8, $9 }' "$tmp/cmp.csv" | sort >"$tmp/got.csv"
check "compare --format csv: a row each, its key's fields, the change and verdict as the table's" sh -c "
	sed -n 3p '$tmp/cmp.csv' | grep -qx 'case,policy,unit,a,a_ci95,b,b_ci95,delta_pct,beyond_cis' &&
	diff '$tmp/want' '$tmp/got.csv'"
"$ppsim" compare "$tmp/a.csv" "$tmp/b2.csv" --format json >"$tmp/cmp.json" 2>"$tmp/out"
check "compare --format json: one object, a row each with a, b, delta_pct, beyond_cis" sh -c "
	test \$(grep -c '^  {\"case\": \"[a-z-]*\", \"policy\": \"v5.[45]\", \"unit\": \"Mpps\", \"a\": {\"value\": [0-9.]*, \"ci95\": [0-9.]*}, \"b\": {.*}, \"delta_pct\": -\?[0-9.]*, \"beyond_cis\": \(true\|false\)}' '$tmp/cmp.json') -eq 6 &&
	grep -q '\"beyond_cis\": true' '$tmp/cmp.json' && tail -1 '$tmp/cmp.json' | grep -qx ']}'"
check "compare --format xml: said, exit 2" \
	fails 2 'format xml: expected table, csv or json' "$ppsim" compare "$tmp/a.csv" --pair v5.4=v5.5 --format xml
# --pair: a policy against another, in one file or across two
"$ppsim" compare "$tmp/a.csv" --pair v5.4=v5.5 >"$tmp/pair.txt" 2>"$tmp/out"
want=$(awk -F, '$3 == "rate" && $2 == "v5.5" && $1 == "far-drop" { print $9 }' "$tmp/a.csv")
check "compare --pair v5.4=v5.5 in one file: every case's change, as run's delta% ($want)" sh -c "
	test \$(grep -c '^[a-z-]* v5.4 ' '$tmp/pair.txt') -eq 3 &&
	awk -v w='$want' '\$1 == \"far-drop\" { d = \$(NF - 1) - w; exit !(d < 0.06 && d > -0.06) }' '$tmp/pair.txt'"
check "compare --pair across two files pairs the policies" sh -c "
	'$ppsim' compare '$tmp/a.csv' '$tmp/b2.csv' --pair v5.4=v5.5 | grep -c '^[a-z-]* v5.4 ' | grep -qx 3"
check "compare --pair without '=': said, exit 2" \
	fails 2 "--pair v5.4: not POLICY=POLICY" "$ppsim" compare "$tmp/a.csv" --pair v5.4
"$ppsim" run "$tiny" --set cpu.family=zen4 --reps 1 --duration 1ms --case far-drop --format csv >"$tmp/zen.csv" 2>/dev/null
check "compare says a side's costs are borrowed, as its CSV does" sh -c "
	'$ppsim' compare '$tmp/a.csv' '$tmp/zen.csv' | grep -qx '# B: costs borrowed for a zen4 core: broadwell.s cost table' &&
	! '$ppsim' compare '$tmp/a.csv' '$tmp/zen.csv' | grep -q '^# A: costs borrowed'"
check "compare --pair of a policy against itself in one file: said, exit 2" \
	fails 2 "--pair v5.4=v5.4: a policy against itself in one file" "$ppsim" compare "$tmp/a.csv" --pair v5.4=v5.4
check "... and in one file named twice" \
	fails 2 "--pair v5.4=v5.4: a policy against itself in one file" "$ppsim" compare "$tmp/a.csv" "$tmp/a.csv" --pair v5.4=v5.4
check "compare --pair of a policy the file has not: its policies said, exit 2" \
	fails 2 "--pair: .*a.csv has no rate of policy v9.9 \\(it has v5.4 v5.5\\)" "$ppsim" compare "$tmp/a.csv" --pair v9.9=v5.5
row=$(($(grep -c '^#' "$tmp/a.csv") + 2))
sed "${row}s/,Mpps,[0-9.]*,/,Mpps,fast,/" "$tmp/a.csv" >"$tmp/word.csv"
check "compare: a value that is not a number is FILE:LINE, exit 2" \
	fails 2 "word.csv:$row: value 'fast' is not a number" "$ppsim" compare "$tmp/a.csv" "$tmp/word.csv"
for v in 0x10 ' 5' 1e308; do
	sed "${row}s/,Mpps,[0-9.]*,/,Mpps,$v,/" "$tmp/a.csv" >"$tmp/odd.csv"
	check "compare: a value ppsim does not write ('$v') is FILE:LINE, exit 2" \
		fails 2 "odd.csv:$row: value '$v' is not a number" "$ppsim" compare "$tmp/a.csv" "$tmp/odd.csv"
done
check "compare: a file that is not a ppsim CSV, exit 2" \
	fails 2 'passwd:1: not the header of a ppsim CSV' "$ppsim" compare /etc/passwd "$tmp/a.csv"
sed "${row}s/,rate,/,rate,x,/" "$tmp/a.csv" >"$tmp/fields.csv"
check "compare: a row with a field too many, exit 2" \
	fails 2 "fields.csv:$row: 10 fields where the header has 9" "$ppsim" compare "$tmp/fields.csv" "$tmp/a.csv"
# the same rate twice in a file; B's rate in another unit than A's
last=$(grep -c '' "$tmp/a.csv")
{ cat "$tmp/a.csv"; sed -n "${row}p" "$tmp/a.csv"; } >"$tmp/twice.csv"
check "compare: a rate twice is FILE:LINE of the second, exit 2" \
	fails 2 "twice.csv:$((last + 1)): the rate of .* again \(first at line $row\)" "$ppsim" compare "$tmp/twice.csv" "$tmp/a.csv"
sed "${row}s/,rate,Mpps,/,rate,Gbps,/" "$tmp/a.csv" >"$tmp/unit.csv"
check "compare: B's rate in another unit than A's: FILE:LINE, exit 2" \
	fails 2 "unit.csv:$row: the rate of .* in Gbps, .*a.csv has it in Mpps" "$ppsim" compare "$tmp/a.csv" "$tmp/unit.csv"

# ---- provenance ----
check "the CSV starts with '# ' provenance: version, git commit, machine, seed" \
	sh -c "head -2 '$tmp/r256.csv' | grep -q '^# ppsim .* (git [^)]*)  run ' && sed -n 2p '$tmp/r256.csv' | grep -q '^# machine: Dell R730' && sed -n 3p '$tmp/r256.csv' | grep -q '^# seed 1  reps 2  duration 4ms  set nic.rx_ring=256$'"
# the commit the binary was built from, not the one configure saw
want=unknown
if command -v git >/dev/null && test -e "$src/.git"; then
	want=$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown)
fi
check "the provenance names the commit built ($want)" \
	sh -c "head -1 '$tmp/r256.csv' | grep -qF '(git $want)'"
check "--set changed the machine: no error_pct, and a note saying why" \
	sh -c "test -z \"\$(awk -F, '\$3 == \"rate\" && \$8 != \"\"' '$tmp/r256.csv')\" && grep -q '^# err%: not computed' '$tmp/r256.csv' && test -n \"\$(awk -F, '\$3 == \"rate\" && \$8 != \"\"' '$tmp/a.csv')\""
# what the figures rest on, said in the outputs themselves, not only on
# stderr: the provenance, the JSON and the commit table
"$ppsim" run "$tiny" --case far-drop --reps 1 --duration 1ms --format json >"$tmp/g.json" 2>"$tmp/out"
"$ppsim" run "$tiny" --case far-drop --reps 1 --duration 1ms --format commit >"$tmp/g.txt" 2>>"$tmp/out"
"$ppsim" run "$tiny" --case far-drop --reps 1 --duration 1ms --format csv >"$tmp/g.csv" 2>>"$tmp/out"
check "guesses and uncalibrated cycles said in the CSV, the JSON and the commit table" sh -c "
	grep -Eq '^# rests on [1-9][0-9]* guessed or prior figures and uncalibrated cycles' '$tmp/g.csv' &&
	grep -Eq '\"guesses\": [1-9][0-9]*, \"uncalibrated\": true' '$tmp/g.json' &&
	grep -Eq '^Rests on [1-9][0-9]* guessed or prior figures and uncalibrated cycles\.$' '$tmp/g.txt'"
# a patch's before and after beside a measured era: --set policies runs
# them, the figures of the eras left out are said, err% still computed
"$ppsim" run "$src/scenarios/mlx5-cx4-numa.ini" --case far-drop --reps 1 --duration 2ms \
	--set "policies=v5.5 v6.12" --format csv >"$tmp/pol.csv" 2>"$tmp/out"; rc=$?
check "--set policies= on a measured file: run, the figure of the era left out said" \
	sh -c "test $rc -eq 0 && grep -q 'mlx5-cx4-numa.ini: note: 1 measured figure of policies not run (--policy, --set policies=) left out' '$tmp/out'"
check "... and err% computed: the machine measured is the one run" \
	sh -c "! grep -q '^# err%: not computed' '$tmp/pol.csv' && grep -q '^far-drop,v5.5,rate,Mpps,[0-9.]*,,5.8,-\\?[0-9.]' '$tmp/pol.csv'"
"$ppsim" run "$tiny" --reps 1 --set nic.rx_ring=512 --format csv --out "$tmp/o" >"$tmp/o.csv" 2>"$tmp/out"
if command -v gnuplot >/dev/null; then
	check "a case's transient is titled with its own workload (far-tx: XDP_TX alone)" sh -c "
		grep -q 'far-tx: XDP_TX 60 B on' '$tmp/o/transient-far-tx.svg' &&
		grep -q 'far-drop: XDP_DROP 60 B on' '$tmp/o/transient-far-drop.svg'"
	# a user's machine over a shipped profile is titled by its figures
	printf '[global]\ninclude = %s\npolicies = v5.5\n[cpu]\ncores = 20\nfreq = 2.5GHz\n[case c]\nworkload = xdp_drop\n' \
		"$src/scenarios/hw/e5-2603v4-2s.ini" >"$tmp/gold.ini"
	"$ppsim" run "$tmp/gold.ini" --reps 1 --duration 1ms --out "$tmp/gold" >/dev/null 2>"$tmp/out"
	check "a machine the scenario changed is titled by its figures, not the profile's name" sh -c "
		grep -q 'XDP_DROP 60 B on 2 x 20 cores, 2.5 GHz' '$tmp/gold/rates.svg' &&
		! grep -q 'e5-2603v4-2s' '$tmp/gold/rates.svg'"
else
	ok "# SKIP no gnuplot: no transient plot"
	ok "# SKIP no gnuplot: no plot title"
fi
"$ppsim" run "$tmp/o/resolved.ini" --reps 1 --format csv >"$tmp/back.csv" 2>>"$tmp/out"
check "resolved.ini: every key as it ran; read back, the same figures" \
	sh -c "grep -q '^nic.rx_ring = 512$' '$tmp/o/resolved.ini' && grep -q '^# seed 1  reps 1' '$tmp/o/resolved.ini' && test -s '$tmp/back.csv' && grep -v '^#' '$tmp/back.csv' | cut -d, -f1-7 >'$tmp/back.f' && grep -v '^#' '$tmp/o.csv' | cut -d, -f1-7 | cmp - '$tmp/back.f'"

# ---- plots: gnuplot's warnings on a plot it drew are not the user's ----
# (cases without measured figures or a consumer give it empty series)
"$ppsim" run "$src/scenarios/return-paths.ini" --case cpumap-close \
	--case tcp-app-far --reps 1 --duration 1ms --quiet --out "$tmp/rp" \
	>/dev/null 2>"$tmp/out"; rc=$?
# (a sanitizer build's own notes on SimGrid's stack switches aside)
grep -Ev '^==[0-9]+==WARNING: ASan is ignoring|^False positive error reports|^For details see https://github.com/google/sanitizers' \
	"$tmp/out" >"$tmp/said"
check "--out: plots drawn, nothing on stderr" \
	sh -c "test $rc -eq 0 && test -s '$tmp/rp/rates.png' && test ! -s '$tmp/said'"

# four policies: their change labels, wider than a bar, in two rows; the
# third and fourth policy's labels over the first case's equal bars stand
# at different heights
"$ppsim" run "$tiny" --set "policies=v5.4 v5.5 v6.1 v6.12" --reps 1 --duration 1ms \
	--quiet --out "$tmp/p4" >/dev/null 2>&1
check "rates plot, 4 policies: neighbours' change labels in two rows" sh -c "
	awk '/translate\\(/ { match(\$0, /translate\\([0-9.]+,[0-9.]+\\)/); t = substr(\$0, RSTART + 10, RLENGTH - 11) }
	     /<text>[^<]*%\\)?<\\/text>/ { split(t, xy, \",\"); x[n + 0] = xy[1]; y[n++ + 0] = xy[2] }
	     END { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
			if ((x[i] - x[j])^2 < 60^2 && (y[i] - y[j])^2 < 8^2) bad++
		   exit !(n >= 9 && !bad) }' '$tmp/p4/rates.svg'"

# ...but when it fails, what it said comes first (a script that plots a
# file that is not there, from a data directory of its own)
mkdir -p "$tmp/dd"
cp -r "$src/plots" "$src/scenarios" "$tmp/dd/"
echo 'plot "/nonexistent/file" using 1:2' >>"$tmp/dd/plots/rates.gp"
PPSIM_DATADIR="$tmp/dd" "$ppsim" run "$tiny" --reps 1 --quiet --out "$tmp/bad" \
	>/dev/null 2>"$tmp/out"
check "a plot gnuplot failed: its words, then ppsim's, exit 1, no file written" \
	sh -c "test $? -eq 1 && grep -q 'No data in plot' '$tmp/out' && tail -2 '$tmp/out' | head -1 | grep -q 'ppsim: gnuplot failed on .*rates.gp' &&
	tail -1 '$tmp/out' | grep -q 'bad: no file written there' && test -z \"\$(ls -A '$tmp/bad')\""

# ---- the sweep plot's data: the measured figure where it was measured ----
"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1024 --case far-drop --reps 1 --out "$tmp/sw" >/dev/null 2>"$tmp/out"
check "sweep-rate.dat: the measurement at the scenario's own rx_ring only" \
	awk '/^# far-drop v5.4$/ { s = 1; next } /^#/ { s = 0 } s && $1 == 256 { a = $4 } s && $1 == 1024 { b = $4 }
	     END { exit !(a == "nan" && b == 4.4) }' "$tmp/sw/sweep-rate.dat"

# ---- rx queues: the slowest and the fastest, under the table ----
"$ppsim" run "$tiny" --case close-drop --policy v5.4 --reps 1 --set queues=2 \
	--format csv >"$tmp/q2.csv" 2>"$tmp/out"
check "queue_min + queue_max of two queues: the packets of the window" \
	awk -F, '$3 == "packets" { p = $5 } $3 == "queue_min" { a = $5 } $3 == "queue_max" { b = $5 }
	     END { d = a + b - p; exit !(p > 0 && a > 0 && a <= b && d * d < (p / 1000) ^ 2) }' "$tmp/q2.csv"
"$ppsim" run "$tiny" --case close-drop --policy v5.4 --reps 1 >"$tmp/q1.txt" 2>&1
"$ppsim" run "$tiny" --case close-drop --policy v5.4 --reps 1 --set queues=2 >"$tmp/q2.txt" 2>&1
check "the rx queues section: for a case of several queues only" \
	sh -c "! grep -q '^# rx queues' '$tmp/q1.txt' && grep -A1 '^# rx queues' '$tmp/q2.txt' | grep -q '^case .* q_min  *q_max' && grep -A2 '^# rx queues' '$tmp/q2.txt' | grep -q '^close-drop  *v5.4  *[0-9.]*  *[0-9.]*'"

# a case where no packet comes in the time measured: every plot is drawn
printf '[global]\ninclude = %s\npolicies = v5.5\n[case idle]\nrate = 1pps\n' "$tiny" |
	sed 's|tiny.ini$|../../scenarios/hw/e5-2603v4-2s.ini|' >"$tmp/idle.ini"
"$ppsim" run "$tmp/idle.ini" --reps 1 --duration 1ms --out "$tmp/idle" >/dev/null 2>"$tmp/out"
check "rate = 1pps: no packet, its plots drawn all the same" \
	sh -c "test $? -eq 0 && test -s '$tmp/idle/rates.png' && test -s '$tmp/idle/transient-idle.svg' && ! grep -q gnuplot '$tmp/out'"

# ---- progress: on a terminal only, --quiet silences it ----
if command -v script >/dev/null; then
	script -qec "'$ppsim' run '$tiny' --reps 2 -j 2 >/dev/null" /dev/null >"$tmp/tty" 2>&1
	script -qec "'$ppsim' run '$tiny' --reps 2 -j 2 --quiet >/dev/null" /dev/null >"$tmp/quiet" 2>&1
	"$ppsim" run "$tiny" --reps 2 -j 2 >/dev/null 2>"$tmp/pipe"
	check "a bar with % and ETA on a terminal; none with --quiet or in a pipe" \
		sh -c "grep -q '100% 12/12 ETA' '$tmp/tty' && ! grep -q ETA '$tmp/quiet' && ! grep -q ETA '$tmp/pipe'"
else
	ok "# SKIP script(1) not installed: no terminal to test the bar on"
fi
