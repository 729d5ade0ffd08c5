#!/bin/sh
# The README's sample outputs are what ppsim prints: scripts/readme-sample
# --check regenerates them and compares.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
echo "1..1"
PPSIM=$ppsim "$src/scripts/readme-sample" --check >"$tmp/out" 2>&1
check "the README's sample blocks are ppsim's output (scripts/readme-sample)" test $? -eq 0
