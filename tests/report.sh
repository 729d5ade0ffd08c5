#!/bin/sh
# ppsim report and validate --results: a run's CSV printed again in every
# format, or validated, nothing simulated, as run and validate print them;
# a CSV that is not a run's, or a scenario that no longer has its cases,
# said with FILE:LINE and exit 2.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
paths=$src/scenarios/return-paths.ini
echo "1..29"

# same NAME RUN-ARGS...: run in each format, and report of its CSV, equal
same() {
	name=$1
	shift
	"$ppsim" run "$@" --format csv >"$tmp/$name.csv" 2>"$tmp/out" || return 1
	for fmt in table commit csv json; do
		"$ppsim" run "$@" --format "$fmt" >"$tmp/run.$fmt" 2>>"$tmp/out" &&
		t "$ppsim" report "$tmp/$name.csv" --format "$fmt" \
			>"$tmp/report.$fmt" 2>>"$tmp/out" || return 1
		# JSON's explain: the accesses, which a CSV does not carry
		if [ "$fmt" = json ]; then
			cp "$tmp/report.json" "$tmp/$name.json"
			sed -Ei 's/"explain": (null|\{.*\})\}(,?)$/"explain": X}\2/' \
				"$tmp/run.json" "$tmp/report.json"
		fi
		cmp "$tmp/run.$fmt" "$tmp/report.$fmt" || return 1
	done
}
check "one file, two replications: table, commit, CSV and JSON as run's" \
	same one "$tiny" --reps 2 --duration 1ms
check "two files, --policy of an era the file lacks, a --set: as run's" \
	same two "$tiny" "$paths" --case far-drop --case veth-far --policy v5.5 \
		--policy v6.12 --set nic.rx_ring=512 --reps 1 --duration 1ms
check "JSON: the explain of a row read back is null, of each row" sh -c "
	test \$(grep -c '\"explain\": null}' '$tmp/two.json') -eq 4 &&
	test \$(grep -c '\"explain\": X}' '$tmp/run.json') -eq 4"

# the scenario given, where the CSV's path no longer names it
mkdir "$tmp/moved"
sed "s|^# ppsim \(.*\)  run .*|# ppsim \1  run nowhere/tiny.ini|" "$tmp/one.csv" >"$tmp/moved/r.csv"
"$ppsim" report "$tmp/one.csv" >"$tmp/want.txt" 2>"$tmp/out"
check "a SCENARIO operand stands in for the path the run named" sh -c "
	'$ppsim' report '$tmp/moved/r.csv' '$tiny' >'$tmp/got.txt' 2>'$tmp/out' &&
	sed 's|nowhere/tiny.ini|$tiny|' '$tmp/got.txt' | cmp - '$tmp/want.txt'"
check "... and without it, the path that names nothing is said, exit 2" \
	fails 2 'nowhere/tiny.ini' "$ppsim" report "$tmp/moved/r.csv"
check "a scenario for each file of the run, or none" \
	fails 2 'holds the results of 2 files: give 2 scenarios' "$ppsim" report "$tmp/two.csv" "$tiny"

# not a run's CSV
"$ppsim" sweep "$tiny" --set nic.rx_ring=512,1024 --case far-drop --reps 1 --duration 1ms \
	--format csv >"$tmp/sweep.csv" 2>"$tmp/out"
check "a sweep's CSV: not a run's, FILE:LINE, exit 2" \
	fails 2 'sweep.csv:1: not the results of ppsim run' "$ppsim" report "$tmp/sweep.csv"
# its last row cut in the middle, whatever the length of the lines above
head -c -10 "$tmp/one.csv" >"$tmp/cut.csv"
check "a file cut short: said where, exit 2" \
	fails 2 'cut.csv:[0-9]+: the line is cut short' "$ppsim" report "$tmp/cut.csv"
sed 's/^far-tx,/far-gone,/' "$tmp/one.csv" >"$tmp/gone.csv"
check "a case the scenario no longer has: its line, exit 2" \
	fails 2 'gone.csv:[0-9]+: far-gone under v5.4: .*tiny.ini runs no such case' "$ppsim" report "$tmp/gone.csv"
sed '/^# seed /s/duration=1ms/duration=1ms;x/' "$tmp/one.csv" >"$tmp/set.csv"
check "an override the scenario refuses: the CSV's line, exit 2" \
	fails 2 'set.csv:3: duration: ' "$ppsim" report "$tmp/set.csv"
sed 's/^close-drop,v5.4,cpu_time,ns\/pkt,[0-9.]*/close-drop,v5.4,cpu_time,ns\/pkt,1e999/' "$tmp/one.csv" >"$tmp/num.csv"
check "a figure no run writes: FILE:LINE, exit 2" \
	fails 2 'num.csv:[0-9]+: value' "$ppsim" report "$tmp/num.csv"

# validate --results: the run's figures, validated as validate would
vsame() {
	for fmt in table csv json commit; do
		"$ppsim" validate "$tiny" --reps 2 --duration 1ms --format "$fmt" \
			>"$tmp/v1.$fmt" 2>"$tmp/out"
		rc1=$?
		t "$ppsim" validate --results "$tmp/one.csv" --format "$fmt" \
			>"$tmp/v2.$fmt" 2>>"$tmp/out"
		[ $? -eq $rc1 ] && cmp "$tmp/v1.$fmt" "$tmp/v2.$fmt" || return 1
	done
}
check "validate --results: every format and the exit status as validate's" vsame
"$ppsim" run "$tiny" --case far-drop --reps 1 --duration 1ms --format csv >"$tmp/some.csv" 2>"$tmp/out"
check "validate --results of a run of some cases: those, the rest left out, said" sh -c "
	'$ppsim' validate --results '$tmp/some.csv' >'$tmp/v.txt' 2>'$tmp/out'
	grep -q 'note: 2 measured figures the run of .*some.csv did not run left out' '$tmp/out' &&
	grep -q '^# [0-2] of 2 figures over' '$tmp/v.txt'"
# a predicted rate of 0 before: no change to give, and no direction
sed 's/^far-drop,v5.4,rate,Mpps,[0-9.]*,[0-9.]*,/far-drop,v5.4,rate,Mpps,0,0,/' "$tmp/one.csv" >"$tmp/zero.csv"
check "validate: a change from a predicted rate of 0 is none, a mismatch, not flat" sh -c "
	'$ppsim' validate --results '$tmp/zero.csv' 2>'$tmp/out' >'$tmp/v.txt'
	grep -q 'far-drop *v5.4 -> v5.5: +31.8 % measured, - predicted, - points: measured up, predicted none (a rate of 0)  MISMATCH  OVER' '$tmp/v.txt' &&
	grep -q ' 1 direction mismatches (1 before/after' '$tmp/v.txt'"
check "validate --results with --set: refused, exit 2" \
	fails 2 'the run.s CSV says what ran' "$ppsim" validate --results "$tmp/one.csv" --set nic.rx_ring=512
check "... and with --seed (the run's is the CSV's)" \
	fails 2 'the run.s CSV says what ran' "$ppsim" validate --results "$tmp/one.csv" --seed 7
check "validate --results of a sweep's CSV: FILE:LINE, exit 2" \
	fails 2 'sweep.csv:1: not the results of ppsim run' "$ppsim" validate --results "$tmp/sweep.csv"

# what the run said of itself is the CSV's: the time it measured, what its
# figures rest on, its seed
sed '/^# seed /s/duration 1ms/duration 9ms/' "$tmp/one.csv" >"$tmp/dur.csv"
check "a scenario that no longer measures what the run did: the CSV's line, exit 2" \
	fails 2 'dur.csv:3: the run measured 9ms; .*tiny.ini now gives .* 1ms' "$ppsim" report "$tmp/dur.csv"
# the machine it ran on, its title: another name than the scenario's now
# is refused at its line; a CSV of no name (an older ppsim's) takes it
sed 's/^# machine: .*/# machine: Another box/' "$tmp/one.csv" >"$tmp/machine.csv"
check "a scenario that no longer names the run's machine: the CSV's line, exit 2" \
	fails 2 "machine.csv:$(line_of '^# machine' "$tmp/machine.csv"): the run was on 'Another box'; .*tiny.ini now names 'Dell R730, 2x Xeon E5-2603 v4, ConnectX-4 100G'" \
	"$ppsim" report "$tmp/machine.csv"
check "... validate --results too" \
	fails 2 "machine.csv:$(line_of '^# machine' "$tmp/machine.csv"): the run was on 'Another box'" \
	"$ppsim" validate --results "$tmp/machine.csv"
sed '/^# machine: /d' "$tmp/one.csv" >"$tmp/unnamed.csv"
check "a CSV of no machine line: read, titled with the scenario's name" sh -c "
	'$ppsim' report '$tmp/unnamed.csv' 2>'$tmp/out' | sed -n 2p |
		grep -qx '# machine: Dell R730, 2x Xeon E5-2603 v4, ConnectX-4 100G'"
sed 's/^# rests on [0-9]* guessed/# rests on 5 guessed/' "$tmp/one.csv" >"$tmp/rests.csv"
check "what the figures rested on: the run's (its CSV), not the scenario's now" sh -c "
	'$ppsim' report '$tmp/rests.csv' --format json 2>/dev/null | head -1 | grep -q '\"guesses\": 5, '"
sed '/^# seed /d' "$tmp/one.csv" >"$tmp/noseed.csv"
check "a provenance without its seed line: said, exit 2" \
	fails 2 "noseed.csv:1: no line '# seed S  reps R  duration D'" "$ppsim" report "$tmp/noseed.csv"
sed '/^# seed /s/# seed 1 /# seed -1 /' "$tmp/one.csv" >"$tmp/negseed.csv"
check "a seed that is no seed of a run: FILE:LINE, exit 2" \
	fails 2 'negseed.csv:3: not the seed' "$ppsim" report "$tmp/negseed.csv"
check "a rate of 0: no change to give, '-' (not nan)" sh -c "
	'$ppsim' run '$tiny' --set rate=1 --reps 1 --duration 1ms --format commit 2>/dev/null >'$tmp/zero.txt' &&
	grep -q '^far-drop .*|  *- | ' '$tmp/zero.txt' && ! grep -qi nan '$tmp/zero.txt'"
# a file cut at a line's end: a policy the run ran has no rows
grep -v '^far-drop,v5.5,' "$tmp/one.csv" >"$tmp/cut2.csv"
check "a (case, policy) the run ran, its rows gone: report refuses, exit 2" \
	fails 2 'cut2.csv:[0-9]+: far-drop under v5.5: no row, though the run ran it' "$ppsim" report "$tmp/cut2.csv"
check "... and so does validate --results" \
	fails 2 'cut2.csv:[0-9]+: far-drop under v5.5: no row' "$ppsim" validate --results "$tmp/cut2.csv"
check "validate --results: a case the scenario does not run, FILE:LINE, exit 2" \
	fails 2 'gone.csv:[0-9]+: far-gone under v5.4: .*runs no such case' "$ppsim" validate --results "$tmp/gone.csv"
printf '[global]\ninclude = %s\n[case a\tb]\n' "$tiny" >"$tmp/tab.ini"
check "a tab in a case's name, which no CSV reader takes back: refused at its line" \
	fails 2 'tab.ini:3: a tab in the section name' "$ppsim" run "$tmp/tab.ini" --dry-run
