#!/bin/sh
# run --out's index.html: one page that needs nothing else, opened in
# headless Chromium (Debian's chromium package): its before/after table
# renders as a table, every plot decodes as an image, and a screenshot is
# taken.  Without chromium those points are skipped, saying so.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
tiny=$src/tests/scenarios/tiny.ini
chromium=$(command -v chromium || command -v chromium-browser)
echo "1..6"

"$ppsim" run "$tiny" --reps 1 --duration 1ms --out "$tmp/o" >/dev/null 2>"$tmp/out"
page=$tmp/o/index.html
svgs=$(ls "$tmp/o" | grep -c '\.svg$')
check "index.html: every plot inlined ($svgs SVGs), nothing fetched from elsewhere" sh -c "
	test -s '$page' && test $svgs -gt 0 &&
	test \$(grep -o 'src=\"data:image/svg+xml;base64,' '$page' | wc -l) -eq $svgs &&
	! grep -Eq '(src|href)=\"(https?:|//|file:|[a-z0-9_.-]+\\.(svg|png|css|js)\")' '$page'"
check "... the figures the profile marks guesses, each with its line; uncalibrated said" sh -c "
	grep -Eq '^[^ ]*hw/e5-2603v4-2s.ini:[0-9]+: llc_policy = qlru .*guess' '$page' &&
	grep -q ': rx_pkt = 100 *; prior' '$page' && grep -q '<strong>Uncalibrated:' '$page' &&
	! grep -q ': win_ring = ' '$page'"
"$ppsim" run "$src/scenarios/mlx5-cx4-numa.ini" --case far-drop --reps 1 --duration 1ms \
	--out "$tmp/cal" >/dev/null 2>"$tmp/out"
check "... a figure the calibration fitted is not a guess any more" sh -c "
	grep -q ': llc_policy = qlru' '$tmp/cal/index.html' && ! grep -q ': rx_pkt = ' '$tmp/cal/index.html' &&
	! grep -q 'Uncalibrated:' '$tmp/cal/index.html'"

if [ -z "$chromium" ]; then
	for p in 4 5 6; do
		echo "ok $p # SKIP chromium not installed (apt-get install chromium)"
	done
	exit 0
fi
# what the browser made of the page: a script added to a copy counts the
# images that decoded and the before/after table's rows into the title
sed 's|</body>|<script>addEventListener("load", function () { var i = Array.prototype.slice.call(document.images); document.title = "images " + i.length + " decoded " + i.filter(function (m) { return m.complete \&\& m.naturalWidth > 0; }).length + " rows " + document.querySelectorAll("table.commit tr").length; });</script></body>|' \
	"$page" >"$tmp/o/probe.html"
browse() {
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chrome" --virtual-time-budget=10000 "$@" \
		2>>"$tmp/chrome.log"
}
browse --dump-dom "file://$tmp/o/probe.html" >"$tmp/dom.html"
title=$(sed -n 's|.*<title>\(images [0-9]* decoded [0-9]* rows [0-9]*\)</title>.*|\1|p' "$tmp/dom.html")
set -- $title
check "Chromium decodes every plot ($title)" sh -c "
	test '$2' = '$svgs' && test '$4' = '$svgs'"
check "... and renders the before/after table (a header and 3 cases)" test "${6:-0}" -eq 4
browse --screenshot="$tmp/shot.png" --window-size=1200,4000 "file://$page" >/dev/null
check "a screenshot of the page ($(wc -c <"$tmp/shot.png" 2>/dev/null) bytes)" sh -c "
	test \$(wc -c <'$tmp/shot.png') -gt 30000"
