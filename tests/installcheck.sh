#!/bin/sh
# make installcheck: the installed ppsim, run from a directory outside
# every tree, finds its shipped files under its own data directory (never
# the build tree it came from), and a user's scenario there includes a
# shipped hardware profile by the name ppsim-scenario(5) gives.  Speaks
# TAP; exits 1 on a failure, as installcheck must.
# Usage: PPSIM=BINDIR/ppsim PKGDATADIR=... MANDIR=... installcheck.sh
ppsim=${PPSIM:?the installed ppsim}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset PPSIM_DATADIR
n=0 failed=0
check() {
	what=$1
	shift
	n=$((n + 1))
	if "$@" >"$tmp/check" 2>&1; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		sed 's/^/# /' "$tmp/check" "$tmp/out" 2>/dev/null | head -20
		failed=1
	fi
}

echo "1..6"
"$ppsim" --help >"$tmp/out" 2>&1
check "its data directory is the installed one" \
	grep -qxF "Shipped files are looked up in $PKGDATADIR when not found as given." "$tmp/out"
"$ppsim" trace --policy v6.1 tests/traces/update-nid.trace >"$tmp/out" 2>&1
check "a shipped trace by its relative name" \
	grep -q 'nid_changed 1 -> update_nid (flushed 64)' "$tmp/out"

# a user's own scenario, in a directory of its own
cat >"$tmp/mine.ini" <<'INI'
[global]
include = hw/e5-2603v4-2s.ini
policies = v5.4 v5.5
warmup = 1ms
duration = 1ms
[case drop]
workload = xdp_drop
INI
"$ppsim" run mine.ini --reps 1 --format csv >"$tmp/out" 2>"$tmp/err"
rc=$?
check "include = hw/e5-2603v4-2s.ini finds the shipped profile" \
	sh -c "test $rc -eq 0 && grep -q '^drop,v5.5,rate,Mpps,' '$tmp/out'"
check "and says the profile runs uncalibrated" \
	grep -q '^mine.ini: warning: includes the hardware profile .*hw/e5-2603v4-2s.ini but no calibration' "$tmp/err"
sed -i 's/^include = hw.*/&\ninclude = mlx5-cx4-numa.cal.ini/' "$tmp/mine.ini"
"$ppsim" run mine.ini --reps 1 --dry-run >"$tmp/out" 2>"$tmp/err"
check "with the shipped calibration included, no warning" \
	sh -c "grep -q '^dry run: ' '$tmp/out' && ! test -s '$tmp/err'"
check "the scenario page says its version" \
	sh -c "grep -q '^\.TH PPSIM-SCENARIO 5 .*\"ppsim [0-9]' '${MANDIR:?}/man5/ppsim-scenario.5' &&
	       ! grep -q '@VERSION@' '$MANDIR/man5/ppsim-scenario.5'"
exit $failed
