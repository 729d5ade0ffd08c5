# Before and after: the predicted rate of every policy, side by side per
# case, each bar in its policy's colour, the change against the case's
# baseline policy written on it, the measured figure as a black diamond,
# and the 95 % confidence interval when there are replications.
# Input: DIR/rates.csv written by ppsim run --out DIR ('#' lines:
# provenance)
#   label,case,policy,measured,predicted,ci95,unit,delta_pct,group,x,width,
#   colour,delta_text,tic,top
# (x: the bar's place, group: its case's, tic: the case name, at the
# group's x, top: how high its bar, CI or measurement reach; unit Mpps,
# or Gbps of payload for TCP)
# Use: gnuplot -c rates.gp DATA OUT TITLE YLABEL REPS POLICIES COLOURS
# (REPS: replications, the CI drawn when more than 1; POLICIES: the names,
# separated by spaces; COLOURS: theirs, #rrggbb, the same in every ppsim
# plot; OUT's extension .png or .svg picks the terminal); ppsim run --out
# DIR runs it so.
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (ARGC >= 4) ylabel = ARG4
if (ARGC >= 5) reps = ARG5 + 0
if (ARGC >= 6) policies = ARG6
if (ARGC >= 7) colours = ARG7
if (!exists("data")) data = 'rates.csv'
if (!exists("out")) out = 'rates.png'
if (!exists("title")) title = 'ppsim: before and after'
if (!exists("ylabel")) ylabel = 'packet rate (Mpps)'
if (!exists("reps")) reps = 1
if (!exists("policies")) policies = 'v5.4 v5.5'
if (!exists("colours")) colours = '#4477aa #ee6677 #228833 #ccbb44'
if (out[strlen(out)-3:] eq '.svg') {
	set terminal svg size 900,500 dynamic font 'sans,11'
} else {
	set terminal pngcairo size 900,500 font 'sans,10'
}
set datafile separator ','
set datafile columnheaders
set termoption noenhanced
# the tallest bar or measurement, with room above it for the labels
stats data using 15:9 nooutput
top = STATS_max_x > 0 ? STATS_max_x : 1	# no packet at all (rate = 1pps)
groups = STATS_max_y + 1
set output out
set title title
set style fill solid 0.85 border -1
set ylabel ylabel
set xlabel 'case: a bar a policy'
# more than two policies: their changes' labels, wider than a bar, in two
# rows (every second policy's higher) and a size smaller, lest they meet
many = words(policies) > 2
lift(k) = many && k % 2 == 0 ? top * 0.08 : 0
set yrange [0:top * (many ? 1.28 : 1.18)]
set xrange [-0.6:groups - 0.4]
set grid ytics
set key outside top center horizontal Left reverse samplen 2 width 2
set xtics nomirror scale 0
ci = reps > 1 ? sprintf('predicted: 95 %% CI of %d runs', reps) : ''
# the CI only when there are replications: one run has none
if (reps > 1) {
	plot for [k=1:words(policies)] data \
		using 10:(strcol(3) eq word(policies, k) ? $5 : NaN):11 \
		with boxes lc rgb word(colours, k) title word(policies, k), \
	     data using 10:($5 - $6):(0):(2 * $6) with vectors heads size screen 0.006,90 lw 1.5 lc rgb '#222222' title ci, \
	     data using 10:4 with points pt 13 ps 1.6 lc rgb 'black' title 'measured', \
	     for [k=1:words(policies)] data \
		using 10:(strcol(3) eq word(policies, k) ? $15 + lift(k) : NaN):13 \
		with labels offset 0,1.4 font (many ? ',9' : ',10') notitle, \
	     data using 9:(NaN):xtic(14) notitle
} else {
	plot for [k=1:words(policies)] data \
		using 10:(strcol(3) eq word(policies, k) ? $5 : NaN):11 \
		with boxes lc rgb word(colours, k) title word(policies, k), \
	     data using 10:4 with points pt 13 ps 1.6 lc rgb 'black' title 'measured', \
	     for [k=1:words(policies)] data \
		using 10:(strcol(3) eq word(policies, k) ? $15 + lift(k) : NaN):13 \
		with labels offset 0,1.4 font (many ? ',9' : ',10') notitle, \
	     data using 9:(NaN):xtic(14) notitle
}
