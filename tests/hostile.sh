#!/bin/sh
# What hostile testing found (issue 16), each kept closed: bad input ends
# with "FILE:LINE: message" and exit 2, never a crash, a hang, a silent
# default, a command run, or a partial file that looks whole.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
hw=$src/scenarios/hw/e5-2603v4-2s.ini
# runs COMMAND... with a time limit: a hang fails instead of hanging make
t() { timeout 20 "$@"; }
# fails RC PATTERN COMMAND...: exit status RC, and PATTERN on stderr
fails() {
	want=$1 pattern=$2
	shift 2
	t "$@" >"$tmp/stdout" 2>"$tmp/out"
	rc=$?
	echo "exit $rc, wanted $want" >"$tmp/check"
	[ $rc -eq "$want" ] && grep -Eq -- "$pattern" "$tmp/out"
}

# ---- 4: FIFOs, devices and files that are not what they claim ----
mkfifo "$tmp/fifo"
check "run refuses a FIFO without waiting on it" \
	fails 2 'fifo: cannot open: not a regular file' "$ppsim" run "$tmp/fifo"
printf '[global]\ninclude = fifo\n[case a]\n' >"$tmp/inc-fifo.ini"
check "include = a FIFO is refused at its line" \
	fails 2 '^.*inc-fifo.ini:2: include fifo: not a regular file' "$ppsim" run "$tmp/inc-fifo.ini"
check "trace refuses a FIFO" \
	fails 2 'fifo: cannot open: not a regular file' "$ppsim" trace --policy v5.4 "$tmp/fifo"
check "merge refuses a FIFO" \
	fails 2 'fifo: cannot open: not a regular file' "$ppsim" merge "$tmp/fifo"
check "merge refuses /dev/zero (and does not grow)" \
	fails 2 '/dev/zero: cannot open: not a regular file' "$ppsim" merge /dev/zero
"$ppsim" sweep "$tiny" --set nic.rx_ring=256 --case far-drop --format csv >"$tmp/a.csv" 2>"$tmp/out"
"$ppsim" sweep "$tiny" --set nic.rx_ring=1024 --case far-drop --format csv >"$tmp/b.csv" 2>>"$tmp/out"
check "merge refuses a file that is not a ppsim CSV" \
	fails 2 'passwd:1: not the header of a ppsim sweep CSV' "$ppsim" merge "$tmp/a.csv" /etc/passwd
check "merge refuses a binary" \
	fails 2 "ppsim:1: (NUL byte|not the header)" "$ppsim" merge "$ppsim"
head -c 700 "$tmp/a.csv" >"$tmp/cut.csv"
check "merge refuses a truncated row instead of gluing it to the next file" \
	fails 2 'cut.csv:[0-9]+: the line is cut short' "$ppsim" merge "$tmp/cut.csv" "$tmp/b.csv"
check "merge prints nothing when a file is bad" test ! -s "$tmp/stdout"
check "merge refuses the same file twice" \
	fails 2 'the same file as .*a.csv' "$ppsim" merge "$tmp/a.csv" "$tmp/b.csv" "$tmp/a.csv"
sed '2s/,rate,/,rate,x,/' "$tmp/a.csv" >"$tmp/extra.csv"
check "merge counts the fields of every row" \
	fails 2 'extra.csv:2: 10 fields where the header has 9' "$ppsim" merge "$tmp/extra.csv"
awk 'BEGIN { printf "nic.rx_ring,case,policy,metric,unit,value,ci95,measured,error_pct\n"; for (i = 0; i < 5000; i++) printf "x"; print "" }' >"$tmp/long.csv"
check "merge bounds its lines" \
	fails 2 'long.csv:2: line longer than' "$ppsim" merge "$tmp/long.csv"

# ---- findings of the earlier review: includes, BOM ----
mkdir -p "$tmp/mine"
cp "$src/scenarios/mlx5-cx4-numa.ini" "$tmp/mine/"
check "a copy of a shipped scenario finds hw/ and its .cal.ini in the data directory" \
	t "$ppsim" run "$tmp/mine/mlx5-cx4-numa.ini" --case close-drop --policy v5.5 --reps 1 --duration 1ms
printf '\357\273\277[global]\ninclude = %s\n[case a]\n' "$hw" >"$tmp/bom.ini"
check "a UTF-8 byte order mark is not a syntax error" \
	t "$ppsim" run "$tmp/bom.ini" --reps 1 --duration 1ms --policy v5.5
: >"$tmp/empty.cal.ini"
printf '[global]\ninclude = empty.cal.ini\n[case a]\n' >"$tmp/inc-empty.ini"
check "an empty include (a calibration whose write failed) is an error" \
	fails 2 'inc-empty.ini:2: include empty.cal.ini: empty file' "$ppsim" run "$tmp/inc-empty.ini"

# the plan last: TAP allows it, and no count to keep by hand
echo "1..$n"
