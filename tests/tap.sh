# Sourced by the shell tests: the ppsim under test, the source tree, a
# scratch directory, and TAP output.  $tmp/out is shown under a failure.
ppsim=${PPSIM:-ppsim}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1"
	cat "$tmp/check" "$tmp/out" 2>/dev/null | sed 's/^/# /' | head -30
}
# check DESCRIPTION COMMAND...: a test point passing when COMMAND succeeds
check() {
	what=$1
	shift
	if "$@" >"$tmp/check" 2>&1; then ok "$what"; else not_ok "$what"; fi
}

# t COMMAND...: COMMAND with a time limit (time_limit seconds, 120 unless
# the script says): a hang fails instead of hanging make.  Generous: CI's
# calibrate under the sanitizers, beside another test on 2 cores, passed
# 20 s (8 s alone)
t() { timeout "${time_limit:-120}" "$@"; }
# fails RC PATTERN COMMAND...: exit status RC, and PATTERN on stderr
fails() {
	want=$1 pattern=$2
	shift 2
	t "$@" >"$tmp/stdout" 2>"$tmp/out"
	rc=$?
	echo "exit $rc, wanted $want" >"$tmp/check"
	[ $rc -eq "$want" ] && grep -Eq -- "$pattern" "$tmp/out"
}
# line_of PATTERN FILE: the number of FILE's first line matching PATTERN
# (grep's): where an error should point, found in the file rather than
# counted by hand, so a provenance line more (a title) moves it along
line_of() { grep -n -m1 -- "$1" "$2" | cut -d: -f1; }
