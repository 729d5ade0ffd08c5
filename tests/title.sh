#!/bin/sh
# The machine's name ([machine] name) titles every output: run's table,
# CSV, JSON and commit table, validate's, sweep's, compare's labels, the
# HTML page and the plots; a name that would be a gnuplot command is
# drawn as text, never run.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
name='Dell R730, 2x Xeon E5-2603 v4, ConnectX-4 100G'	# its profile's
short="--duration 1ms --reps 1 -j 2"
echo "1..21"

# out FILE COMMAND...: COMMAND's stdout into $tmp/FILE, exit 0 wanted
out() {
	f=$1
	shift
	# shellcheck disable=SC2086
	t "$@" >"$tmp/$f" 2>"$tmp/out"
}

# has FILE LINE: FILE holds LINE, a whole line
has() { grep -Fxq -- "$2" "$tmp/$1"; }

# shellcheck disable=SC2086
{
out run.txt "$ppsim" run "$tiny" --case close-drop $short
check "run, table: '# machine: NAME', the second line" \
	sh -c "sed -n 2p '$tmp/run.txt' | grep -Fxq -- '# machine: $name'"
out run.csv "$ppsim" run "$tiny" --case close-drop $short --format csv
check "run, CSV: a '# machine:' comment, as the provenance is" \
	has run.csv "# machine: $name"
out run.json "$ppsim" run "$tiny" --case close-drop $short --format json
check "run, JSON: a \"machine\" member" \
	grep -Fq "\"machine\": \"$name\"" "$tmp/run.json"
out commit.txt "$ppsim" run "$tiny" $short --format commit
check "run, commit: 'Machine: NAME' above each table" \
	sh -c "test \$(grep -Fxc -- 'Machine: $name' '$tmp/commit.txt') -eq \$(grep -c '^ppsim ' '$tmp/commit.txt')"
out val.txt "$ppsim" validate "$tiny" $short
check "validate, table: under the file's heading" \
	sh -c "grep -A1 '^# .*tiny.ini  tolerance' '$tmp/val.txt' | grep -Fxq -- '# machine: $name'"
out val.csv "$ppsim" validate "$tiny" $short --format csv
check "validate, CSV: the file's machine as a comment" \
	grep -Eq "^# .*tiny.ini  machine: $name\$" "$tmp/val.csv"
out val.json "$ppsim" validate "$tiny" $short --format json
check "validate, JSON: the file's \"machine\"" \
	grep -Fq "\"machine\": \"$name\"" "$tmp/val.json"
out sweep.txt "$ppsim" sweep "$tiny" ring $short
check "sweep, table" has sweep.txt "# machine: $name"
out sweep.csv "$ppsim" sweep "$tiny" ring $short --format csv
check "sweep, CSV" has sweep.csv "# machine: $name"
out sweep.json "$ppsim" sweep "$tiny" ring $short --format json
check "sweep, JSON" grep -Fq "\"machine\": \"$name\"" "$tmp/sweep.json"
}
out cmp.txt "$ppsim" compare "$tmp/run.csv" "$tmp/run.csv"
check "compare: each file's label names its machine" \
	has cmp.txt "# A: $tmp/run.csv, machine: $name"
t "$ppsim" compare "$tmp/run.csv" "$tmp/run.csv" --format json >"$tmp/cmp.json" 2>"$tmp/out"
check "compare, JSON: the machine its own member, not in the file's" \
	grep -Fq "\"a\": \"$tmp/run.csv\", \"machine_a\": \"$name\"" "$tmp/cmp.json"
# a '# machine:' line ppsim could not have written, or two of them:
# refused at its line by compare as by report
line=$(grep -n '^# machine: ' "$tmp/run.csv" | cut -d: -f1)
sed "s/^# machine: .*/# machine: caf$(printf '\303\251')/" "$tmp/run.csv" >"$tmp/m-utf8.csv"
awk '/^# machine: / { $0 = "# machine: " sprintf("%3000s", "x") } 1' "$tmp/run.csv" >"$tmp/m-long.csv"
awk '1; /^# machine: /' "$tmp/run.csv" >"$tmp/m-twice.csv"
for bad in utf8:$line:"character 0xc3 is not printable ASCII" \
	long:$line:"a name over 63 characters" \
	twice:$((line + 1)):"given twice (first at line $line)"; do
	f=${bad%%:*} rest=${bad#*:}
	at=${rest%%:*} why=${rest#*:}
	for cmd in compare report; do
		if [ $cmd = compare ]; then
			"$ppsim" compare "$tmp/m-$f.csv" "$tmp/run.csv" >/dev/null 2>"$tmp/out"
		else
			"$ppsim" report "$tmp/m-$f.csv" >/dev/null 2>"$tmp/out"
		fi
		rc=$?
		check "$cmd: # machine: $f refused at FILE:LINE" sh -c "test $rc -eq 2 &&
			grep -Fxq -- '$tmp/m-$f.csv:$at: # machine: $why: not a name ppsim writes' '$tmp/out' ||
			grep -Fxq -- '$tmp/m-$f.csv:$at: # machine: $why' '$tmp/out'"
	done
done

# a name gnuplot would run if it evaluated its title: printable ASCII,
# so taken, and drawn as it is
evil='x" ; system("touch '"$tmp"'/pwned") ; "'
# shellcheck disable=SC2086
t "$ppsim" run "$tiny" --case close-drop $short --set "machine.name=$evil" \
	--out "$tmp/o" >"$tmp/o.txt" 2>"$tmp/out"
check "--out: the page's title names the machine" \
	grep -Fq "<title>ppsim: $tiny on x&quot; ; system(&quot;touch" "$tmp/o/index.html"
if grep -q 'gnuplot was not found' "$tmp/out"; then
	ok "# SKIP plots: no gnuplot"
	ok "# SKIP plots: no gnuplot"
else
	check "a plot's title is the name, as text" \
		sh -c "grep -l 'system(&quot;touch\|system(\"touch' '$tmp'/o/*.svg | grep -q ."
	check "the name was never run" test ! -e "$tmp/pwned"
fi
