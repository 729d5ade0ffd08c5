#!/bin/sh
# Runs every fuzzer from a seed corpus (the shipped scenarios and traces,
# and a few inputs of each kind below) and prints what each reached.
# Two lanes run side by side, one a core: the calibration's free list and
# the slow scenario parser; the command line, merge, file opening and the
# trace runner.  A lane has SECONDS in all; each fuzzer gets
# what its lane has left over those still to run, and stops early once it
# made RUNS executions, giving the rest to the next.
# Exits 1 if a fuzzer found a crash, a hang or a leak (its input is kept
# as fuzz/crash-NAME-*: make it a regression test), or fell short of RUNS.
# Usage: fuzz/run.sh [SECONDS] [RUNS]   (from the build directory, after
#        make fuzz; CI: fuzz/run.sh 60; issue 16: fuzz/run.sh 900 1000000)
#        FUZZERS="trace-ops merge cmdline" fuzz/run.sh ...: those alone
#        (issue 36's longer run: doc/notes/reliability.md)
secs=${1:-60}
runs=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
# on tmpfs if there is one: the harnesses write their input to a file,
# and a disk file system flushes it on every truncation
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp/hw"
all="scenario trace trace-ops merge free cmdline open"
for f in $all; do mkdir -p "$work/$f"; done

# seeds
cp "$src"/scenarios/*.ini "$src"/tests/scenarios/*.ini "$src"/tests/scenarios/bad/*.ini "$work/scenario/"
cp "$src"/tests/traces/*.trace "$src"/tests/traces/bad/*.trace "$work/trace/"
# includes of the seed corpus resolve from the fuzzers' temporary files
cp "$src"/scenarios/hw/*.ini "$work/tmp/hw/"
cp "$src"/scenarios/*.cal.ini "$work/tmp/" 2>/dev/null
header=nic.rx_ring,case,policy,metric,unit,value,ci95,measured,error_pct
printf '%s\n256,far-drop,v5.4,rate,Mpps,4.16,,4.4,-5.45455\n256,"a,b",v5.4,saturated,resource,cpu,,,\n' \
	"$header" >"$work/merge/one"
printf '%s\n256,far-drop,v5.4,rate,Mpps,4.16,,4.4,-5\n\000%s\n1024,far-drop,v5.5,rate,Mpps,4.6,,5.8,-20\n' \
	"$header" "$header" >"$work/merge/two"
printf 'cost.rx_pkt:5:400 cost.tx_pkt:5:600' >"$work/free/seed"
printf 'cost.stack:0:20000' >"$work/free/tcp"
printf 'model.hide_stream:10ns:100ns,nic.max_pps:1Mpps:2e7' >"$work/free/units"
# the command line: a byte for the command (run 0, sweep 1, validate 2),
# then its arguments, each ended by a NUL
{ printf '\001'; printf '%s\000' s.ini --set nic.rx_ring=256,1024 --reps 3 -j2; } >"$work/cmdline/sweep"
{ printf '\000'; printf '%s\000' s.ini --case far --format=json --seed 42 --out d; } >"$work/cmdline/run"
{ printf '\002'; printf '%s\000' a.ini b.ini --sensitivity --param cache.llc_lat; } >"$work/cmdline/validate"
# the semantic trace harness: a byte an operation, the next its argument
printf '\001\000\000\005\003\002\007\001\010\001\005\001\011\001' >"$work/trace-ops/seed"
printf '\000\010\002\377\014\001\013\001\004\003\016\003\011\000' >"$work/trace-ops/napi"
for name in fifo dir zero empty huge outer.ini hw/e5-2603v4-2s.ini ../fifo; do
	printf '%s' "$name" >"$work/open/$(echo "$name" | tr / _)"
done

# fuzz NAME BUDGET: one fuzzer, at most BUDGET seconds; its summary line
fuzz() {
	f=$1
	len=4096
	# a scenario's lines are 198 characters at most: 512 bytes hold a
	# section and its keys (the includes give the rest), and run eight
	# times faster than 4096 once the corpus has grown to it
	[ "$f" = scenario ] && len=512
	# trace-ops makes at most 256 operations: two bytes each
	[ "$f" = trace-ops ] && len=512
	FUZZ_TMPDIR="$work/tmp" ./fuzz/fuzz-$f "$work/$f" -max_total_time="$2" \
		${runs:+-runs=$runs} -max_len=$len -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -close_fd_mask=3 \
		-artifact_prefix=fuzz/crash-$f- >"$work/$f.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$f.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/$f.log" | tail -1)
	ft=$(grep -o 'ft: [0-9]*' "$work/$f.log" | tail -1)
	echo "fuzz-$f: ${execs:-?} executions, $cov edges, $ft features, exit $rc" >"$work/$f.sum"
	if [ $rc -ne 0 ]; then
		grep -A30 'ERROR:' "$work/$f.log" | head -40 >>"$work/$f.sum"
		echo 1 >"$work/$f.bad"
	elif [ -n "$runs" ] && [ "${execs:-0}" -lt "$runs" ]; then
		echo "fuzz-$f: short of $runs executions in its time" >>"$work/$f.sum"
		echo 1 >"$work/$f.bad"
	fi
}

# lane FUZZER...: the fuzzers one after the other within $secs (those
# of $FUZZERS alone when it is set)
lane() {
	start=$(date +%s)
	if [ -n "${FUZZERS:-}" ]; then
		keep=
		for f in "$@"; do
			case " $FUZZERS " in *" $f "*) keep="$keep $f";; esac
		done
		set -- $keep
	fi
	left=$#
	for f in "$@"; do
		now=$(date +%s)
		budget=$(( (secs - (now - start)) / left ))
		[ $budget -lt 1 ] && budget=1
		fuzz "$f" "$budget"
		left=$((left - 1))
	done
}

# the fast ones first: they stop at RUNS and leave their time to the last
lane free trace-ops scenario &
lane cmdline merge open trace &
wait
status=0
for f in $all; do
	[ -e "$work/$f.sum" ] || continue
	cat "$work/$f.sum"
	[ -e "$work/$f.bad" ] && status=1
done
exit $status
