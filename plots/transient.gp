# The rate and the fraction of packets in CPU-local pages over time, across
# the irq migration, one line per policy: the mean of the replications.
# Input: DIR/transient-mean.csv written by ppsim run --out DIR
#   case,policy,t_s,rate,unit,local_pages ('#' lines: provenance)
# Use: gnuplot -c transient.gp DATA OUT TITLE POLICIES MIGRATE LINES
#        COLOURS REPS YLABEL
# POLICIES: their names, separated by spaces; MIGRATE: the migration's time
# in s, negative for none; LINES: for each policy the first and last data
# line (0 is the one after the header) of its samples, so that no case
# name is compared (gnuplot cuts a CSV field at a quote); COLOURS: each
# policy's colour (#rrggbb), the same in every ppsim plot; REPS: how many
# replications the lines are the mean of; YLABEL: the rate's axis (Mpps,
# or Gbps of payload for TCP); OUT: .png or .svg.  With -e "case='far-drop'"
# instead of LINES, the lines are those whose case column is that name.
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (ARGC >= 4) policies = ARG4
if (ARGC >= 5) migrate = ARG5 + 0
if (ARGC >= 6) lines = ARG6
if (ARGC >= 7) colours = ARG7
if (ARGC >= 8) reps = ARG8 + 0
if (ARGC >= 9) ylabel = ARG9
if (!exists("data")) data = 'transient-mean.csv'
if (!exists("case")) case = 'far-drop'
if (!exists("policies")) policies = 'v5.4 v5.5'
if (!exists("colours")) colours = '#4477aa #ee6677 #228833 #ccbb44'
if (!exists("reps")) reps = 1
if (!exists("ylabel")) ylabel = 'packet rate (Mpps)'
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
set rmargin 14
set grid
set key outside right top
if (migrate >= 0) {
	set arrow 1 from migrate*1e3, graph 0 to migrate*1e3, graph 1 nohead dt 2 lw 1.5 lc rgb '#555555'
	set label 1 'irq moved' at migrate*1e3, graph 1 offset 0.5,-1 left textcolor rgb '#555555'
}
# policies that agree (a close case) draw one line over the other: each
# later one thinner and dashed, so that every one shows
lw(k) = 1.5 + 2 * (words(policies) - k)
first(k) = int(word(lines, 2*k-1))
last(k) = int(word(lines, 2*k))
mine(p) = strcol(1) eq case && strcol(2) eq p
what = reps > 1 ? sprintf(' (mean of %d runs)', reps) : ''
set ylabel ylabel.what
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set format x ''
if (exists("lines")) {
	plot for [k=1:words(policies)] data every ::first(k)::last(k) \
		using ($3*1e3):4 with lines lw lw(k) dt k lc rgb word(colours, k) title word(policies, k)
} else {
	plot for [k=1:words(policies)] data using ($3*1e3):(mine(word(policies, k)) ? $4 : NaN) \
		with lines lw lw(k) dt k lc rgb word(colours, k) title word(policies, k)
}
unset label 1
# the time axis the rates had: the local fraction has no point at all when
# no packet came (rate = 1pps), and gnuplot refuses to autoscale nothing
set xrange [GPVAL_X_MIN:GPVAL_X_MAX]
set offsets 0, 0, 0, 0
set ylabel 'packets in local pages (%)'
set xlabel 'simulated time (ms)'
set format x '%g'
set yrange [-5:105]
if (exists("lines")) {
	plot for [k=1:words(policies)] data every ::first(k)::last(k) \
		using ($3*1e3):(100*$6) with lines lw lw(k) dt k lc rgb word(colours, k) title word(policies, k)
} else {
	plot for [k=1:words(policies)] data using ($3*1e3):(mine(word(policies, k)) ? 100*$6 : NaN) \
		with lines lw lw(k) dt k lc rgb word(colours, k) title word(policies, k)
}
unset multiplot
