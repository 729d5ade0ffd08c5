#!/bin/sh
# The layers the build keeps apart (Makefile.am): each library may use only
# those below it, the model no SimGrid, GSL or inih, the unit tests link
# the model alone, sim/'s files call one another one way, and a trace is
# read by input/, run by model/trace/ and written by report/.  Reads the
# objects the build made (nm, readelf).  Speaks TAP.
. "$(dirname "$0")/tap.sh"
build=$(dirname "$ppsim")

# The layers, lowest first, and the outside libraries each may not use.
# sim/'s files, in the order they may call one another: each only those
# before it (no call cycle between two files).
layers="model io sim input report"
foreign_model='^(sg_|simgrid_|xbt_|gsl_|ini_)'
foreign_io='^(sg_|simgrid_|xbt_|gsl_|ini_)'
foreign_sim='^ini_'
foreign_input='^(sg_|simgrid_|xbt_|gsl_)'
foreign_report='^(ini_|sg_actor|sg_host|sg_mailbox)'
sim_files="platform nic consumer napi monitor sim"

# symbols OUT KIND FILE...: the symbols FILEs define (KIND defined) or
# leave for others (undefined), sorted, into OUT.  On an empty list every
# check below would pass, so when nm fails or lists nothing the test bails
# out.
symbols() {
	out=$1 kind=$2
	shift 2
	: >"$out"
	if nm -g --$kind-only "$@" >"$tmp/nm" 2>&1; then
		if [ $kind = defined ]; then
			awk 'NF == 3 { print $3 }' "$tmp/nm"
		else
			awk '{ print $NF }' "$tmp/nm"
		fi | sort -u >"$out"
	fi
	if [ ! -s "$out" ]; then
		echo "Bail out! nm --$kind-only $* listed nothing"
		sed 's/^/# /' "$tmp/nm" | head -5
		exit 1
	fi
}

echo "1..$(( $(echo $layers | wc -w) * 2 + 11 ))"
for l in $layers; do
	[ -f "$build/lib$l.a" ] || continue	# a test point below
	symbols "$tmp/$l.defined" defined "$build/lib$l.a"
	symbols "$tmp/$l.undefined" undefined "$build/lib$l.a"
done
symbols "$tmp/cmd.defined" defined "$build"/cmd/*.o

for l in $layers; do
	eval foreign=\$foreign_$l
	if [ ! -f "$build/lib$l.a" ]; then
		not_ok "lib$l.a exists"; not_ok "lib$l.a: nothing from above"; continue
	fi
	grep -E "$foreign" "$tmp/$l.undefined" >"$tmp/out"
	if [ -s "$tmp/out" ]; then not_ok "lib$l.a uses none of $foreign"
	else ok "lib$l.a uses none of $foreign"; fi
	# what the layers above it define (and the commands)
	above=$(echo $layers | sed "s/.*\b$l\b *//")
	cp "$tmp/cmd.defined" "$tmp/above"
	for a in $above; do
		[ ! -f "$tmp/$a.defined" ] || cat "$tmp/$a.defined" >>"$tmp/above"
	done
	sort -u -o "$tmp/above" "$tmp/above"
	comm -12 "$tmp/$l.undefined" "$tmp/above" >"$tmp/out"
	if [ -s "$tmp/out" ]; then not_ok "lib$l.a uses nothing from ${above:-cmd}"
	else ok "lib$l.a uses nothing from ${above:-cmd}"; fi
done

# report/ only reads results: what it writes comes in its rows (the unit,
# the baseline, the values as text), so it uses nothing of input/ (the
# scenarios) or sim/ (the engine), though both lie below it.
if [ -f "$tmp/report.undefined" ] && [ -f "$tmp/input.defined" ] &&
   [ -f "$tmp/sim.defined" ]; then
	sort -u "$tmp/input.defined" "$tmp/sim.defined" >"$tmp/lower"
	comm -12 "$tmp/report.undefined" "$tmp/lower" >"$tmp/out"
	if [ -s "$tmp/out" ]; then
		not_ok "libreport.a uses nothing of libinput.a or libsim.a"
	else ok "libreport.a uses nothing of libinput.a or libsim.a"; fi
else not_ok "libreport.a uses nothing of libinput.a or libsim.a"; fi

# The unit tests: the model and Check, no SimGrid, GSL or inih.
: >"$tmp/out"
units=
for t in "$build"/tests/unit/check_*; do
	case ${t##*/} in *.*) continue ;; esac	# logs, objects
	[ -x "$t" ] || continue
	units="$units $t"
	# a binary readelf or nm cannot read would show no library
	if ! readelf -d "$t" >"$tmp/dynamic" 2>&1 ||
	   ! nm -D --undefined-only "$t" >"$tmp/dynsym" 2>&1 ||
	   [ ! -s "$tmp/dynsym" ]; then
		echo "$t: readelf -d or nm -D failed or listed nothing" >>"$tmp/out"
		continue
	fi
	{ grep -E 'NEEDED.*lib(simgrid|gsl|inih)' "$tmp/dynamic"
	  grep -E ' (sg_|simgrid_|xbt_|gsl_|ini_)' "$tmp/dynsym"
	} | sed "s|^|$t: |" >>"$tmp/out"
done
if [ -n "$units" ] && [ ! -s "$tmp/out" ]; then
	ok "unit tests link no SimGrid, GSL or inih"
else not_ok "unit tests link no SimGrid, GSL or inih"; fi

# The model builds without the configuration: config.h refuses it.  grep
# exits 1 when no file of model/ names config.h, 2 when it failed.
grep -rl --include='*.[ch]' '"config.h"' "$src/model" >"$tmp/out" 2>&1
rc=$?
if grep -q 'PPSIM_MODEL' "$build/config.h" && [ $rc -eq 1 ]; then
	ok "model/ includes no config.h"
else not_ok "model/ includes no config.h"; fi

# sim/'s files call one another one way: each object of libsim.a uses
# nothing that a file after it in sim_files defines, and every object is
# in the list.
: >"$tmp/out"
for o in "$build"/sim/libsim_a-*.o; do
	f=${o##*/libsim_a-}
	f=${f%.o}
	case " $sim_files " in
	*" $f "*) ;;
	*) echo "$o: not in tests/layers.sh's sim_files" >>"$tmp/out" ;;
	esac
done
for f in $sim_files; do
	o="$build/sim/libsim_a-$f.o"
	if [ ! -f "$o" ]; then
		echo "$o: missing" >>"$tmp/out"
		continue
	fi
	nm --undefined-only "$o" | awk '{ print $NF }' | sort -u >"$tmp/$f.uses"
	: >"$tmp/later"
	for a in $(echo $sim_files | sed "s/.*\b$f\b *//"); do
		[ ! -f "$build/sim/libsim_a-$a.o" ] ||
			nm -g --defined-only "$build/sim/libsim_a-$a.o" |
			awk 'NF == 3 { print $3 }' >>"$tmp/later"
	done
	sort -u -o "$tmp/later" "$tmp/later"
	comm -12 "$tmp/$f.uses" "$tmp/later" | sed "s|^|sim/$f.c calls up: |" \
		>>"$tmp/out"
done
if [ -s "$tmp/out" ]; then not_ok "sim/'s files call one another one way"
else ok "sim/'s files call one another one way"; fi

# A workload is one file (model/workload/workload.h): each object of
# model/workload/ but the registry's uses nothing another defines.
: >"$tmp/out"
wl_objs=$(ls "$build"/model/workload/libmodel_a-*.o 2>/dev/null |
	  grep -v '/libmodel_a-workload\.o$')
[ -n "$wl_objs" ] || echo "model/workload/: no workload objects" >>"$tmp/out"
for o in $wl_objs; do
	symbols "$tmp/wl.uses" undefined "$o"
	: >"$tmp/wl.others"
	for a in $wl_objs; do
		[ "$a" = "$o" ] ||
			nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' \
			>>"$tmp/wl.others"
	done
	sort -u -o "$tmp/wl.others" "$tmp/wl.others"
	f=${o##*/libmodel_a-}
	comm -12 "$tmp/wl.uses" "$tmp/wl.others" |
		sed "s|^|model/workload/${f%.o}.c uses another workload: |" \
		>>"$tmp/out"
done
if [ -s "$tmp/out" ]; then
	not_ok "a workload file uses no other workload"
	sed 's/^/# /' "$tmp/out"
else ok "a workload file uses no other workload"; fi

# A NIC is one folder of model/nic/ (model/nic/nic_model.h): sim/ and the
# workloads reach it only through the queue (rxq.h), and it uses no
# workload.  The objects say which functions each calls (nm); the sources
# which headers each includes, as a struct's members leave no symbol.
: >"$tmp/out"
nic_objs=$(ls "$build"/model/nic/*/libmodel_a-*.o 2>/dev/null)
[ -n "$nic_objs" ] || echo "model/nic/: no NIC folder's objects" >>"$tmp/out"
symbols "$tmp/nic.defined" defined $nic_objs
for o in $wl_objs "$build"/sim/libsim_a-*.o; do
	nm --undefined-only "$o" | awk '{ print $NF }' | sort -u |
		comm -12 - "$tmp/nic.defined" |
		sed "s|^|${o#"$build"/} uses the NIC's own |" >>"$tmp/out"
done
(cd "$src" && grep -lE '#include "[^"]*(nic_model\.h|nic/[^/"]+/)' \
	model/workload/*.[ch] sim/*.[ch]) |
	sed 's/$/: includes a NIC'"'"'s own header/' >>"$tmp/out"
if [ -s "$tmp/out" ]; then
	not_ok "sim/ and the workloads use a NIC only through rxq.h"
else ok "sim/ and the workloads use a NIC only through rxq.h"; fi

: >"$tmp/out"
symbols "$tmp/wl.defined" defined "$build"/model/workload/libmodel_a-*.o
for o in $nic_objs; do
	nm --undefined-only "$o" | awk '{ print $NF }' | sort -u |
		comm -12 - "$tmp/wl.defined" |
		sed "s|^|${o#"$build"/} uses a workload's |" >>"$tmp/out"
done
(cd "$src" && grep -lE '#include "[^"]*workload' model/nic/*/*.[ch]) |
	sed 's/$/: includes a workload'"'"'s header/' >>"$tmp/out"
if [ -s "$tmp/out" ]; then
	not_ok "a NIC's folder uses no workload"
else ok "a NIC's folder uses no workload"; fi

# quoted_in_input NAMES: the lines of input/'s files that name one of
# NAMES (extended regular expressions, one a line) in quotes, into
# $tmp/out; verdict WHAT: the test point WHAT, failing on any line there.
quoted_in_input() {
	while read -r w; do
		grep -HnE "\"$w\"" "$src"/input/*.c
	done <"$1" >>"$tmp/out"
}
verdict() {
	if [ -s "$tmp/out" ]; then not_ok "$1"; else ok "$1"; fi
}

# input/ parses keys, it does not know workloads (model/key.h): no object
# of libinput.a uses a symbol of a workload's file (the registry's aside),
# and no file of input/ names a workload or a workload's own key ("tcp",
# "case.tcp_rmem"): those come from the registry.
: >"$tmp/out"
if [ -n "$wl_objs" ] && [ -f "$tmp/input.undefined" ]; then
	nm -g --defined-only $wl_objs | awk 'NF == 3 { print $3 }' |
		sort -u >"$tmp/wl.defined"
	comm -12 "$tmp/input.undefined" "$tmp/wl.defined" |
		sed 's|^|libinput.a uses a workload symbol: |' >>"$tmp/out"
	sed -n 's/.*\.name = "\([a-z0-9_]*\)".*/(case\\.)?\1/p
		s/.*WORKLOAD_KEY("\([a-z0-9_]*\)".*/(case\\.)?\1/p' \
		"$src"/model/workload/*.c | sort -u >"$tmp/wl.names"
	[ -s "$tmp/wl.names" ] ||
		echo "model/workload/: no names or keys found" >>"$tmp/out"
	quoted_in_input "$tmp/wl.names"
else
	echo "no workload objects or libinput.a" >>"$tmp/out"
fi
verdict "input/ names no workload and no workload's key"

# Nor NIC models (model/nic/nic_model.h): no object of libinput.a uses a
# symbol of a NIC's folder (the registry, nic_models[], is not in one),
# and no file of input/ names a NIC model or one of its own keys
# ("mlx5-legacy", "nic.wqe_fetch", "page_cache").  A NIC_KEY row names
# its section and key on its first line, or it is not seen: said.
: >"$tmp/out"
if [ -n "$nic_objs" ] && [ -f "$tmp/input.undefined" ]; then
	comm -12 "$tmp/input.undefined" "$tmp/nic.defined" |
		sed 's|^|libinput.a uses a NIC symbol: |' >>"$tmp/out"
	sed -n 's/.*\.name = "\([a-z0-9_-]*\)".*/\1/p
		s/.*NIC_KEY([^,]*, *[a-z0-9_]*, *"\([a-z]*\)", *"\([a-z0-9_]*\)".*/(\1\\.)?\2/p' \
		"$src"/model/nic/*/*.c | sort -u >"$tmp/nic.names"
	rows=$(cat "$src"/model/nic/*/*.c | grep -c 'NIC_KEY(')
	[ "$(grep -c '^(' "$tmp/nic.names")" -eq "$rows" ] ||
		echo "model/nic/: a NIC_KEY row's section or name is not on its first line" >>"$tmp/out"
	grep -q '^[^(]' "$tmp/nic.names" ||
		echo "model/nic/: no NIC model's name found" >>"$tmp/out"
	quoted_in_input "$tmp/nic.names"
else
	echo "no NIC folder's objects or libinput.a" >>"$tmp/out"
fi
verdict "input/ names no NIC model and no NIC's key"

# A trace is read by input/ and run by model/trace/, whose events report/
# writes (report/trace.c): input/ runs nothing, neither the runner nor the
# machine it runs on, and the runner writes nothing itself (snprintf into
# its own buffers is no writing).
if [ -f "$tmp/input.undefined" ]; then
	grep -E '^(trace_exec|mm_|kctx_)' "$tmp/input.undefined" >"$tmp/out"
	if [ -s "$tmp/out" ]; then
		not_ok "libinput.a runs no trace (model/trace/ does)"
	else ok "libinput.a runs no trace (model/trace/ does)"; fi
else not_ok "libinput.a runs no trace (model/trace/ does)"; fi
: >"$tmp/out"
tr_objs=$(ls "$build"/model/trace/libmodel_a-*.o 2>/dev/null)
writers='^(__)?(v?f?printf|fputs|fputc|putc|putchar|puts|fwrite|perror)(_chk)?$'
writers="$writers|^(stdout|stderr)$"
[ -n "$tr_objs" ] || echo "model/trace/: no objects" >>"$tmp/out"
for o in $tr_objs; do
	symbols "$tmp/tr.uses" undefined "$o"
	grep -E "$writers" "$tmp/tr.uses" | sed "s|^|$o writes: |" \
		>>"$tmp/out"
done
if [ -s "$tmp/out" ]; then
	not_ok "the trace runner writes nothing (report/trace.c does)"
else ok "the trace runner writes nothing (report/trace.c does)"; fi
