# The predicted rate against a swept key, one line per case and policy
# (and value of any other swept key), in its policy's colour (the same in
# every ppsim plot), with the 95 % confidence interval when there are
# replications and the measured figure where the scenario was measured.
# Input: DIR/sweep-rate.dat written by ppsim sweep --out DIR: one block
# ("x rate ci95 measured top" lines, the rate in the case's unit,
# measured nan where there is none, top the highest of the three) per line of the plot, in the order of 'series'
# (one name a line: a case name cannot hold a newline).
# Use: gnuplot -c sweep.gp DATA OUT TITLE SERIES XLABEL YLABEL COLOURS REPS
# MEASURED (SERIES: the blocks' names, one a line; COLOURS: theirs,
# #rrggbb, separated by spaces; OUT: .png or .svg; MEASURED: the key's
# entry for the diamonds, empty when no point was measured)
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (ARGC >= 4) series = ARG4
if (ARGC >= 5) xlabel = ARG5
if (ARGC >= 6) ylabel = ARG6
if (ARGC >= 7) colours = ARG7
if (ARGC >= 8) reps = ARG8 + 0
if (ARGC >= 9) measured = ARG9
if (!exists("data")) data = 'sweep-rate.dat'
if (!exists("out")) out = 'sweep.png'
if (!exists("xlabel")) xlabel = 'swept value'
if (!exists("title")) title = 'ppsim sweep'
if (!exists("series")) series = ''
if (!exists("ylabel")) ylabel = 'packet rate (Mpps)'
if (!exists("reps")) reps = 1
if (!exists("measured")) measured = 'measured'
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
set grid
set key outside right top
stats data using 1 nooutput
if (STATS_min > 0 && STATS_max / STATS_min >= 16) { set logscale x 2 }
nseries = STATS_blocks
stats data using 5 nooutput
set yrange [0:STATS_max * 1.15]
set offsets graph 0.03, graph 0.03, 0, 0
# the k-th of the names, one a line
item(s, k) = (k == 1 ? (strstrt(s, "\n") ? s[1:strstrt(s, "\n")-1] : s) : item(s[strstrt(s, "\n")+1:], k-1))
colour(k) = exists("colours") && words(colours) >= k ? word(colours, k) : '#4477aa'
# the CI only when there are replications: one run has none
if (reps > 1) {
	plot for [k=1:nseries] data index (k-1) using 1:2:3 with yerrorlines lw 2 pt 7 lc rgb colour(k) dt k title item(series, k), \
	     for [k=1:nseries] data index (k-1) using 1:4 with points pt 13 ps 1.6 lc rgb colour(k) notitle, \
	     NaN with points pt 13 ps 1.6 lc rgb 'black' title measured
} else {
	plot for [k=1:nseries] data index (k-1) using 1:2 with linespoints lw 2 pt 7 lc rgb colour(k) dt k title item(series, k), \
	     for [k=1:nseries] data index (k-1) using 1:4 with points pt 13 ps 1.6 lc rgb colour(k) notitle, \
	     NaN with points pt 13 ps 1.6 lc rgb 'black' title measured
}
