#!/bin/sh
# ppsim sweep and merge: the cross product of values on two workers, one
# CSV for all points, a plot, named sweeps, jobs for elsewhere and their
# merge, and bad input.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
echo "1..56"

"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1024 --set driver.budget=32,64 \
	--case far-drop -j 2 --reps 1 --format csv --out "$tmp/o" >"$tmp/s.csv" 2>"$tmp/out"
check "a 2 x 2 sweep on two workers" test $? -eq 0
check "one CSV: the swept keys first, then run's columns" \
	grep -qx 'nic.rx_ring,driver.budget,case,policy,metric,unit,value,ci95,measured,error_pct,delta_pct' "$tmp/s.csv"
check "every point and policy has its rate" \
	sh -c "test \$(grep -c ',far-drop,v5.[45],rate,Mpps,' '$tmp/s.csv') -eq 8"
check "the same CSV in DIR" cmp "$tmp/s.csv" "$tmp/o/sweep.csv"
check "measured and error only at the scenario's own ring and budget (1024, 64)" \
	awk -F, '$5 == "rate" { own = $1 == 1024 && $2 == 64; if (own != ($9 != "" && $10 != "")) bad = 1; n += own }
	     END { exit bad || n != 2 }' "$tmp/s.csv"
# duration says how long a run measures, not what: the figure measured
# is every point's error bar (and a ring beside it still is not)
"$ppsim" sweep "$tiny" --set duration=2ms,4ms --set nic.rx_ring=256,1024 \
	--case far-drop --reps 1 --format csv >"$tmp/d.csv" 2>"$tmp/out"
check "swept duration: measured and error at every duration, at the own ring only" \
	awk -F, '$5 == "rate" { own = $2 == 1024; if (own != ($9 != "" && $10 != "")) bad = 1; n += own }
	     END { exit bad || n != 4 }' "$tmp/d.csv"
"$ppsim" sweep "$tiny" --set duration=2ms,4ms --case far-drop --reps 1 \
	>"$tmp/dt" 2>>"$tmp/out"
check "the provenance says how long each point measured: varies, or the time" sh -c "
	grep -q '^# seed 1  reps 1  duration varies\$' '$tmp/d.csv' &&
	grep -q ' seed 1  reps 1  duration varies\$' '$tmp/dt' &&
	grep -q '^# seed 1  reps 1  duration 4ms\$' '$tmp/s.csv'"
if command -v gnuplot >/dev/null 2>&1; then
	check "the rate plotted against the first key" test -s "$tmp/o/sweep.png" -a -s "$tmp/o/sweep.svg"
	"$ppsim" sweep "$tiny" --set nic.rx_ring=256,512 --case far-drop --reps 1 --out "$tmp/o2" >/dev/null 2>>"$tmp/out"
	# a profile without a [machine] name: the title says its file's
	mkdir "$tmp/hw" && sed '/^\[machine\]/,/^\[cpu\]/{/^\[cpu\]/!d}' \
		"$src/scenarios/hw/e5-2603v4-2s.ini" >"$tmp/hw/e5-2603v4-2s.ini"
	sed "s#^include = .*#include = hw/e5-2603v4-2s.ini#" "$tiny" >"$tmp/unnamed.ini"
	"$ppsim" sweep "$tmp/unnamed.ini" --set nic.rx_ring=256,512 --case far-drop --reps 1 --duration 1ms \
		--out "$tmp/o3" >/dev/null 2>>"$tmp/out"
	check "the key has 'measured' only where a point was measured; the title names the machine, else its profile" sh -c "
		grep -q '>measured<' '$tmp/o/sweep.svg' && ! grep -q '>measured<' '$tmp/o2/sweep.svg' &&
		grep -q 'on Dell R730, 2x Xeon E5-2603 v4, ConnectX-4 100G (ppsim' '$tmp/o2/sweep.svg' &&
		grep -q 'on e5-2603v4-2s (ppsim' '$tmp/o3/sweep.svg'"
else
	n=$((n + 1)); echo "ok $n - plot # SKIP gnuplot is not installed"
	n=$((n + 1)); echo "ok $n - the plot's key # SKIP gnuplot is not installed"
fi

"$ppsim" sweep "$tiny" ring --format csv >"$tmp/named.csv" 2>"$tmp/out"
check "a named sweep from the scenario" sh -c "test $? -eq 0 && grep -q '^256,far-drop,v5.4,rate,' '$tmp/named.csv' && grep -q '^1024,far-drop,v5.5,rate,' '$tmp/named.csv'"

# the table's ci95 column: '-' with one replication (no interval), as
# run's table has it, a number with two
"$ppsim" sweep "$tiny" --set nic.rx_ring=256 --case far-drop --reps 1 --duration 2ms >"$tmp/t1" 2>>"$tmp/out"
"$ppsim" sweep "$tiny" --set nic.rx_ring=256 --case far-drop --reps 2 --duration 2ms >"$tmp/t2" 2>>"$tmp/out"
check "the table's ci95: '-' with one replication, a number with two" \
	sh -c "grep -Eq '^256 +far-drop +v5.4 +[0-9.]+ Mpps +- ' '$tmp/t1' && grep -Eq '^256 +far-drop +v5.4 +[0-9.]+ Mpps +[0-9]+\.[0-9]{2} ' '$tmp/t2'"

"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1024 --case far-drop --emit-jobs >"$tmp/jobs" 2>"$tmp/out"
check "--emit-jobs: one command a point, the sweep again with --task" sh -c "test $? -eq 0 && test \$(wc -l <'$tmp/jobs') -eq 2 && grep -q \"set 'nic.rx_ring=256,1024' .*--task 2 --format csv > 'sweep-002.csv'\" '$tmp/jobs'"
# the jobs, each of which must succeed (sh -e), and their merge
(cd "$tmp" && sed "s#^ppsim #'$ppsim' #" jobs | sh -e) 2>"$tmp/out"
jobs_rc=$?
"$ppsim" merge "$tmp/sweep-001.csv" "$tmp/sweep-002.csv" >"$tmp/merged.csv" 2>>"$tmp/out"
check "merge joins the jobs' CSVs under one header" sh -c "test $jobs_rc -eq 0 && test $? -eq 0 && test \$(grep -c '^nic.rx_ring,' '$tmp/merged.csv') -eq 1 && grep -q '^256,far-drop' '$tmp/merged.csv' && grep -q '^1024,far-drop' '$tmp/merged.csv'"
"$ppsim" merge "$tmp/sweep-001.csv" "$tmp/s.csv" >/dev/null 2>"$tmp/out"
check "merge refuses CSVs of other sweeps, at the header" sh -c "test $? -eq 2 && grep -q 's.csv:$(line_of '^nic' "$tmp/s.csv"): its columns differ' '$tmp/out'"
# a job whose CSV has its header and no row (fuzz-merge's find: the
# sanitizers saw the empty list sorted): none of the sweep's points
grep -v '^[0-9]' "$tmp/sweep-001.csv" >"$tmp/none.csv"
check "merge of a file with no row: every point missing, said at its line" \
	fails 2 "none.csv:$(line_of '^# points' "$tmp/none.csv"): the sweep has 2 points and 4 runs .* hold 0 and 0: a job's CSV is missing" \
	"$ppsim" merge "$tmp/none.csv"

# a job's CSV copied under another name, or a figure that is no number:
# refused, nothing printed
cp "$tmp/sweep-001.csv" "$tmp/again.csv"
"$ppsim" merge "$tmp/sweep-001.csv" "$tmp/sweep-002.csv" "$tmp/again.csv" >"$tmp/m.csv" 2>"$tmp/out"
check "merge refuses a point given twice" sh -c "test $? -eq 2 && test ! -s '$tmp/m.csv' && grep -Eq 'again.csv:[0-9]+: the point 256,far-drop,v5.4,[a-z_]+ again \\(.*sweep-001.csv:[0-9]+\\)' '$tmp/out'"
sed '0,/,rate,Mpps,[0-9.]*,/s//,rate,Mpps,fast,/' "$tmp/sweep-001.csv" >"$tmp/word.csv"
"$ppsim" merge "$tmp/word.csv" >"$tmp/m.csv" 2>"$tmp/out"
check "merge refuses a rate that is no number" sh -c "test $? -eq 2 && test ! -s '$tmp/m.csv' && grep -Eq \"word.csv:[0-9]+: value 'fast' is not a number\" '$tmp/out'"

"$ppsim" sweep "$tiny" nope >/dev/null 2>"$tmp/out"
check "an unknown named sweep is named" sh -c "test $? -eq 2 && grep -q 'has no \[sweep nope\]; it has: ring' '$tmp/out'"
"$ppsim" sweep "$tiny" --set nic.rx_ring=256,1000 --case far-drop >/dev/null 2>"$tmp/out"
check "a bad value fails before any run" sh -c "test $? -eq 2 && grep -q '^--set:1: rx_ring 1000 is not a power of 2' '$tmp/out'"
"$ppsim" sweep "$tiny" --set queues=2,,4 --emit-jobs >/dev/null 2>"$tmp/out"
check "an empty value is refused, not skipped" sh -c "test $? -eq 2 && grep -q \"^ppsim sweep: --set queues: an empty value in '2,,4'\" '$tmp/out'"
"$ppsim" sweep "$tiny" --set cache.llc_lat=14ns,0.014us --emit-jobs >/dev/null 2>"$tmp/out"
check "one value in two units is one point, refused" sh -c "test $? -eq 2 && grep -q \"'14ns' and '0.014us' are one value\" '$tmp/out'"
printf '[global]\ninclude = %s\n[sweep twice]\nvary = nic.rx_ring=256,512,256\n' "$tiny" >"$tmp/twice.ini"
"$ppsim" sweep "$tmp/twice.ini" twice --emit-jobs >/dev/null 2>"$tmp/out"
check "a [sweep]'s value given twice: its line" sh -c "test $? -eq 2 && grep -q \"twice.ini:4: vary: nic.rx_ring: '256' and '256' are one value\" '$tmp/out'"
"$ppsim" sweep "$tiny" >"$tmp/jobs2" 2>"$tmp/out"
check "nothing to vary: the file's [sweep]s are named" sh -c "test $? -eq 2 && grep -qx 'ppsim sweep: nothing varies: give --set KEY=V1,V2 or a \[sweep NAME\]; it has: ring' '$tmp/out'"
# a key swept twice, or swept and fixed by --duration: the rows of one
# would carry values that never ran
"$ppsim" sweep "$tiny" --set nic.rx_ring=256,512 --set nic.rx_ring=1024,2048 --emit-jobs >"$tmp/jobs2" 2>"$tmp/out"
check "a key swept twice is refused" sh -c "test $? -eq 2 && test ! -s '$tmp/jobs2' && grep -qx 'ppsim sweep: --set nic.rx_ring: nic.rx_ring is swept twice: give its values once' '$tmp/out'"
"$ppsim" sweep "$tiny" --set global.duration=1ms,2ms --set duration=4ms --emit-jobs >"$tmp/jobs2" 2>"$tmp/out"
check "global.duration and duration are one key, swept twice" sh -c "test $? -eq 2 && grep -q 'duration is swept twice' '$tmp/out'"
"$ppsim" sweep "$tiny" --set duration=1ms,4ms --duration 1ms --emit-jobs >"$tmp/jobs2" 2>"$tmp/out"
check "duration swept and fixed by --duration is refused" sh -c "test $? -eq 2 && grep -qx 'ppsim sweep: --set duration: duration is swept and --duration fixes it: give one' '$tmp/out'"
"$ppsim" sweep "$tiny" --set global.duration=2ms,4ms --case far-drop --policy v5.4 --reps 1 --format csv 2>"$tmp/out" | grep -v '^#' >"$tmp/g.csv"
"$ppsim" sweep "$tiny" --set duration=2ms,4ms --case far-drop --policy v5.4 --reps 1 --format csv 2>>"$tmp/out" | grep -v '^#' >"$tmp/d2.csv"
check "global.duration is swept as duration: the same table, the error at every point" sh -c "
	cmp '$tmp/g.csv' '$tmp/d2.csv' && test \$(grep -c '^[24]ms,far-drop,v5.4,rate,Mpps,[0-9.]*,,4.4,' '$tmp/g.csv') -eq 2"

# ---- scale-out: the jobs run the sweep's cases, reps and seeds: their
# merge is the direct sweep's CSV, byte for byte ----
sw="--set nic.rx_ring=256,1024 --case far-drop --case close-drop --reps 2 --seed 7 --duration 2ms"
# the direct sweep named by a relative path, the jobs by a full one
(cd "$src" && "$ppsim" sweep tests/scenarios/tiny.ini $sw --format csv) >"$tmp/direct.csv" 2>"$tmp/out"
"$ppsim" sweep "$tiny" $sw --emit-jobs --out "$tmp/par" >"$tmp/par.jobs" 2>>"$tmp/out"
if [ -n "${PPSIM_PARALLEL:-}" ] && "$PPSIM_PARALLEL" --version 2>/dev/null | grep -q 'GNU parallel'; then
	"$PPSIM_PARALLEL" --will-cite -j 2 <"$tmp/par.jobs" 2>>"$tmp/out"
	par_rc=$?
	"$ppsim" merge "$tmp"/par/sweep-*.csv >"$tmp/par.csv" 2>>"$tmp/out"
	check "GNU parallel runs the jobs; their merge is the direct sweep" \
		sh -c "test $par_rc -eq 0 && test \$(wc -l <'$tmp/par.jobs') -eq 2 && cmp '$tmp/par.csv' '$tmp/direct.csv'"
else
	n=$((n + 1)); echo "ok $n - jobs under GNU parallel # SKIP GNU parallel is not installed (apt-get install parallel)"
fi

# a Slurm job array, its tasks run here one by one as sbatch would
"$ppsim" sweep "$tiny" ring --reps 2 --duration 2ms --format csv >"$tmp/ring.csv" 2>>"$tmp/out"
"$ppsim" sweep "$tiny" ring --reps 2 --duration 2ms --emit-jobs=slurm --out "$tmp/arr" >"$tmp/array.sh" 2>>"$tmp/out"
tasks=$(sed -n 's/^#SBATCH --array=1-\([0-9]*\)$/\1/p' "$tmp/array.sh")
check "--emit-jobs=slurm: an sbatch job array, a task a job" \
	sh -c "test '$tasks' = 2 && head -1 '$tmp/array.sh' | grep -qx '#!/bin/sh'"
arr_rc=0
for i in $(seq 1 "${tasks:-0}"); do
	SLURM_ARRAY_TASK_ID=$i sh "$tmp/array.sh" 2>>"$tmp/out" || arr_rc=1
done
"$ppsim" merge "$tmp"/arr/sweep-*.csv >"$tmp/arr.csv" 2>>"$tmp/out"
check "the array's tasks merged are the direct sweep, byte for byte" \
	sh -c "test $arr_rc -eq 0 && cmp '$tmp/arr.csv' '$tmp/ring.csv'"
SLURM_ARRAY_TASK_ID=3 sh "$tmp/array.sh" >/dev/null 2>&1
check "a task the array does not have fails" test $? -eq 2
check "... and leaves no CSV" test ! -e "$tmp/arr/sweep-003.csv"
check "each task makes its output directory, runs on its CPUs, and asks for time, memory and CPUs" sh -c "
	grep -qx 'mkdir -p -- \"\$out\"' '$tmp/array.sh' &&
	grep -q -- '--task \"\$task\" -j \"\${SLURM_CPUS_PER_TASK:-1}\" --format csv' '$tmp/array.sh' &&
	grep -qx '#SBATCH --cpus-per-task=4' '$tmp/array.sh' && grep -qx '#SBATCH --time=0:06:00' '$tmp/array.sh' &&
	grep -qx '#SBATCH --mem=448M' '$tmp/array.sh'"
# a cluster's paths: as the user named them, nothing made here
(cd "$tmp" && "$ppsim" sweep "$tiny" ring --emit-jobs=slurm --out rel --chdir /scratch/me \
	--time 1-12 --mem 2G --cpus-per-task 3) >"$tmp/rel.sh" 2>>"$tmp/out"
check "--out and --chdir as given, the sbatch options given, no directory made" sh -c "
	grep -qx \"out='rel'\" '$tmp/rel.sh' && grep -qx \"cd -- '/scratch/me'\" '$tmp/rel.sh' &&
	grep -qx '#SBATCH --time=1-12' '$tmp/rel.sh' && grep -qx '#SBATCH --mem=2G' '$tmp/rel.sh' &&
	grep -qx '#SBATCH --cpus-per-task=3' '$tmp/rel.sh' && test ! -e '$tmp/rel'"
check "--time in a form sbatch does not read is refused" \
	fails 2 "^ppsim sweep: --time 1h: expected MM, MM:SS" "$ppsim" sweep "$tiny" ring --emit-jobs=slurm --time 1h
check "--mem in a form sbatch does not read is refused" \
	fails 2 "^ppsim sweep: --mem 2GB: expected a whole number" "$ppsim" sweep "$tiny" ring --emit-jobs=slurm --mem 2GB
check "--chdir without --emit-jobs=slurm is refused" \
	fails 2 "^ppsim sweep: --chdir is the sbatch script's" "$ppsim" sweep "$tiny" ring --emit-jobs --chdir /x
check "--task past the sweep's jobs is refused" \
	fails 2 "^ppsim sweep: --task 3: the sweep has 2 jobs \\(1 to 2\\)" "$ppsim" sweep "$tiny" ring --task 3 --format csv

# JSON: each point's values and rows, the CSV's figures
"$ppsim" sweep "$tiny" --set nic.rx_ring=512,1024 --case far-drop --reps 1 --duration 1ms \
	--format json >"$tmp/sw.json" 2>>"$tmp/out"
"$ppsim" sweep "$tiny" --set nic.rx_ring=512,1024 --case far-drop --reps 1 --duration 1ms \
	--format csv >"$tmp/sw.csv" 2>>"$tmp/out"
want=$(awk -F, '$1 == 1024 && $3 == "v5.5" && $4 == "rate" { print $6 }' "$tmp/sw.csv")
check "sweep --format json: an object, a point each with its values and rows ($want)" sh -c "
	head -1 '$tmp/sw.json' | grep -q '\"command\": \"sweep\", .*\"keys\": \[\"nic.rx_ring\"\], \"points\": \[\$' &&
	test \$(grep -c '^{\"values\": {\"nic.rx_ring\": \"[0-9]*\"}, \"guesses\": [0-9]*, \"uncalibrated\": true, \"rows\": \[\$' '$tmp/sw.json') -eq 2 &&
	awk '/\"nic.rx_ring\": \"1024\"/ { p = 1 } p && /\"policy\": \"v5.5\"/ { r = 1 } r && /\"rate\":/ { print; exit }' '$tmp/sw.json' |
		grep -q '\"value\": $want, ' && tail -1 '$tmp/sw.json' | grep -qx ']}'"
# costs borrowed where a point borrows them: a swept cpu.family marks its
# zen4 point (Broadwell's cost table), not the broadwell one, nor all
"$ppsim" sweep "$tiny" --set cpu.family=broadwell,zen4 --case far-drop --reps 1 --duration 1ms \
	>"$tmp/fam.txt" 2>>"$tmp/out"
"$ppsim" sweep "$tiny" --set cpu.family=zen4,broadwell --case far-drop --reps 1 --duration 1ms \
	--format csv >"$tmp/fam.csv" 2>>"$tmp/out"
check "a swept cpu.family: costs borrowed at its zen4 point only, in either order" sh -c "
	test \$(grep -c '^# costs borrowed' '$tmp/fam.txt') -eq 1 &&
	grep -q '^# costs borrowed at cpu.family=zen4 for a zen4 core' '$tmp/fam.txt' &&
	test \$(grep -c '^# costs borrowed' '$tmp/fam.csv') -eq 1 &&
	grep -q '^# costs borrowed at cpu.family=zen4 for a zen4 core' '$tmp/fam.csv'"
# ... and with --case: a point's marking is the core that ran, not a
# case left out (which keeps the scenario's family: a zen4 core on
# Broadwell's table here)
printf '[global]\ninclude = %s\n[cpu]\nfamily = zen4\n' "$tiny" >"$tmp/zen.ini"
"$ppsim" sweep "$tmp/zen.ini" --set cpu.family=broadwell,zen4 --case far-drop --reps 1 --duration 1ms \
	>"$tmp/fam2.txt" 2>>"$tmp/out"
check "a swept cpu.family with --case: the broadwell point borrows nothing" sh -c "
	test \$(grep -c '^# costs borrowed' '$tmp/fam2.txt') -eq 1 &&
	grep -q '^# costs borrowed at cpu.family=zen4 for a zen4 core' '$tmp/fam2.txt'"
# a value with a comma (a machine's name) is one CSV field, quoted, and the
# plot, which reads the CSV back, finds its rows
"$ppsim" sweep "$tiny" --set 'machine.name=Rack 3, box 2' --set nic.rx_ring=512,1024 --case far-drop \
	--reps 1 --duration 1ms --out "$tmp/named" >/dev/null 2>>"$tmp/out"
check "a swept value with a comma: quoted in the CSV, the plot drawn, its lines named" sh -c "
	grep -q '^\"Rack 3, box 2\",512,far-drop,v5.4,rate,' '$tmp/named/sweep.csv' && test -s '$tmp/named/sweep.png' &&
	grep -qx '# far-drop v5.4 512' '$tmp/named/sweep-rate.dat'"
# a key of words first: its points at its values' places, 0 and 1 on
# every line of the plot, not at the points' numbers
"$ppsim" sweep "$tiny" --case far-drop --set xdp_touch=read,write --set nic.rx_ring=512,1024 \
	--reps 1 --duration 1ms --out "$tmp/words" >/dev/null 2>>"$tmp/out"
check "a swept key of words: each line's points at x = 0, 1" sh -c "
	test \"\$(grep -v '^#' '$tmp/words/sweep-rate.dat' | awk 'NF { print \$1 }' | tr '\n' ' ')\" = '0 1 0 1 0 1 0 1 '"
# merge plots as the sweep does, from the merged CSV
"$ppsim" sweep "$tiny" ring --reps 2 --duration 2ms --out "$tmp/ring-o" >/dev/null 2>>"$tmp/out"
"$ppsim" merge "$tmp"/arr/sweep-*.csv --out "$tmp/merge-o" >"$tmp/m.csv" 2>>"$tmp/out"
check "merge --out: the sweep's CSV and plot table, as sweep --out writes them" sh -c "
	cmp '$tmp/m.csv' '$tmp/ring.csv' && cmp '$tmp/merge-o/sweep.csv' '$tmp/ring-o/sweep.csv' &&
	cmp '$tmp/merge-o/sweep-rate.dat' '$tmp/ring-o/sweep-rate.dat'"
# --policy of an era the file lacks: the jobs say it as given, and the
# merged CSV plots as the sweep does (the policies it chose, its baseline)
"$ppsim" sweep "$tiny" --set nic.rx_ring=512,1024 --case far-drop --policy v5.5 \
	--policy v6.12 --reps 1 --duration 1ms --out "$tmp/pol-o" >"$tmp/pol.csv" 2>>"$tmp/out"
check "sweep --policy: the jobs say each --policy once, as given" sh -c "
	'$ppsim' sweep '$tiny' --set nic.rx_ring=512,1024 --policy v5.5 --policy v6.12 --emit-jobs 2>/dev/null >'$tmp/pol.jobs' &&
	test \$(grep -c \" --policy 'v5.5' --policy 'v6.12' --reps\" '$tmp/pol.jobs') -eq 2 &&
	test \$(grep -o -- '--policy' '$tmp/pol.jobs' | wc -l) -eq 4"
# (sweep --out draws its plot from its CSV as merge does: both must have
# the era the file does not list)
check "merge --out of a sweep of chosen policies: its plot table, every policy's line" sh -c "
	'$ppsim' merge '$tmp/pol-o/sweep.csv' --out '$tmp/pol-m' >/dev/null 2>'$tmp/out' &&
	grep -qx '# far-drop v5.5' '$tmp/pol-m/sweep-rate.dat' &&
	grep -qx '# far-drop v6.12' '$tmp/pol-m/sweep-rate.dat' &&
	cmp '$tmp/pol-m/sweep-rate.dat' '$tmp/pol-o/sweep-rate.dat'"
if command -v gnuplot >/dev/null 2>&1; then
	check "... and the same plot" cmp "$tmp/merge-o/sweep.svg" "$tmp/ring-o/sweep.svg"
else
	n=$((n + 1)); echo "ok $n - merge's plot # SKIP gnuplot is not installed"
fi

# merge takes one sweep's jobs, all of them
check "merge refuses a job's CSV missing" \
	fails 2 "arr/sweep-002.csv:$(line_of '^# points' "$tmp/arr/sweep-002.csv"): the sweep has 2 points and 4 runs .*hold 1 and 2: a job's CSV is missing" \
	"$ppsim" merge "$tmp/arr/sweep-002.csv"
t "$ppsim" sweep "$tiny" ring --reps 1 --duration 2ms --task 2 --format csv >"$tmp/reps1.csv" 2>>"$tmp/out"
check "merge refuses a job of other replications" \
	fails 2 "reps1.csv:$(line_of '^# seed' "$tmp/reps1.csv"): its provenance differs .*\\(# seed 1  reps 2  duration 2ms  set duration=2ms\\)" \
	"$ppsim" merge "$tmp/arr/sweep-001.csv" "$tmp/reps1.csv"
cp "$tiny" "$tmp/other.ini"
sed -i "s#^include = ../../#include = $src/#" "$tmp/other.ini"
t "$ppsim" sweep "$tmp/other.ini" ring --reps 2 --duration 2ms --task 2 --format csv >"$tmp/other.csv" 2>>"$tmp/out"
check "merge refuses a job of another scenario" \
	fails 2 "other.csv:1: its provenance differs" "$ppsim" merge "$tmp/arr/sweep-001.csv" "$tmp/other.csv"
# the plot loads the scenario the provenance names: gone, it is said
t "$ppsim" sweep "$tmp/other.ini" ring --reps 2 --duration 2ms --task 1 --format csv >"$tmp/other1.csv" 2>>"$tmp/out"
mv "$tmp/other.ini" "$tmp/gone.ini"
check "merge --out without the sweep's scenario: the CSV written, the plot not, said (exit 1)" \
	sh -c "'$ppsim' merge '$tmp/other1.csv' '$tmp/other.csv' --out '$tmp/gone' >/dev/null 2>'$tmp/out'
	       test \$? -eq 1 && test -s '$tmp/gone/sweep.csv' && test ! -e '$tmp/gone/sweep-rate.dat' &&
	       grep -q '^ppsim merge: --out .*gone: sweep.csv written, the plot not' '$tmp/out'"
sed '1s/^# ppsim [^ ]* /# ppsim 0.0.9 /' "$tmp/arr/sweep-002.csv" >"$tmp/old.csv"
check "merge refuses a job of another ppsim version" \
	fails 2 "old.csv:1: its provenance differs" "$ppsim" merge "$tmp/arr/sweep-001.csv" "$tmp/old.csv"

# user text in the jobs is quoted: a scenario and a directory named to
# break out of a shell word run as they are, and nothing else runs
hostile="$tmp/it's a \$(touch pwned) \`touch pwned\` \"q\"; touch pwned"
mkdir -p "$hostile" && cp "$tiny" "$hostile/s \$(touch pwned).ini"
sed -i "s#^include = ../../#include = $src/#" "$hostile/s \$(touch pwned).ini"
(cd "$tmp" && "$ppsim" sweep "$hostile/s \$(touch pwned).ini" \
	--set nic.rx_ring=256,512 --case far-drop --reps 1 --duration 1ms \
	--emit-jobs=slurm --out "$hostile/o" >"$tmp/h.sh" 2>>"$tmp/out" &&
 SLURM_ARRAY_TASK_ID=1 sh h.sh && SLURM_ARRAY_TASK_ID=2 sh h.sh &&
 "$ppsim" sweep "$hostile/s \$(touch pwned).ini" --set nic.rx_ring=256,512 \
	--case far-drop --reps 1 --duration 1ms --emit-jobs >"$tmp/h.jobs" &&
 sh -e h.jobs) 2>>"$tmp/out"
h_rc=$?
# (the names stay in variables here: no sh -c of ours may parse them)
if [ $h_rc -eq 0 ] && [ -s "$hostile/o/sweep-002.csv" ] &&
   [ -s "$tmp/sweep-002.csv" ] && ! find "$tmp" -name pwned | grep -q .; then
	ok "hostile file names: the jobs run, no command in a name runs"
else
	not_ok "hostile file names: the jobs run, no command in a name runs"
fi

# the machine's name is one value, commas and all (the shipped profiles'
# names have them), never a sweep over names; its jobs keep it whole
name="Box A, rack 3 it's"
"$ppsim" sweep "$tiny" --set nic.rx_ring=512,1024 --set "machine.name=$name" \
	--case far-drop --reps 1 --duration 1ms --format csv >"$tmp/n.csv" 2>"$tmp/out"
check "sweep --set machine.name=A, B: one name, not two points" sh -c "
	grep -qxF '# machine: Box A, rack 3 it'\\''s' '$tmp/n.csv' &&
	test \$(grep -c ',far-drop,v5.4,rate,' '$tmp/n.csv') -eq 2"
(cd "$tmp" && "$ppsim" sweep "$tiny" --set nic.rx_ring=512,1024 \
	--set "machine.name=$name" --case far-drop --reps 1 --duration 1ms \
	--emit-jobs >jobs-n 2>>out && sed -n 1p jobs-n | sh >>out 2>&1)
check "--emit-jobs: the name whole in its job, quoted" \
	grep -qxF "# machine: $name" "$tmp/sweep-001.csv"
printf '[global]\ninclude = hw/e5-2603v4-2s.ini\n[case a]\nworkload = xdp_drop\n[sweep box]\nvary = machine.name=a,b\n' >"$tmp/vary-name.ini"
"$ppsim" run "$tmp/vary-name.ini" --duration 1ms >/dev/null 2>"$tmp/out"
check "[sweep] vary = machine.name=...: refused at its line" sh -c "
	test $? -eq 2 && grep -q '^$tmp/vary-name.ini:6: vary: machine.name: the machine.s name is not swept' '$tmp/out'"
