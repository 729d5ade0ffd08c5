#!/bin/sh
# Whether two builds of ppsim say the same, byte for byte (less the
# version line's commit): for a change that must not move a figure (a
# restructuring, an exact speed-up).  Runs, with each binary: every shipped
# scenario (run: table, CSV, JSON, commit, --explain), the corpus
# validation (table, CSV, JSON), every trace under every policy the binary
# has (the kernel trees' too, where it was configured --with-linux), and
# the sweeps, dry runs and keys of the shipped files.  Prints one line a
# command that differs, with its diff, and "N same, N differ" last; exits
# 1 when one differs.  Not in make check: it needs the two builds.
# Usage: tests/same-output.sh OLD_PPSIM NEW_PPSIM [--quick]
#   --quick: 5 ms runs and one replication (a first look, minutes less)
set -u
[ $# -ge 2 ] || { echo "usage: $0 OLD_PPSIM NEW_PPSIM [--quick]" >&2; exit 2; }
old=$1 new=$2
quick=${3:-}
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "$0: $b: not an executable" >&2; exit 2; }
done
src=$(cd "$(dirname "$0")/.." && pwd) || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 2
opts="-j 2"
[ "$quick" = --quick ] && opts="$opts --reps 1 --duration 5ms"
same=0 differ=0

# one NAME ARGS...: ARGS with each binary, outputs and status compared
one() {
	name=$1
	shift
	for side in old new; do
		eval bin=\$$side
		# shellcheck disable=SC2154
		"$bin" "$@" >"$tmp/$side.out" 2>"$tmp/$side.err"
		echo "exit $?" >>"$tmp/$side.out"
		# the commit each build names, and the progress bar's timing
		sed -i -e 's/(git [^)]*)/(git COMMIT)/' \
		       -e 's/"commit": "[^"]*"/"commit": "COMMIT"/' \
		       -e 's/built from [0-9a-f-]*dirty/built from COMMIT/' \
		       "$tmp/$side.out"
	done
	if cmp -s "$tmp/old.out" "$tmp/new.out" &&
	   cmp -s "$tmp/old.err" "$tmp/new.err"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERS: $name: $*"
		diff "$tmp/old.out" "$tmp/new.out" | head -20 | sed 's/^/  /'
		diff "$tmp/old.err" "$tmp/new.err" | head -10 | sed 's/^/  /'
	fi
}

for f in scenarios/*.ini; do
	case $f in *.cal.ini) continue ;; esac
	# shellcheck disable=SC2086
	{
		one "run $f" run "$f" $opts
		one "run $f csv" run "$f" $opts --format csv
		one "run $f json" run "$f" $opts --format json
		one "run $f explain" run "$f" $opts --explain
		one "run $f dry-run" run "$f" --dry-run
	}
	grep -q '^\[sweep ' "$f" && one "sweep $f dry" sweep "$f" --emit-jobs
done
# shellcheck disable=SC2086
{
	one "run commit" run scenarios/mlx5-cx4-numa.ini $opts --format commit
	one "validate corpus" validate scenarios/*.ini $opts
	one "validate corpus csv" validate scenarios/*.ini $opts --format csv
	one "validate corpus json" validate scenarios/*.ini $opts --format json
}
for t in tests/traces/*.trace; do
	one "trace $t" trace --policy all "$t"
done
one "keys" keys
one "keys man" keys --man
echo "$same same, $differ differ"
[ "$differ" -eq 0 ]
