#!/bin/sh
# The layers the build keeps apart (Makefile.am): each library may use only
# those below it, the model no SimGrid, GSL or inih, and the unit tests link
# the model alone.  Reads the objects the build made (nm, readelf).  Speaks
# TAP.
. "$(dirname "$0")/tap.sh"
build=$(dirname "$ppsim")

# The layers, lowest first, and the outside libraries each may not use.
layers="model engine input report"
foreign_model='^(sg_|simgrid_|xbt_|gsl_|ini_)'
foreign_engine='^ini_'
foreign_input='^(sg_|simgrid_|xbt_|gsl_)'
foreign_report='^(ini_|sg_actor|sg_host|sg_mailbox)'

# Symbols a library defines, and those it leaves for others.
defined() { nm -g --defined-only "$build/lib$1.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u; }
undefined() { nm -g --undefined-only "$build/lib$1.a" 2>/dev/null | awk '{ print $NF }' | sort -u; }

echo "1..$(( $(echo $layers | wc -w) * 2 + 2 ))"
for l in $layers; do
	eval foreign=\$foreign_$l
	if [ ! -f "$build/lib$l.a" ]; then
		not_ok "lib$l.a exists"; not_ok "lib$l.a: nothing from above"; continue
	fi
	undefined $l | grep -E "$foreign" >"$tmp/out"
	if [ -s "$tmp/out" ]; then not_ok "lib$l.a uses none of $foreign"
	else ok "lib$l.a uses none of $foreign"; fi
	# what the layers above it define (and the commands)
	above=$(echo $layers | sed "s/.*\b$l\b *//")
	: >"$tmp/above"
	for a in $above; do defined "$a" >>"$tmp/above"; done
	nm -g --defined-only "$build"/cmd/*.o 2>/dev/null |
		awk 'NF == 3 { print $3 }' >>"$tmp/above"
	sort -u -o "$tmp/above" "$tmp/above"
	undefined $l | comm -12 - "$tmp/above" >"$tmp/out"
	if [ -s "$tmp/out" ]; then not_ok "lib$l.a uses nothing from ${above:-cmd}"
	else ok "lib$l.a uses nothing from ${above:-cmd}"; fi
done

# The unit tests: the model and Check, no SimGrid, GSL or inih.
: >"$tmp/out"
units=
for t in "$build"/tests/unit/check_*; do
	case $t in *.*) continue ;; esac	# logs, objects
	[ -x "$t" ] || continue
	units="$units $t"
	{ readelf -d "$t" | grep -E 'NEEDED.*lib(simgrid|gsl|inih)'
	  nm -D --undefined-only "$t" | grep -E ' (sg_|simgrid_|xbt_|gsl_|ini_)'
	} | sed "s|^|$t: |" >>"$tmp/out"
done
if [ -n "$units" ] && [ ! -s "$tmp/out" ]; then
	ok "unit tests link no SimGrid, GSL or inih"
else not_ok "unit tests link no SimGrid, GSL or inih"; fi

# The model builds without the configuration: config.h refuses it.
if grep -q 'PPSIM_MODEL' "$build/config.h" &&
   ! grep -rl --include='*.[ch]' '"config.h"' "$src/model" >"$tmp/out"; then
	ok "model/ includes no config.h"
else not_ok "model/ includes no config.h"; fi
