#!/bin/sh
# The command line: help, version, and bad input of every kind, which must
# end with "FILE:LINE: message" (or "FILE: message") on stderr and exit 2,
# never a crash.  Speaks TAP.
ppsim=${PPSIM:-ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
bad=$src/tests/traces/bad
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0

# expect RC PATTERN DESCRIPTION -- COMMAND...: exit status RC, and stdout
# plus stderr matching the extended regular expression PATTERN.
expect() {
	rc_want=$1 pattern=$2 what=$3
	shift 4
	n=$((n + 1))
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq "$rc_want" ] && grep -Eq -- "$pattern" "$tmp/out"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what (exit $rc, wanted $rc_want and /$pattern/)"
		sed 's/^/# /' "$tmp/out" | head -20
	fi
}

echo "1..79"
expect 0 '^Usage: ppsim' "--help" -- "$ppsim" --help
expect 0 '^ppsim [0-9]+\.[0-9]+' "--version" -- "$ppsim" --version
expect 2 '^Usage: ppsim' "no command" -- "$ppsim"
expect 2 "unknown command 'frobnicate'" "unknown command" -- "$ppsim" frobnicate
expect 0 'v6.1 +node checked' "trace --help lists policies" -- "$ppsim" trace --help
expect 0 '^== policy v6.12' "trace without --policy: every policy" -- "$ppsim" trace "$src/tests/traces/refcount.trace"
expect 2 "unknown policy 'v9.9'" "unknown policy" -- "$ppsim" trace --policy v9.9 "$bad/no-pool.trace"
expect 2 'missing.trace: cannot open' "missing file" -- "$ppsim" trace --policy v5.4 "$tmp/missing.trace"
expect 2 "unknown-op.trace:2: unknown operation 'allocate'" "unknown operation" -- "$ppsim" trace --policy v5.4 "$bad/unknown-op.trace"
expect 2 "bad-node.trace:1: '5' is not a node: expected 0 to 1" "node out of range" -- "$ppsim" trace --policy v5.5 "$bad/bad-node.trace"
expect 2 "nodes-late.trace:2: 'nodes' must come before" "nodes after use" -- "$ppsim" trace --policy v6.1 "$bad/nodes-late.trace"
expect 2 "page-not-held.trace:3: recycle: p9 is not a page" "page not held" -- "$ppsim" trace --policy v6.1 "$bad/page-not-held.trace"
expect 2 "no-pool.trace:1: no pool" "alloc without a pool" -- "$ppsim" trace --policy v5.4 "$bad/no-pool.trace"
expect 2 "bad-watermark.trace:1: nodes: min watermark" "impossible watermark" -- "$ppsim" trace --policy v5.4 "$bad/bad-watermark.trace"
expect 2 "put-without-get.trace:3: put: the trace holds no extra" "put without get" -- "$ppsim" trace --policy v5.5 "$bad/put-without-get.trace"
expect 2 "alloc-after-destroy.trace:3: the pool was destroyed" "alloc after destroy" -- "$ppsim" trace --policy v6.1 "$bad/alloc-after-destroy.trace"

# every bad line of a file is reported, not only the first, and the file
# is refused: the lines reported, then the exit status
expect 0 '^4 lines, exit 2$' "every error reported" -- sh -c "
	'$ppsim' trace --policy v5.4 '$bad/many-errors.trace' >/dev/null 2>'$tmp/many'
	rc=\$?
	echo \"\$(grep -c '^$bad/many-errors.trace:[2-5]: ' '$tmp/many') lines, exit \$rc\""

# a line too long for the reader is an error, not silently cut
awk 'BEGIN { printf "pool nid=0"; for (i = 0; i < 600; i++) printf " "; print "size=8" }' >"$tmp/long.trace"
expect 2 "long.trace:1: line longer than 512" "over-long line" -- "$ppsim" trace --policy v5.4 "$tmp/long.trace"

# binary garbage, and a NUL byte inside a line
head -c 4096 /dev/urandom >"$tmp/garbage.trace"
expect 2 "garbage.trace:[0-9]+: " "binary garbage" -- "$ppsim" trace --policy v5.4 "$tmp/garbage.trace"
printf 'pool nid=0\nalloc\0 3\n' >"$tmp/nul.trace"
expect 2 "nul.trace:2: " "NUL byte" -- "$ppsim" trace --policy v5.4 "$tmp/nul.trace"

expect 2 '/dev/zero: cannot open: not a regular file' "a device is not a trace" -- "$ppsim" trace --policy v5.4 /dev/zero
printf 'nodes 8 pages=4194304\n' >"$tmp/huge.trace"
expect 2 "huge.trace:1: nodes: 8 x 4194304 pages: a trace's machine holds at most 4194304 pages" "a machine too large" -- "$ppsim" trace --policy v5.4 "$tmp/huge.trace"

# an empty trace is valid: nothing happens, and the pages add up
: >"$tmp/empty.trace"
expect 0 '^pages allocated=0 freed=0 held=0 .* ok$' "empty trace" -- "$ppsim" trace --policy v5.4 "$tmp/empty.trace"

# a shipped trace is found below the data directory from anywhere
expect 0 'nid_changed 1 -> update_nid \(flushed 64\)' "data directory lookup" -- sh -c "cd '$tmp' && '$ppsim' trace --policy v6.1 tests/traces/update-nid.trace"
expect 0 '^== policy v6.1' "--policy all" -- "$ppsim" trace --policy all "$src/tests/traces/refcount.trace"

# the one option table: each command's messages name its own options
tiny=$src/tests/scenarios/tiny.ini
expect 2 '^--duration: duration: 0 is out of range' "--duration is named, not --set" -- "$ppsim" run "$tiny" --duration 0
expect 2 '^--queues: queues: 0 is out of range' "--queues is named" -- "$ppsim" bench "$tiny" --queues 0
expect 2 'ppsim sweep: --set x: expected KEY=V1,V2' "sweep's --set takes values" -- "$ppsim" sweep "$tiny" --set x
expect 2 'ppsim run: --set duration=: an empty value, expected KEY=VALUE$' "--set with an empty value says so" -- "$ppsim" run "$tiny" --set duration=
expect 2 'ppsim sweep: --format commit: expected table, csv or json$' "sweep's formats" -- "$ppsim" sweep "$tiny" --format commit --set nic.rx_ring=256
printf '[case a]\ncalibrate.tolerance = 5\n' >"$tmp/tol.ini"
expect 2 "tol.ini:2: 'calibrate.tolerance' belongs to the whole scenario" "[calibrate] is the scenario's" -- "$ppsim" run "$tmp/tol.ini"
man5=$(dirname "$ppsim")/doc/ppsim-scenario.5
expect 0 '^\.TH PPSIM-SCENARIO 5 .*"ppsim [0-9]+\.[0-9]+' "the scenario page says its version" -- sh -c "! grep -q '@VERSION@' '$man5' && head -1 '$man5'"


# ---- one CLI: every command's --help, ppsim help CMD, alike options ----
for c in run validate calibrate sweep merge bench trace keys compare report; do
	expect 0 "^Usage: ppsim $c .*" "$c --help: a usage and a description, no line but the usage past 80 columns" -- sh -c "
		'$ppsim' $c --help >'$tmp/h' && test \$(wc -l <'$tmp/h') -ge 5 &&
		test \$(sed 1d '$tmp/h' | awk 'length > 80' | wc -l) -eq 0 &&
		'$ppsim' help $c | cmp - '$tmp/h' && head -1 '$tmp/h'"
done
expect 0 '^\[machine\]$' "keys: the first section on the first line" -- sh -c "'$ppsim' keys | head -1"
expect 0 "^Usage: ppsim \[--help\]" "help help: the commands" -- "$ppsim" help help
expect 2 "ppsim help: unknown command 'frob'" "help of an unknown command" -- "$ppsim" help frob
expect 2 "^ppsim run: unknown option '--frob'" "an unknown option" -- "$ppsim" run "$tiny" --frob
expect 2 "^ppsim run: unknown option '-z'" "an unknown short option in a cluster after a long one" -- "$ppsim" run --dry-run -zq "$tiny"
expect 2 "^ppsim validate: --reps needs a value" "an option without its value" -- "$ppsim" validate "$tiny" --reps
expect 2 "^ppsim run: --out needs a value \('--dry-run' is an option; --out=--dry-run if it is meant\)" \
	"an option taken for a value: refused, nothing written" -- sh -c "
	cd '$tmp' && { '$ppsim' run '$tiny' --out --dry-run; rc=\$?; test ! -e ./--dry-run && exit \$rc; }"
expect 2 "^ppsim calibrate: --reps 0: expected 1 to" "a bad value" -- "$ppsim" calibrate "$tiny" --reps 0
expect 0 '\(default 3\)' "one --reps default, said by every command" -- sh -c "
	for c in run validate calibrate sweep; do '$ppsim' \$c --help | grep -q -- '--reps N .*(default 3)' || exit 1; done; '$ppsim' run --help"
expect 0 '^  far-drop +v5.5$' "--case and --policy repeat; --dry-run runs nothing" -- "$ppsim" run "$tiny" --case far-drop --case close-drop --policy v5.5 --dry-run
expect 0 '^dry run: run: 1 file, 2 cases, 2 \(case, policy\) pairs x 3 replications = 6 simulations' "--dry-run counts what would run" -- "$ppsim" run "$tiny" --case far-drop --case close-drop --policy v5.5 --dry-run
expect 0 '^dry run: validate: 2 files, 4 cases, 8 \(case, policy\) pairs x 1 replication = 8 simulations' "validate --dry-run, two files" -- "$ppsim" validate "$tiny" "$src/tests/scenarios/fit.ini" --case far-drop --case close-drop --reps 1 --dry-run
expect 2 '^--case nope: no such case' "a --case no file has" -- "$ppsim" run "$tiny" --case nope --dry-run

# --set as a scenario line says it; several values are sweep's
expect 0 '^far-drop,v5.4,rate,Mpps,' "--set 'nic.rx_ring = 512' (blanks around =)" -- "$ppsim" run "$tiny" --set "nic.rx_ring = 512" --case far-drop --reps 1 --duration 1ms --format csv
expect 2 'ppsim run: --set nic.rx_ring=256,512: one value a key here; to run several, use ppsim sweep' "several values on run: use sweep" -- "$ppsim" run "$tiny" --set nic.rx_ring=256,512
expect 2 'ppsim run: --set cache.llc_policy=lru,qlru: one value a key here; to run several, use ppsim sweep' "several words on run: use sweep" -- "$ppsim" run "$tiny" --set cache.llc_policy=lru,qlru
expect 0 '^1 1$' "an error of a --set every case applies is said once" -- sh -c "
	'$ppsim' run '$tiny' --set nic.rx_ring=1000 2>'$tmp/once'; rc=\$?
	echo \$(grep -c 'rx_ring 1000 is not a power of 2' '$tmp/once') \$((rc == 2))"

# trace - reads standard input
expect 0 '^get p1 refcount=2' "trace - reads stdin" -- sh -c "'$ppsim' trace --policy v5.5 - <'$src/tests/traces/refcount.trace'"

# keys KEY explains one key; an unknown one is bad input, with a suggestion
expect 0 '^  range: +2 to 32768$' "keys nic.rx_ring: its range" -- "$ppsim" keys nic.rx_ring
expect 0 '^  hw/e5-2603v4-2s.ini: 23ns' "keys cache.llc_lat: the shipped value and its source" -- "$ppsim" keys cache.llc_lat
expect 2 "unknown key 'nic.rx_rng' \(did you mean nic.rx_ring\?\)" "keys: an unknown key" -- "$ppsim" keys nic.rx_rng
expect 2 "unknown key 'node_lat' \(did you mean mem.node_lat\?\)" "keys: a section's key by its bare name" -- "$ppsim" keys node_lat
expect 2 "unknown key 'family' \(did you mean cpu.family or cost.family\?\)" "keys: a bare name two sections have, both said" -- "$ppsim" keys family
expect 0 "set in:  \\[cpu\\] as family, or --set cpu.family=... \\(the whole machine's: not in a \\[case\\]\\)" "keys: a whole machine's key is not offered to a [case]" -- "$ppsim" keys cpu.family
expect 2 "unknown key 'model.WIN_STACK' \(did you mean model.win_stack\?\)" "keys: a key in the wrong case is suggested in its own" -- "$ppsim" keys model.WIN_STACK

# several files in one run: a section a file, a file column in CSV
expect 0 '^2 2$' "run FILE FILE: a table section a file" -- sh -c "
	'$ppsim' run '$tiny' '$src/tests/scenarios/fit.ini' --case close-drop --reps 1 --duration 1ms >'$tmp/two' 2>/dev/null
	echo \$(grep -c '^close-drop ' '$tmp/two' | awk '{ print \$1 / 2 }') \$(grep -c '^# .*\.ini' '$tmp/two')"
expect 0 '^file,case,policy,metric' "run FILE FILE --format csv: a file column" -- sh -c "
	'$ppsim' run '$tiny' '$src/tests/scenarios/fit.ini' --case close-drop --reps 1 --duration 1ms --format csv 2>/dev/null >'$tmp/two.csv' &&
	grep -q '^$src/tests/scenarios/fit.ini,close-drop,v5.5,rate,' '$tmp/two.csv' && grep -v '^#' '$tmp/two.csv' | head -1"

expect 0 '^\{"ppsim"' "run FILE --format json: one object, as run --help says" -- sh -c "
	'$ppsim' help run | tr -s ' \\n' ' ' | grep -q 'json (an object; with several files an array' &&
	'$ppsim' run '$tiny' --case close-drop --reps 1 --duration 1ms --format json 2>/dev/null | head -1"
expect 0 "other port's NAPI" "run's return-paths footer names every consumer" -- sh -c "
	'$ppsim' run '$src/scenarios/return-paths.ini' --case port-close --policy v6.1 --reps 1 --duration 1ms 2>/dev/null | grep '^#'"
expect 0 '^2 2 \[ \]$' "run FILE FILE --format json: an array, one object a file" -- sh -c "
	'$ppsim' run '$tiny' '$src/tests/scenarios/fit.ini' --case close-drop --reps 1 --duration 1ms --format json 2>/dev/null >'$tmp/two.json' &&
	echo \$(grep -c '^{\"ppsim\"' '$tmp/two.json') \$(grep -c '\"rows\": \[' '$tmp/two.json') \$(head -1 '$tmp/two.json') \$(tail -1 '$tmp/two.json')"
expect 0 '^ok$' "run FILE FILE --out DIR: each file's outputs in DIR/NAME" -- sh -c "
	'$ppsim' run '$tiny' '$src/tests/scenarios/fit.ini' --case close-drop --reps 1 --duration 1ms --out '$tmp/two-out' >/dev/null 2>&1 &&
	test -s '$tmp/two-out/tiny/results.csv' && test -s '$tmp/two-out/fit/results.csv' &&
	grep -q 'run .*tiny.ini' '$tmp/two-out/tiny/results.csv' && grep -q 'run .*fit.ini' '$tmp/two-out/fit/results.csv' && echo ok"

# a user's scenario outside the tree includes a shipped profile by name
mkdir "$tmp/home" && printf '[global]\ninclude = hw/e5-2603v4-2s.ini\nwarmup = 1ms\nduration = 1ms\npolicies = v5.5\n[case c]\nworkload = xdp_drop\n' >"$tmp/home/mine.ini"
expect 0 "^mine.ini: warning: includes the hardware profile .*hw/e5-2603v4-2s.ini but no calibration" "include = hw/... from a user's directory, with the calibration warning" -- sh -c "
	cd '$tmp/home' && env -u PPSIM_DATADIR '$ppsim' run mine.ini --reps 1 2>&1 >/dev/null"

# the scenario page's complete example is a scenario ppsim reads
mkdir "$tmp/ex" && sed -n '/^; my.ini/,/^\.fi/p' "$src/doc/ppsim-scenario.5.in" | sed '$d' >"$tmp/ex/my.ini"
expect 0 '^dry run: run: 1 file, 2 cases, 4 ' "ppsim-scenario(5)'s example reads, checks and would run" -- sh -c "
	cd '$tmp/ex' && env -u PPSIM_DATADIR '$ppsim' run my.ini --dry-run 2>&1"

# a reader that left (| head) is no error to report: quiet, status 1
expect 0 '^1$' "a closed pipe on stdout: nothing said, status 1" -- sh -c "
	{ sleep 1; '$ppsim' keys 2>'$tmp/pipe.err'; echo \$? >'$tmp/pipe.rc'; } | :
	echo \$(cat '$tmp/pipe.rc') \$(cat '$tmp/pipe.err')"
expect 0 '^  range:   256 to 4194304$' "keys KEY: the range's bounds exactly" -- "$ppsim" keys mem.pages
expect 0 '^dry run: run: 1 file' "a long run with sample unset: the interval grows to fit" -- "$ppsim" run "$src/tests/scenarios/tiny.ini" --duration 5s --dry-run
expect 2 'sample 0.001s \(--set:1\) over a run of 5.* more than the 2046 kept' "... one the user set is kept, and refused" -- "$ppsim" run "$src/tests/scenarios/tiny.ini" --duration 5s --set sample=1ms --dry-run
