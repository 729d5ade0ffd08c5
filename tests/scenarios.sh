#!/bin/sh
# Scenario files: every kind of bad input ends with "FILE:LINE: message"
# and exit 2; a small scenario runs end to end, gives the seed's ordering,
# and is reproducible from its seed.  Speaks TAP.
. "$(dirname "$0")/tap.sh"
bad=$src/tests/scenarios/bad
tiny=$src/tests/scenarios/tiny.ini

# bad FILE PATTERN: ppsim run exits 2 and says PATTERN
bad() {
	(cd "$bad" && "$ppsim" run "$1" --duration 1ms) >"$tmp/out" 2>&1
	rc=$?
	: >"$tmp/check"
	if [ $rc -eq 2 ] && grep -Eq -- "$2" "$tmp/out"; then
		ok "$1"
	else
		not_ok "$1 (exit $rc, wanted 2 and /$2/)"
	fi
}

echo "1..127"
bad bad-policy.ini "^bad-policy.ini:2: policies: unknown policy 'v9.9': this ppsim has v5.4 v5.5 v6.1 v6.12( |$)"
bad bad-unit.ini "^bad-unit.ini:2: duration: '10parsecs': unknown unit"
bad cycle-a.ini "cycle-b.ini:2: include cycle-a.ini: includes itself"
bad ddio-ways.ini "^ddio-ways.ini:2: ddio_ways 20 must be below llc_ways 20"
# a non-inclusive LLC: one of the two words, and the two ways beside
# DDIO's that a DMA write puts a line it takes from an L2 in
bad inclusive-word.ini "^inclusive-word.ini:2: inclusive: 'maybe': expected yes or no"
bad inclusive-ddio.ini "^inclusive-ddio.ini:2: inclusive = no needs 2 of llc_ways 20 beside ddio_ways 19: a DMA write puts a line it takes from a core's L2 into ways 0 and 1"
# NUMA nodes apart from sockets (SNC, NPS): a profile that contradicts
# itself, or a part asked for a split it does not have (the seed's
# E5-2603 v4 has no Cluster-on-Die)
bad nodes-not-allowed.ini "^nodes-not-allowed.ini:5: nodes 2: the part splits a socket into 1 NUMA node at most \\(cpu.max_nodes"
bad nodes-more-than-cores.ini "^nodes-more-than-cores.ini:4: nodes 4: more NUMA nodes than the socket's 2 cores"
bad nodes-not-dividing.ini "^nodes-not-dividing.ini:4: nodes 4 does not divide the socket's 6 cores"
bad nodes-too-many.ini "^nodes-too-many.ini:5: 8 sockets x 4 nodes: at most 16 nodes in all"
bad node-lat.ini "^node-lat.ini:8: node_lat 140 ns must lie between dram_lat 90 ns and rdram_lat 135 ns"
# no node_lat: said at the nodes line that asks for it, not the case's
bad nodes-no-node-lat.ini "^nodes-no-node-lat.ini:6: nodes 2 needs mem.node_lat: the latency of another node's DRAM"
"$ppsim" keys mem.node_lat 2>&1 | grep -q "the whole latency, as dram_lat is the own node's, not what it adds to dram_lat" &&
	ok "mem.node_lat's help: an absolute latency" ||
	not_ok "mem.node_lat's help: an absolute latency"
bad nic-node.ini "^nic-node.ini:9: nic.node 4 does not exist: the machine has 4 nodes \\(2 sockets x 2\\)"
bad machine-name-long.ini "^machine-name-long.ini:2: name: longer than 63 characters"
bad machine-name-ascii.ini "^machine-name-ascii.ini:2: name: character 0xc3 is not printable ASCII"
bad duplicate.ini "^duplicate.ini:3: duplicate key 'cores' in \[cpu\] \(first set at line 2\)"
bad duplicate-case.ini "^duplicate-case.ini:5: \[case a\] a second time \(first at line 2\): one section a case"
bad calibrate-no-case.ini "^calibrate-no-case.ini:7: cases: no \[case clsoe-tx\] in the scenario"
bad sweep-no-case.ini "^sweep-no-case.ini:6: cases: no \[case b\] in the scenario"
bad include-in-case.ini "^include-in-case.ini:9: include in \[case b\]: an included file's settings are every case's; include it in \[global\]"
bad machine-name-in-case.ini "^machine-name-in-case.ini:9: machine.name in \[case b\]: a scenario describes one machine"
bad family-in-case.ini "^family-in-case.ini:9: cpu.family in \[case b\]: a scenario describes one machine"
bad machine-name-comment.ini "^machine-name-comment.ini:6: name: '#' begins a comment, which cuts the name to 'Rack'"
bad duplicate-sweep.ini "^duplicate-sweep.ini:6: \[sweep ring\] a second time \(first at line 4\): one section a sweep"
bad measured-not-run.ini "^measured-not-run.ini:2: measured figure for v6.1"
# an include never overrides, unseen, what the file including it set above
# it, nor reads a file a second time
bad include-over-own.ini "^include-over-own.ini:8: include ../../../scenarios/hw/e5-2603v4-2s.ini sets freq in \\[cpu\\] again \\(.*e5-2603v4-2s.ini:[0-9]+\\) over include-over-own.ini:6 above it"
bad include-over-case.ini "^include-over-case.ini:8: include include-case-part.ini sets workload in \\[case a\\] again \\(.*include-case-part.ini:3\\) over include-over-case.ini:6 above it"
bad include-over-sweep.ini "^include-over-sweep.ini:9: include include-sweep-part.ini sets vary in \\[sweep ring\\] again"
# the same file under another name (a hard link, which git cannot hold)
ln "$bad/include-case-part.ini" "$tmp/hard.ini" 2>/dev/null || cp "$bad/include-case-part.ini" "$tmp/hard.ini"
printf '[global]\ninclude = %s\ninclude = %s\n' "$bad/include-case-part.ini" "$tmp/hard.ini" >"$tmp/twice.ini"
if [ "$(stat -c %i "$tmp/hard.ini")" = "$(stat -c %i "$bad/include-case-part.ini")" ]; then
	"$ppsim" run "$tmp/twice.ini" --dry-run >"$tmp/out" 2>&1
	test $? -eq 2 && grep -q "twice.ini:3: include .*hard.ini: read already" "$tmp/out" &&
		ok "a file read again under a hard link: refused" ||
		not_ok "a file read again under a hard link: $(tr '\n' '|' <"$tmp/out")"
else
	ok "# SKIP a hard link across file systems"
fi
bad include-twice.ini "^include-twice.ini:5: include ../../../scenarios/hw/cost-broadwell.ini: read already \\(included at .*e5-2603v4-2s.ini:[0-9]+\\)"
bad missing-include.ini "^missing-include.ini:2: include missing.ini: No such file"
bad no-case.ini "^no-case.ini:1: no \[case NAME\] section"
bad no-section.ini "^no-section.ini:1: workload: set before any \[section\]"
bad no-such-cpu.ini "^no-such-cpu.ini:5: irq_cpu 12 does not exist"
# said once: the queue on that CPU is the same mistake
test "$(grep -c 'no-such-cpu.ini' "$tmp/out")" -eq 1 &&
	ok "a CPU that does not exist: said once, not again as its queue" ||
	not_ok "a CPU that does not exist: said once: $(tr '\n' '|' <"$tmp/out")"
"$ppsim" run "$tiny" --set irq_cpu=10 --set queues=4 --dry-run >"$tmp/out" 2>&1
grep -q "^--set:2: 4 queues, one CPU each from CPU 10, do not fit the machine's 12 CPUs" "$tmp/out" &&
	ok "queues past the last CPU: said at the queues' line" ||
	not_ok "queues past the last CPU: $(tr '\n' '|' <"$tmp/out")"
bad not-pow2.ini "^not-pow2.ini:2: rx_ring 1000 is not a power of 2"
bad ring-too-big.ini "^ring-too-big.ini:4: 4096 pages per node cannot hold"
bad syntax.ini "^syntax.ini:3: expected '\]'"
bad typo.ini "^typo.ini:2: unknown key 'rx_rnig' \(did you mean nic.rx_ring\?\)"
bad unknown-section.ini "^unknown-section.ini:1: unknown section \[gloabl\] \(did you mean \[global\]\?\)"
bad include-device.ini "^include-device.ini:2: include /dev/zero: not a regular file"
bad zero-ring.ini "^zero-ring.ini:2: rx_ring: 0 is out of range \[2, 32768\]"
bad empty.ini "^empty.ini:1: empty scenario: no case"
bad hw-key-typo.ini "^hw-key-typo.ini:2: unknown key 'nic.rx_rin' \(did you mean nic.rx_ring\?\)"
bad retired-key.ini "^retired-key.ini:2: 'l2_lat' is gone: it became cache.l2_cycles, in core cycles"
bad dotted-in-hw.ini "^dotted-in-hw.ini:2: unknown key 'x.y'"
bad xdp-return-word.ini "^xdp-return-word.ini:2: xdp_return: 'batched': expected frame or bulk"
bad pp-lock.ini "^pp-lock.ini:3: pp_lock 37 is more than pp_ring 30, which holds it"
bad cpumap-no-such-cpu.ini "^cpumap-no-such-cpu.ini:6: redirect_cpu 12 does not exist"
bad cpumap-irq-cpu.ini "^cpumap-irq-cpu.ini:7: redirect_cpu 3 is the irq's CPU"
bad cpumap-no-redirect-cpu.ini "^cpumap-no-redirect-cpu.ini:5: xdp_cpumap needs redirect_cpu"
bad cpumap-queues.ini "^cpumap-queues.ini:7: xdp_cpumap takes one queue"
bad app-cpu-no-such-cpu.ini "^app-cpu-no-such-cpu.ini:7: app_cpu 12 does not exist"
bad app-cpu-not-tcp.ini "^app-cpu-not-tcp.ini:6: app_cpu is the reader of workload = tcp, not of xdp_drop"
bad port-one-port.ini "^port-one-port.ini:6: redirect_port = other: the NIC has 1 port \\(nic.ports\\)"
bad port-no-such-cpu.ini "^port-no-such-cpu.ini:10: redirect_cpu 12 does not exist"
bad cpumap-qsize-too-big.ini "^cpumap-qsize-too-big.ini:7: cpumap_qsize holds 65536 pages, more than the [0-9]+ that"
bad tcp-rmem-too-big.ini "^tcp-rmem-too-big.ini:8: tcp_rmem holds [0-9]+ pages, more than the [0-9]+ that"
bad tcp-pkt-size-range.ini "^tcp-pkt-size-range.ini:6: pkt_size: 10000 is out of range"
# ...and only that: the refused key's default is not checked against the
# others ("a TCP packet of 60 bytes carries no payload")
[ "$(wc -l <"$tmp/out")" -eq 1 ] && ok "a refused key, one error" ||
	not_ok "a refused key, one error: $(tr '\n' '|' <"$tmp/out")"
bad tcp-rmem-no-reader.ini "^tcp-rmem-no-reader.ini:8: tcp_rmem is the socket of a reader on app_cpu \\(workload = tcp\\): this case \\(tcp\\) has none"
bad redirect-cpu-drop.ini "^redirect-cpu-drop.ini:6: redirect_cpu is the CPU of xdp_cpumap's kthread or of the other port's NAPI .*: this case \\(xdp_drop\\) has none"
bad cpumap-qsize-redirect.ini "^cpumap-qsize-redirect.ini:6: cpumap_qsize is the ring of xdp_cpumap's kthread: this case \\(xdp_redirect\\) has none"
bad hex-number.ini "^hex-number.ini:3: irq_cpu: '0x3' is not a decimal number"
bad touch-word.ini "^touch-word.ini:2: xdp_touch: 'sometimes': expected none, read or write"
bad fitted-policy.ini "^fitted-policy.ini:3: a: unknown policy 'v9.9'"
bad fitted-number.ini "^fitted-number.ini:3: a: 'ten' is not a positive number"
bad fitted-empty.ini "^fitted-empty.ini:3: a: no POLICY:VALUE"
bad fitted-hex.ini "^fitted-hex.ini:3: a: '0xB' is not a positive number"
bad measured-five.ini "^measured-five.ini:5: measured: at most 4 POLICY:VALUE figures"
bad free-in-fit-case.ini "^free-in-fit-case.ini:6: cost.rx_pkt: set in \[case a\], which \[calibrate\] fits it on: the calibration sets it for every case"
bad measured-huge.ini "^measured-huge.ini:5: measured: v5.5: 1e300 is more than any NIC carries \(at most 10000 Mpps or Gbps\)"
bad measured-tiny.ini "^measured-tiny.ini:5: measured: v5.5: 1e-307 is less than a packet a second \(at least 1e-06 Mpps or Gbps\)"
bad cases-twice.ini "^cases-twice.ini:3: cases: a named twice"
bad fitted-duplicate.ini "^fitted-duplicate.ini:4: duplicate key 'a' in \[fitted\] \(first set at line 3\)"
bad fitted-typo.ini "^fitted-typo.ini:2: unknown section \[fited\] \(did you mean \[fitted\]\?\)"
# the striding RQ: what an era's mlx5 refuses, at the key that asked for it,
# for each era of the case; what is not modelled; a ring under 4 WQEs
bad striding-jumbo-v6.1.ini "^striding-jumbo-v6.1.ini:4: v6.1's mlx5 refuses XDP on a striding RQ at mtu 9000 > 3498 \(en_main.c mlx5e_params_validate_xdp"
grep -q "^striding-jumbo-v6.1.ini:4: v6.12: multi-buffer XDP on a striding RQ .* is not modelled yet" "$tmp/out" &&
	ok "striding: 6.12's jumbo XDP, not modelled" ||
	not_ok "striding: 6.12's jumbo XDP: $(tr '\n' '|' <"$tmp/out")"
bad jumbo-legacy.ini "^jumbo-legacy.ini:7: pkt_size 9014 is more than the legacy RQ.s page a packet holds \(3520 bytes\): a jumbo frame is modelled on driver.rq_type = striding"
# the legacy RQ: no frame over the MTU; XDP past a page as the era's mlx5
# has it (5.4 refuses it; 6.1's multi-buffer XDP is not modelled)
bad legacy-over-mtu.ini "^legacy-over-mtu.ini:4: pkt_size 3000 does not fit mtu 1500 \(a frame of mtu \+ 14 bytes at most\)"
bad legacy-jumbo-xdp-v5.4.ini "^legacy-jumbo-xdp-v5.4.ini:5: v5.4's mlx5 refuses XDP at mtu 9000 > 3498 \(en_main.c mlx5e_xdp_allowed"
grep -q "^legacy-jumbo-xdp-v5.4.ini:5: v6.1: multi-buffer XDP on a legacy RQ .* is not modelled yet" "$tmp/out" &&
	ok "legacy: 6.1's jumbo XDP, not modelled" ||
	not_ok "legacy: 6.1's jumbo XDP: $(tr '\n' '|' <"$tmp/out")"
"$ppsim" run "$src/tests/scenarios/striding-small-ring.ini" --reps 1 --duration 1ms >"$tmp/out" 2>&1 &&
	ok "a striding ring under 4 WQEs runs: raised to 4, as mlx5 does" ||
	not_ok "a striding ring under 4 WQEs runs: $(tr '\n' '|' <"$tmp/out")"
# ... down to a ring of 2: the legacy RQ's wqe_fetch is not a striding
# RQ's bound
"$ppsim" run "$src/tests/scenarios/striding-small-ring.ini" --set nic.rx_ring=2 --reps 1 --duration 1ms >"$tmp/out" 2>&1 &&
	ok "a striding ring of 2: runs, wqe_fetch not held against it" ||
	not_ok "a striding ring of 2: $(tr '\n' '|' <"$tmp/out")"
# the core families: a word of the five, a mitigation the family has
bad family-word.ini "^family-word.ini:2: family: 'ice_lake': expected broadwell, sunny_cove, golden_cove, zen3 or zen4"
bad srso-intel.ini "^srso-intel.ini:3: srso = ibpb: golden_cove has no SRSO \\(AMD Zen 1 to 4 only"
# cut to 63 characters, a key would name another one (or another case)
bad fitted-long.ini "^fitted-long.ini:3: key longer than 63 characters"

head -c 8192 /dev/urandom >"$tmp/garbage.ini"
"$ppsim" run "$tmp/garbage.ini" >"$tmp/out" 2>&1
if [ $? -eq 2 ] && grep -q "garbage.ini:[0-9]*: " "$tmp/out"; then ok "binary garbage"; else not_ok "binary garbage"; fi
"$ppsim" run "$tiny" --set nic.rx_ring=1000 >"$tmp/out" 2>&1
if [ $? -eq 2 ] && grep -q '^--set:1: rx_ring 1000 is not a power of 2' "$tmp/out"; then ok "--set checked like the file"; else not_ok "--set checked like the file"; fi
"$ppsim" run "$tiny" --set fitted.close-drop=v5.4:11 >"$tmp/out" 2>&1
if [ $? -eq 2 ] && grep -q '^--set:1: fitted.close-drop: \[fitted\] is what a calibration' "$tmp/out"; then ok "--set of a [fitted] record is refused"; else not_ok "--set of a [fitted] record is refused"; fi
"$ppsim" run "$tiny" --set nic.rx_rnig=512 >"$tmp/out" 2>&1
if [ $? -eq 2 ] && grep -q "did you mean nic.rx_ring" "$tmp/out"; then ok "--set unknown key"; else not_ok "--set unknown key"; fi
"$ppsim" run "$tiny" --case far-drop --set workload=xdp_redirect --set "policies=v5.4 v5.5 v6.1" --duration 1ms >"$tmp/out" 2>&1
if [ $? -eq 0 ] && grep -q '^# v5.5: no page_pool_put_page_bulk (5.11 on): its frames were returned one by one$' "$tmp/out" &&
	! grep -q '^# v6.1: no page_pool_put_page_bulk' "$tmp/out"; then ok "an era without the bulk return says what it did"; else not_ok "an era without the bulk return says what it did"; fi
"$ppsim" run "$tiny" --case nope >"$tmp/out" 2>&1
if [ $? -eq 2 ] && grep -q "^--case nope: no such case in " "$tmp/out"; then ok "--case with no match"; else not_ok "--case with no match"; fi

# end to end: the seed's ordering, the CSV columns, the explanation
"$ppsim" run "$tiny" --format csv --out "$tmp/o" >"$tmp/a.csv" 2>"$tmp/out"
rc=$?
grep -v '^#' "$tmp/a.csv" | head -1 | grep -q '^case,policy,metric,unit,value,ci95,measured,error_pct,delta_pct$' &&
	[ $rc -eq 0 ] && ok "CSV header" || not_ok "CSV header (exit $rc)"
rate() { awk -F, -v c="$1" -v p="$2" '$1 == c && $2 == p && $3 == "rate" { print $5 }' "$tmp/a.csv"; }
# the NIC's completion lines a packet: one each, fewer with CQE compression
"$ppsim" run "$tiny" --case close-drop --set driver.cqe_compress=1 --format csv >"$tmp/c.csv" 2>"$tmp/out"
metric() { awk -F, -v c="$2" -v p="$3" -v m="$4" '$1 == c && $2 == p && $3 == m { print $5 }' "$1"; }
awk -v off="$(metric "$tmp/a.csv" close-drop v5.4 cq_lines)" -v on="$(metric "$tmp/c.csv" close-drop v5.4 cq_lines)" \
	-v hit="$(metric "$tmp/a.csv" close-drop v5.4 ddio_write_hit)" \
	'BEGIN { exit !(off > 0.99 && off < 1.01 && on > 0 && on < 0.5 && hit >= 0 && hit <= 100) }' &&
	ok "cq_lines: 1 a packet, under 0.5 with CQE compression; ddio_write_hit a %" ||
	not_ok "cq_lines: 1 a packet, under 0.5 with CQE compression; ddio_write_hit a %"
# the striding RQ: its scenario runs each case under both eras, each run
# ending with the page check; naming the legacy RQ, the default, moves no
# figure
"$ppsim" run "$src/tests/scenarios/striding.ini" --reps 1 --duration 1ms --format csv >"$tmp/s.csv" 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && [ "$(awk -F, '$3 == "rate"' "$tmp/s.csv" | wc -l)" -eq 8 ] &&
	ok "striding.ini: 4 cases under 2 eras" ||
	not_ok "striding.ini (exit $rc): $(head -3 "$tmp/out" | tr '\n' '|')"
# and TCP on it: skbs sharing pages at 1500, spanning them at 9000
"$ppsim" run "$src/tests/scenarios/striding-tcp.ini" --reps 1 --duration 1ms --format csv >"$tmp/s.csv" 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && [ "$(awk -F, '$3 == "rate"' "$tmp/s.csv" | wc -l)" -eq 8 ] &&
	ok "striding-tcp.ini: 4 cases under 2 eras" ||
	not_ok "striding-tcp.ini (exit $rc): $(head -3 "$tmp/out" | tr '\n' '|')"
# the non-inclusive LLC: its scenario runs each case under both eras, the
# key reaches the model (the close case's rate moves), and naming the
# inclusive LLC, the default, moves no figure
"$ppsim" run "$src/tests/scenarios/nincl.ini" --reps 1 --duration 1ms --format csv >"$tmp/n.csv" 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && [ "$(awk -F, '$3 == "rate"' "$tmp/n.csv" | wc -l)" -eq 8 ] &&
	ok "nincl.ini: 4 cases under 2 eras" ||
	not_ok "nincl.ini (exit $rc): $(head -3 "$tmp/out" | tr '\n' '|')"
"$ppsim" run "$src/tests/scenarios/nincl.ini" --reps 1 --duration 1ms --format csv \
	--set cache.inclusive=yes >"$tmp/ni.csv" 2>"$tmp/out"
[ "$(metric "$tmp/n.csv" close-drop v5.4 rate)" != "$(metric "$tmp/ni.csv" close-drop v5.4 rate)" ] &&
	ok "cache.inclusive = no reaches the model" ||
	not_ok "cache.inclusive = no reaches the model ($(metric "$tmp/n.csv" close-drop v5.4 rate) either way)"
"$ppsim" run "$tiny" --format csv --set cache.inclusive=yes >"$tmp/i.csv" 2>"$tmp/out"
grep -v '^#' "$tmp/i.csv" | cut -d, -f1-5 >"$tmp/i5"
grep -v '^#' "$tmp/a.csv" | cut -d, -f1-5 >"$tmp/a5"
[ -s "$tmp/i5" ] && cmp -s "$tmp/a5" "$tmp/i5" && ok "cache.inclusive = yes: the default's figures" ||
	not_ok "cache.inclusive = yes: the default's figures"
"$ppsim" run "$tiny" --format csv --set driver.rq_type=legacy >"$tmp/l.csv" 2>"$tmp/out"
grep -v '^#' "$tmp/a.csv" | cut -d, -f1-5 >"$tmp/a5"
grep -v '^#' "$tmp/l.csv" | cut -d, -f1-5 >"$tmp/l5"
[ -s "$tmp/a5" ] && cmp -s "$tmp/a5" "$tmp/l5" && ok "driver.rq_type = legacy: the default's figures" ||
	not_ok "driver.rq_type = legacy: the default's figures"
awk -v c="$(rate close-drop v5.4)" -v f4="$(rate far-drop v5.4)" -v f5="$(rate far-drop v5.5)" \
	'BEGIN { exit !(f4 < f5 && f5 < c) }' && ok "far v5.4 < far v5.5 < close" ||
	not_ok "far v5.4 < far v5.5 < close ($(rate far-drop v5.4) $(rate far-drop v5.5) $(rate close-drop v5.4))"
remote=$(awk -F, '$1 == "far-drop" && $2 == "v5.4" && $3 == "pkt_remote" { print $5 }' "$tmp/a.csv")
local55=$(awk -F, '$1 == "far-drop" && $2 == "v5.5" && $3 == "local_pages" { print $5 }' "$tmp/a.csv")
[ "$remote" = 100 ] && [ "$local55" = 100 ] && ok "far v5.4 reads remote packets, far v5.5 local pages" ||
	not_ok "far v5.4 reads remote packets ($remote), far v5.5 local pages ($local55)"
# under SNC another node of the socket is not "the other socket": its
# reads are neither remote% nor the explanation's remote rows
"$ppsim" run "$src/tests/scenarios/snc.ini" --set cache.ddio_ways=0 --explain \
	--reps 1 --duration 5ms --policy v5.4 >"$tmp/snc" 2>"$tmp/out"
rc=$?
"$ppsim" run "$src/tests/scenarios/snc.ini" --set cache.ddio_ways=0 \
	--reps 1 --duration 5ms --policy v5.4 --format csv >"$tmp/snc.csv" 2>>"$tmp/out"
snc=$(awk -F, '$1 == "sibling" && $3 ~ /^(pkt_remote|cqe_remote|spage_remote)$/ { printf "%s=%s ", $3, $5 }' "$tmp/snc.csv")
[ $rc -eq 0 ] && [ "$snc" = "pkt_remote=0 cqe_remote=0 spage_remote=0 " ] &&
	grep -q '^  packet page   other node  ' "$tmp/snc" && ! grep -Eq '^  .* remote (DRAM|cache) ' "$tmp/snc" &&
	ok "SNC: another node of the socket is not remote" ||
	not_ok "SNC: another node of the socket is not remote (exit $rc; $snc; $(grep 'remote\|other node' "$tmp/snc" | tr '\n' '|'))"
grep -q '^far-tx,v5.5,saturated,resource,cpu,' "$tmp/a.csv" && ok "saturated resource named" || not_ok "saturated resource named"
[ -s "$tmp/o/transient.csv" ] && grep -v '^#' "$tmp/o/transient.csv" | head -1 | grep -q '^case,policy,rep,t_s,rate_mpps,local_pages$' &&
	ok "transient written" || not_ok "transient written"

grep -v '^#' "$tmp/o/rates.csv" | head -1 | grep -qx 'label,case,policy,measured,predicted,ci95,unit,delta_pct,group,x,width,colour,delta_text,tic,top' &&
	grep -q '^far-drop v5.4,far-drop,v5.4,4.4,' "$tmp/o/rates.csv" && ok "plot data written" || not_ok "plot data written"
# the measured change beside the predicted one, on the bar the plot labels
grep -Eq '^far-drop v5.5,far-drop,v5.5,5.8,.*,[+-][0-9.]+ % \(measured \+31.8 %\),' "$tmp/o/rates.csv" &&
	ok "the rates plot writes the measured change beside the predicted" ||
	not_ok "the rates plot writes the measured change beside the predicted"
if command -v gnuplot >/dev/null 2>&1; then
	[ -s "$tmp/o/rates.png" ] && [ -s "$tmp/o/split.svg" ] && [ -s "$tmp/o/transient-far-drop.png" ] &&
		ok "plots drawn" || not_ok "plots drawn"
else
	ok "plots drawn # SKIP gnuplot is not installed"
fi

# RSS over several queues: each NAPI on its own CPU, the rate adds up
"$ppsim" run "$tiny" --case close-drop --policy v5.5 --reps 1 --format csv \
	--set queues=2 >"$tmp/q2.csv" 2>"$tmp/out"
rc=$?
q1=$(awk -F, '$1 == "close-drop" && $2 == "v5.5" && $3 == "rate" { print $5 }' "$tmp/a.csv")
q2=$(awk -F, '$3 == "rate" { print $5 }' "$tmp/q2.csv")
[ $rc -eq 0 ] && awk -v a="$q1" -v b="$q2" 'BEGIN { exit !(b > 1.9 * a && b < 2.1 * a) }' &&
	ok "two queues, twice the rate ($q1 -> $q2 Mpps)" || not_ok "two queues, twice the rate ($q1 -> $q2 Mpps, exit $rc)"
"$ppsim" run "$tiny" --case close-drop --policy v5.5 --reps 1 --format csv \
	--set queues=2 --set irq_cpus=1 >"$tmp/q21.csv" 2>"$tmp/out"
rc=$?
q21=$(awk -F, '$3 == "rate" { print $5 }' "$tmp/q21.csv")
[ $rc -eq 0 ] && awk -v a="$q1" -v b="$q21" 'BEGIN { exit !(b > 0.9 * a && b < 1.05 * a) }' &&
	ok "two queues sharing one CPU, the one CPU's rate ($q21 Mpps)" ||
	not_ok "two queues sharing one CPU ($q1 -> $q21 Mpps, exit $rc)"
"$ppsim" run "$tiny" --set queues=13 >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "13 queues, one CPU each from CPU 6, do not fit the machine's 12 CPUs" "$tmp/out" &&
	ok "more queues than CPUs" || not_ok "more queues than CPUs"

# the resource that limits: a narrow PCIe link, or the offered load
# (20 ms: the NIC's 256 KB buffer is half a millisecond of this link)
"$ppsim" run "$tiny" --case close-drop --policy v5.5 --reps 1 --format csv \
	--set pcie.bw=0.5GB/s --duration 20ms >"$tmp/p.csv" 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && grep -q '^close-drop,v5.5,saturated,resource,pcie,' "$tmp/p.csv" &&
	awk -F, '$3 == "rate" { exit !($5 > 2.4 && $5 < 2.6) }' "$tmp/p.csv" &&
	ok "PCIe-bound: 0.5 GB/s up, ~200 bytes a packet with the interrupts of an idling NAPI, 2.49 Mpps" || not_ok "PCIe-bound (exit $rc: $(grep -E ',rate,|saturated' "$tmp/p.csv" | tr '\n' ' '))"
"$ppsim" run "$tiny" --case close-drop --policy v5.5 --reps 1 --format csv \
	--set rate=3Mpps >"$tmp/l.csv" 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && grep -q '^close-drop,v5.5,saturated,resource,none,' "$tmp/l.csv" &&
	awk -F, '$3 == "rate" { r = $5 } $3 == "idle_time" { i = $5 } END { exit !(r > 2.9 && r < 3.1 && i > 100) }' "$tmp/l.csv" &&
	ok "under load: the offered rate, NAPI idle" || not_ok "under load (exit $rc: $(grep -E ',rate,|idle_time|saturated' "$tmp/l.csv" | tr '\n' ' '))"

# TCP streams share a narrow PCIe link: two get what one gets, together
tcp="--case close-drop --policy v5.5 --reps 1 --format csv --set workload=tcp
	--set pkt_size=1500 --set measured=v5.5:1 --set pcie.bw=1GB/s"
"$ppsim" run "$tiny" $tcp --set queues=1 >"$tmp/t1.csv" 2>"$tmp/out"
rc1=$?
"$ppsim" run "$tiny" $tcp --set queues=2 >"$tmp/t2.csv" 2>>"$tmp/out"
rc2=$?
t1=$(awk -F, '$3 == "rate" { print $5 }' "$tmp/t1.csv")
t2=$(awk -F, '$3 == "rate" { print $5 }' "$tmp/t2.csv")
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q ',saturated,resource,pcie,' "$tmp/t2.csv" &&
	awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(a > 5 && b > 0.9 * a && b < 1.1 * a) }' &&
	ok "TCP streams share the PCIe link ($t1 Gbps alone, $t2 for two)" ||
	not_ok "TCP streams share the PCIe link ($t1 Gbps alone, $t2 for two; exit $rc1, $rc2)"

# the NIC, moved on only when an actor looks, never stalls: four queues,
# bursts to both nodes, the link saturated; every sample has packets
"$ppsim" run "$tiny" --case far-drop --policy v5.5 --reps 1 --set queues=4 \
	--set pcie.bw=1GB/s --set sample=200us --out "$tmp/st" >/dev/null 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && awk -F, '/^#/ { next } !head++ { next } { n++; if ($5 <= 0) stalled++ } END { exit !(n >= 30 && !stalled) }' \
	"$tmp/st/transient.csv" && ok "PCIe-bound on both nodes: no sample without packets" ||
	not_ok "PCIe-bound on both nodes: a sample without packets (exit $rc: $(tr '\n' ' ' <"$tmp/st/transient.csv"))"

# edges of the NIC and NAPI model run to the end with every page accounted
# for: budget above the ring, a tiny buffer on a slow link, a trickle with
# no irq delay, queues sharing CPUs across an overlapping migration, TCP
# with a one-page driver cache and noisy polls
edges=0
for set in "nic.rx_ring=64 driver.budget=128" \
	   "queues=5 nic.buffer=4K pcie.bw=0.2GB/s" \
	   "rate=0.1Mpps nic.irq_delay=0" \
	   "queues=4 irq_cpus=2 migrate_cpu=1" \
	   "workload=tcp pkt_size=1500 driver.page_cache=1 model.jitter=0.2"; do
	args=
	for kv in $set; do args="$args --set $kv"; done
	# shellcheck disable=SC2086
	"$ppsim" run "$tiny" --case far-drop --policy v5.5 --reps 1 --format csv \
		--set mem.pages=262144 $args >"$tmp/e.csv" 2>"$tmp/out" &&
		awk -F, '$3 == "rate" { exit !($5 > 0) }' "$tmp/e.csv" ||
		{ edges=$((edges + 1)); echo "# $set: $(cat "$tmp/out")"; }
done
[ $edges -eq 0 ] && ok "edge parameters run with pages conserved" ||
	not_ok "edge parameters: $edges failed"

# a lone NAPI runs ahead of SimGrid's clock: the same bytes as in lockstep
"$ppsim" run "$tiny" --format csv >"$tmp/ahead.csv" 2>"$tmp/out"
rc1=$?
PPSIM_LOCKSTEP=1 "$ppsim" run "$tiny" --format csv >"$tmp/lockstep.csv" 2>>"$tmp/out"
rc2=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ -s "$tmp/ahead.csv" ] &&
	cmp -s "$tmp/ahead.csv" "$tmp/lockstep.csv" &&
	ok "running ahead changes no byte of the output" ||
	not_ok "running ahead changes the output (exit $rc1, $rc2 in lockstep)"

# same seed, same bytes; another seed, other figures: the same rows (case,
# policy, metric, unit), not the same values.  A run that failed differs
# too, so only one that succeeded counts.
"$ppsim" run "$tiny" --format csv >"$tmp/b.csv" 2>"$tmp/out"
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok "same seed: identical CSV" ||
	not_ok "same seed: identical CSV (exit $rc)"
"$ppsim" run "$tiny" --format csv --seed 7 >"$tmp/c.csv" 2>"$tmp/out"
rc=$?
grep -v '^#' "$tmp/a.csv" | cut -d, -f1-4 >"$tmp/a.rows"
grep -v '^#' "$tmp/c.csv" | cut -d, -f1-4 >"$tmp/c.rows"
if [ $rc -eq 0 ] && cmp -s "$tmp/a.rows" "$tmp/c.rows" &&
   ! cmp -s "$tmp/a.csv" "$tmp/c.csv"; then
	ok "another seed: other figures"
else
	not_ok "another seed: other figures (exit $rc)"
fi

# default_is KEY SAME OTHER WHAT ARGS...: the case of ARGS without KEY is
# KEY = SAME byte for byte, and KEY = OTHER is another run
default_is() {
	key=$1 same=$2 other=$3 what=$4
	shift 4
	"$ppsim" run "$tiny" "$@" >"$tmp/d0.csv" 2>"$tmp/out"; rc0=$?
	"$ppsim" run "$tiny" "$@" --set "$key=$same" >"$tmp/d1.csv" 2>>"$tmp/out"; rc1=$?
	"$ppsim" run "$tiny" "$@" --set "$key=$other" >"$tmp/d2.csv" 2>>"$tmp/out"; rc2=$?
	for i in 0 1 2; do grep -v '^#' "$tmp/d$i.csv" >"$tmp/d$i.rows"; done
	if [ $rc0 -eq 0 ] && [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] &&
	   cmp -s "$tmp/d0.rows" "$tmp/d1.rows" && ! cmp -s "$tmp/d0.rows" "$tmp/d2.rows"; then
		ok "$what, byte for byte"
	else
		not_ok "$what (exit $rc0 $rc1 $rc2)"
	fi
}

# tcp's reader: app_cpu = the irq's CPU is the reader on the NAPI's CPU,
# the same as no app_cpu (ppsim-scenario(5)); another CPU is another run
default_is app_cpu 0 1 "tcp: app_cpu = irq_cpu is the reader on the NAPI's CPU" \
	--case far-drop --set workload=tcp --set pkt_size=1514 --format csv
# the other port's NAPI: no redirect_cpu is mlx5's own placement, that
# channel's irq on the redirecting CPU (redirect_cpu = irq_cpu)
default_is redirect_cpu 0 1 "redirect_port = other: no redirect_cpu is the queue's CPU" \
	--case far-drop --set workload=xdp_redirect --set redirect_port=other \
	--set nic.ports=2 --set migrate_at=-1 --format csv

# --set applies to the cases run (--case, a [sweep]'s cases): app_cpu for
# the tcp case of a scenario whose other cases are XDP ones is no error,
# and still one when every case would take it
rp=$src/scenarios/return-paths.ini
"$ppsim" run "$rp" --case tcp-app-far --set app_cpu=7 --dry-run \
	>"$tmp/out" 2>&1; rc1=$?
"$ppsim" run "$rp" --set app_cpu=7 --dry-run >"$tmp/out2" 2>&1; rc2=$?
"$ppsim" sweep "$rp" --case port-close --set redirect_cpu=0,1 --policy v6.1 \
	--reps 1 --duration 1ms --quiet \
	>>"$tmp/out" 2>&1; rc3=$?
if [ $rc1 -eq 0 ] && [ $rc3 -eq 0 ] && [ $rc2 -eq 2 ] &&
   grep -q '^--set:1: app_cpu is the reader of workload = tcp, not of xdp_cpumap' "$tmp/out2"; then
	ok "--set KEY=VALUE applies to the cases run alone"
else
	not_ok "--set KEY=VALUE applies to the cases run alone (exit $rc1 $rc2 $rc3)"
fi

# tcp's rate is what the reader on app_cpu copied: far, it is the one busy
# and dropping (its socket full), so it is what saturated, not NAPI's core
"$ppsim" run "$rp" --case tcp-app-far --case tcp-app-close --policy v5.4 \
	--reps 1 --duration 5ms --format csv >"$tmp/sat.csv" 2>"$tmp/out"; rc=$?
if [ $rc -eq 0 ] &&
   grep -q '^tcp-app-far,v5.4,saturated,resource,consumer,' "$tmp/sat.csv" &&
   grep -q '^tcp-app-close,v5.4,saturated,resource,cpu,' "$tmp/sat.csv"; then
	ok "tcp: a busy, dropping reader is what saturated"
else
	not_ok "tcp: a busy, dropping reader is what saturated (exit $rc: $(grep saturated "$tmp/sat.csv" | tr '\n' ' '))"
fi

# queues that share a CPU: a packet's cpu, stall and idle add up to the
# CPUs' time (6 CPUs for 12 queues), not to one NAPI's wait a queue
"$ppsim" run "$src/scenarios/mlx5-cx4-tcp.ini" --case close-tcp12 --policy v5.4 \
	--reps 1 --format csv >"$tmp/idle.csv" 2>"$tmp/out"; rc=$?
cpus=$(awk -F, '$3 == "packets" { pps = $5 } $3 ~ /^(cpu|stall|idle)_time$/ { ns += $5 }
	END { printf "%.2f", ns * pps / 1e3 }' "$tmp/idle.csv")
if [ $rc -eq 0 ] && awk -v c="$cpus" 'BEGIN { exit !(c > 5.94 && c < 6.06) }'; then
	ok "shared CPUs: cpu + stall + idle a packet is the 6 CPUs' time"
else
	not_ok "shared CPUs: cpu + stall + idle a packet is the 6 CPUs' time (exit $rc, $cpus CPUs)"
fi
