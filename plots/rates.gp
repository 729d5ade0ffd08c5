# Measured beside predicted rates, one cluster per case and policy, with
# the 95 % confidence interval of the prediction as an error bar.
# Input: DIR/rates.csv written by ppsim run --out DIR
#   label,case,policy,measured,predicted,ci95,unit (Mpps, or Gbps for TCP)
# Use: gnuplot -c rates.gp DATA OUT TITLE YLABEL (OUT's extension .png or
# .svg picks the terminal); ppsim run --out DIR runs it so.
# the arguments of gnuplot -c (strings, never evaluated); without them,
# variables set with -e, else these defaults
if (ARGC >= 1) data = ARG1
if (ARGC >= 2) out = ARG2
if (ARGC >= 3) title = ARG3
if (ARGC >= 4) ylabel = ARG4
if (!exists("data")) data = 'rates.csv'
if (!exists("out")) out = 'rates.png'
if (!exists("title")) title = 'ppsim: predicted vs measured'
if (!exists("ylabel")) ylabel = 'packet rate (Mpps)'
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
set style fill solid 0.8 border -1
set boxwidth 0.38
set ylabel ylabel
set yrange [0:*]
set offsets 0.6, 0.6, 0, 0
set grid ytics
set key top right
set xtics rotate by -30 left nomirror
set bmargin 6
plot data using ($0-0.2):4 with boxes title 'measured' lc rgb '#4477aa', \
     '' using ($0+0.2):5:6 with boxerrorbars title 'predicted (95% CI)' lc rgb '#ee7733', \
     '' using 0:(NaN):xtic(1) notitle
