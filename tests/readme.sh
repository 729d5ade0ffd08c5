#!/bin/sh
# The README's sample outputs are what ppsim prints: scripts/readme-sample
# --check regenerates them and compares; and its example scenario is one
# ppsim reads.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
echo "1..2"
PPSIM=$ppsim "$src/scripts/readme-sample" --check >"$tmp/out" 2>&1
check "the README's sample blocks are ppsim's output (scripts/readme-sample)" test $? -eq 0
mkdir "$tmp/mine"
sed -n '/^; my.ini/,/^```$/p' "$src/README.md" | sed '$d' >"$tmp/mine/my.ini"
check "the README's own scenario (my.ini) reads, from outside the tree" \
	sh -c "cd '$tmp/mine' && test -s my.ini && env -u PPSIM_DATADIR '$ppsim' run my.ini --dry-run >'$tmp/out' 2>&1"
