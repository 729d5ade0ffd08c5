# The predicted rate against a swept key, one line per case and policy
# (and value of any other swept key), with the 95 % confidence interval.
# Input: DIR/sweep-rate.dat written by ppsim sweep --out DIR: one block
# ("x rate ci95" lines, the rate in the case's unit) per line of the
# plot, in the order of 'series' (one name a line: a case name cannot
# hold a newline).
# Use: gnuplot -c sweep.gp DATA OUT TITLE SERIES XLABEL YLABEL
# (SERIES: the blocks' names, one a line; OUT: .png or .svg)
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (ARGC >= 4) series = ARG4
if (ARGC >= 5) xlabel = ARG5
if (ARGC >= 6) ylabel = ARG6
if (!exists("data")) data = 'sweep-rate.dat'
if (!exists("out")) out = 'sweep.png'
if (!exists("xlabel")) xlabel = 'swept value'
if (!exists("title")) title = 'ppsim sweep'
if (!exists("series")) series = ''
if (!exists("ylabel")) ylabel = 'packet rate (Mpps)'
if (out[strlen(out)-3:] eq '.svg') {
	set terminal svg size 900,500 dynamic font 'sans,11'
} else {
	set terminal pngcairo size 900,500 font 'sans,10'
}
set output out
set termoption noenhanced
set title title
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set grid
set key outside right top
stats data using 1 nooutput
if (STATS_min > 0 && STATS_max / STATS_min >= 16) { set logscale x 2 }
set offsets graph 0.03, graph 0.03, 0, 0
# the k-th of the names, one a line
item(s, k) = (k == 1 ? (strstrt(s, "\n") ? s[1:strstrt(s, "\n")-1] : s) : item(s[strstrt(s, "\n")+1:], k-1))
nseries = STATS_blocks
plot for [k=1:nseries] data index (k-1) using 1:2:3 with yerrorlines lw 2 pt 7 title item(series, k)
