# Where each packet's time goes on the NAPI core: work, memory stalls,
# idle, stacked, one bar per case and policy.
# Input: DIR/split.csv written by ppsim run --out DIR
#   label,case,policy,cpu_ns,stall_ns,idle_ns
# Use: gnuplot -c split.gp DATA OUT TITLE (OUT: .png or .svg)
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (!exists("data")) data = 'split.csv'
if (!exists("out")) out = 'split.png'
if (!exists("title")) title = 'ppsim: time per packet'
if (out[strlen(out)-3:] eq '.svg') {
	set terminal svg size 900,500 dynamic font 'sans,11'
} else {
	set terminal pngcairo size 900,500 font 'sans,10'
}
set output out
set datafile separator ','
set termoption noenhanced
set title title
set datafile columnheaders
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel 'time per packet (ns)'
set yrange [0:*]
set grid ytics
set key top left
set xtics rotate by -30 left nomirror
set bmargin 6
plot data using 4:xtic(1) title 'CPU work' lc rgb '#4477aa', \
     '' using 5 title 'memory stalls' lc rgb '#ee7733', \
     '' using 6 title 'idle' lc rgb '#bbbbbb'
