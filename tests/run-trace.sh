#!/bin/sh
# Runs one trace through every policy and compares each with its section of
# the expected output (NAME.expected, sections headed "== policy NAME", as
# 'ppsim trace --policy all' prints them).  Speaks TAP, one test a policy,
# and one that every policy ppsim has (but the --with-linux trees', which
# tests/kernel-diff.sh compares with their eras) has its section.
# Usage: run-trace.sh FILE.trace   (PPSIM names the ppsim binary)
trace=$1
expected=${trace%.trace}.expected
ppsim=${PPSIM:-ppsim}
policies=$(awk '/^== policy /{print $3}' "$expected")
n=$(echo "$policies" | wc -w)
[ "$n" -gt 0 ] || { echo "Bail out! no '== policy' sections in $expected"; exit 1; }
echo "1..$((n + 1))"
i=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

i=$((i + 1))
"$ppsim" trace --help >"$tmp/help" 2>&1
rc=$?
awk '/^Policies:/ { on = 1; next } on && /^$/ { exit }
     on && /^  [^ ]/ && !/\(--with-linux[:)]/ { print $1 }' \
	"$tmp/help" | sort >"$tmp/have"
echo "$policies" | sort >"$tmp/sections"
if [ $rc -eq 0 ] && [ -s "$tmp/have" ] && cmp -s "$tmp/have" "$tmp/sections"; then
	echo "ok $i - $(basename "$expected") has a section for every policy"
else
	echo "not ok $i - $(basename "$expected"): its sections are not ppsim's policies (--help exit $rc)"
	diff "$tmp/have" "$tmp/sections" | sed 's/^/# /'
fi

for p in $policies; do
	i=$((i + 1))
	awk -v p="$p" '/^== policy /{on = ($3 == p); next} on' "$expected" >"$tmp/want"
	"$ppsim" trace --policy "$p" "$trace" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok $i - $(basename "$trace") $p"
	else
		echo "not ok $i - $(basename "$trace") $p (exit $rc)"
		sed 's/^/# /' "$tmp/err"
		diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /'
	fi
done
