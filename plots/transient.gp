# The rate and the fraction of packets in CPU-local pages over time, across
# the irq migration, one line per policy (first replication).
# Input: DIR/transient.csv written by ppsim run --out DIR
#   case,policy,rep,t_s,rate_mpps,local_pages
# Use: gnuplot -c transient.gp DATA OUT TITLE POLICIES MIGRATE LINES
# POLICIES: their names, separated by spaces; MIGRATE: the migration's time
# in s, negative for none; LINES: for each policy the first and last data
# line (0 is the one after the header) of its first replication, so that
# no case name is compared (gnuplot cuts a CSV field at a quote); OUT: .png
# or .svg.  With -e "case='far-drop'" instead of LINES, the lines are those
# whose case column is that name.
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (ARGC >= 4) policies = ARG4
if (ARGC >= 5) migrate = ARG5 + 0
if (ARGC >= 6) lines = ARG6
if (!exists("data")) data = 'transient.csv'
if (!exists("case")) case = 'far-drop'
if (!exists("policies")) policies = 'v5.4 v5.5'
if (!exists("out")) out = case.'.png'
if (!exists("title")) title = 'ppsim: '.case
if (!exists("migrate")) migrate = -1
if (out[strlen(out)-3:] eq '.svg') {
	set terminal svg size 900,600 dynamic font 'sans,11'
} else {
	set terminal pngcairo size 900,600 font 'sans,10'
}
set output out
set datafile separator ','
set datafile columnheaders
set termoption noenhanced
set multiplot layout 2,1 title title
set lmargin 10
set grid
set key bottom right
if (migrate >= 0) { set arrow 1 from migrate*1e3, graph 0 to migrate*1e3, graph 1 nohead dt 2 lc rgb '#888888' }
first(k) = int(word(lines, 2*k-1))
last(k) = int(word(lines, 2*k))
mine(p) = strcol(1) eq case && strcol(2) eq p && $3 == 1
set ylabel 'packet rate (Mpps)'
set yrange [0:*]
set format x ''
if (exists("lines")) {
	plot for [k=1:words(policies)] data every ::first(k)::last(k) \
		using ($4*1e3):5 with lines lw 2 title word(policies, k)
} else {
	plot for [p in policies] data using ($4*1e3):(mine(p) ? $5 : NaN) \
		with lines lw 2 title p
}
set ylabel 'packets in local pages (%)'
set xlabel 'simulated time (ms)'
set format x '%g'
set yrange [-5:105]
if (exists("lines")) {
	plot for [k=1:words(policies)] data every ::first(k)::last(k) \
		using ($4*1e3):(100*$6) with lines lw 2 title word(policies, k)
} else {
	plot for [p in policies] data using ($4*1e3):(mine(p) ? 100*$6 : NaN) \
		with lines lw 2 title p
}
unset multiplot
