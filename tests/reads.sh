#!/bin/sh
# What a workload does not read: the [cost] and [model] keys that only
# some workloads read (ppsim keys KEY: "read by: ... cases only"), moved
# in a case of every other workload, change nothing it prints.  That is
# what lets validate --sensitivity leave them unmoved.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
paths=$src/scenarios/return-paths.ini

# a case of each workload: WORKLOAD FILE CASE
cases="xdp_drop $tiny far-drop
xdp_tx $tiny far-tx
xdp_redirect $paths port-far
xdp_cpumap $paths cpumap-far
xdp_veth $paths veth-far
tcp $paths tcp-app-far"
echo "1..$(echo "$cases" | wc -l)"

# the keys only some workloads read, with who: KEY READERS
"$ppsim" keys | awk '/^\[(cost|model)\]/ { s = substr($1, 2, length($1) - 2); next }
	/^\[/ { s = "" } s && NF { print s "." $1 }' >"$tmp/keys"
: >"$tmp/readers"
while read -r key; do
	r=$("$ppsim" keys "$key" | sed -n 's/^  read by: \(.*\) cases only$/\1/p')
	[ -n "$r" ] && echo "$key $r" >>"$tmp/readers"
done <"$tmp/keys"

# run WORKLOAD FILE CASE [--set K=V]: its figures, the provenance aside
run() {
	file=$2 name=$3
	shift 3
	"$ppsim" run "$file" --case "$name" --reps 1 --duration 2ms --format csv \
		"$@" 2>/dev/null | grep -v '^#'
}
echo "$cases" | while read -r wl file name; do
	: >"$tmp/out"
	moved=0
	while read -r key readers; do
		case ", $readers," in *", $wl,"*) continue ;; esac
		# both runs --set (err% is not computed under one): the
		# key's default, and a quarter and one more
		v=$("$ppsim" keys "$key" | sed -n 's/^  default: //p')
		run "$wl" "$file" "$name" --set "$key=$v" >"$tmp/base"
		run "$wl" "$file" "$name" --set "$key=$(awk -v v="$v" 'BEGIN { print v * 1.25 + 1 }')" >"$tmp/moved"
		[ -s "$tmp/base" ] || echo "$name: did not run with $key=$v" >>"$tmp/out"
		cmp -s "$tmp/base" "$tmp/moved" ||
			echo "$name ($wl): $key moved the figures, yet is read by $readers only" >>"$tmp/out"
		moved=$((moved + 1))
	done <"$tmp/readers"
	[ "$moved" -gt 0 ] || echo "$name ($wl): no key to move" >>"$tmp/out"
	check "$wl ($name): the $moved keys other workloads alone read change nothing" \
		test ! -s "$tmp/out"
done
