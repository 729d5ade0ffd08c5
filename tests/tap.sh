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
