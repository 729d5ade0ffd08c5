#!/bin/sh
# ppsim sweep --emit-jobs=slurm on a real Slurm: a one-node cluster on
# this machine (munged, slurmctld and slurmd, localhost, in a scratch
# directory, on ports away from Slurm's), the emitted script submitted
# with sbatch, and the merge of its tasks' CSVs against the direct sweep.
# Every daemon started is stopped on exit, failed or not.  Skipped, with
# the reason, where Slurm or munge is not installed or cannot start
# (apt-get install slurm-wlm munge; slurmd must run as root).  Speaks TAP.
. "$(dirname "$0")/tap.sh"
PATH=$PATH:/usr/sbin:/sbin
export PATH

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

for prog in munged munge unmunge slurmctld slurmd sbatch squeue sinfo \
	scontrol scancel; do
	command -v "$prog" >/dev/null 2>&1 ||
		skip_all "$prog is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip_all "slurmd starts jobs as root only"

# ---- the cluster: every file in $tmp/slurm, stopped on any exit ----
c=$tmp/slurm
mkdir -p "$c/state" "$c/spool" || exit 1
chmod 755 "$tmp" "$c"
job=
stop_all() {
	[ -n "$job" ] && scancel "$job" 2>/dev/null
	for daemon in slurmd slurmctld munged; do
		[ -s "$c/$daemon.pid" ] || continue
		pid=$(cat "$c/$daemon.pid")
		kill "$pid" 2>/dev/null || continue
		# gone within 10 s, or killed
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 20 ]; do
			sleep 0.5
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap stop_all EXIT
trap 'exit 1' INT TERM HUP

# ports of this test's own, away from Slurm's 6817 and 6818 and from
# another run of it
port=$((17000 + ($$ % 1000) * 2))
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)

head -c 1024 /dev/urandom >"$c/munge.key" && chmod 600 "$c/munge.key"
munged --force --socket="$c/munge.sock" --key-file="$c/munge.key" \
	--log-file="$c/munged.log" --pid-file="$c/munged.pid" \
	--seed-file="$c/munged.seed" 2>"$c/munged.err" ||
	skip_all "munged cannot start: $(tail -1 "$c/munged.err")"
munge -n -S "$c/munge.sock" | unmunge -S "$c/munge.sock" >/dev/null 2>&1 ||
	skip_all "munge cannot encode and decode a credential"

cat >"$c/slurm.conf" <<EOF
ClusterName=ppsimtest$$
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$c/munge.sock
CredType=cred/munge
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmctldLogFile=$c/slurmctld.log
SlurmdLogFile=$c/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=localhost CPUs=$cpus RealMemory=$mem
PartitionName=ppsim Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$c/slurm.conf
export SLURM_CONF
slurmctld -f "$SLURM_CONF" 2>"$c/slurmctld.err" ||
	skip_all "slurmctld cannot start: $(tail -1 "$c/slurmctld.err")"
slurmd -f "$SLURM_CONF" 2>"$c/slurmd.err" ||
	skip_all "slurmd cannot start: $(tail -1 "$c/slurmd.err")"
i=0
until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
	[ $i -lt 60 ] || skip_all "the node is not idle after 30 s: $(tail -1 "$c/slurmctld.log")"
	sleep 0.5
	i=$((i + 1))
done

echo "1..5"

# ---- the sweep: a scenario named relative to the jobs' working
# directory (--chdir), their output directory too, which they make ----
w=$tmp/work
mkdir "$w"
sed "s#^include = ../../#include = $src/#" "$src/tests/scenarios/tiny.ini" >"$w/s.ini"
sw="ring --reps 2 --duration 2ms"
# shellcheck disable=SC2086
(cd "$w" && "$ppsim" sweep s.ini $sw --format csv) >"$tmp/direct.csv" 2>"$tmp/out"
# shellcheck disable=SC2086
(cd "$w" && "$ppsim" sweep s.ini $sw --emit-jobs=slurm --chdir "$w" --out r \
	--cpus-per-task 1) >"$tmp/array.sh" 2>>"$tmp/out"
check "the script names no path of this host but the --chdir given" sh -c "
	test \$(grep -c '$tmp' '$tmp/array.sh') -eq 1 && grep -qx \"cd -- '$w'\" '$tmp/array.sh' &&
	grep -qx '#SBATCH --cpus-per-task=1' '$tmp/array.sh' &&
	grep -q '^#SBATCH --time=[0-9]' '$tmp/array.sh' && grep -q '^#SBATCH --mem=[0-9]*M$' '$tmp/array.sh' &&
	test ! -e '$w/r'"

# submitted from elsewhere: the tasks find their files by --chdir
job=$(cd "$tmp" && sbatch --parsable "$tmp/array.sh" 2>>"$tmp/out")
check "sbatch takes the script" test -n "$job"

# every task done within 3 minutes (each runs in about a second)
i=0
while [ -n "$job" ] && [ -n "$(squeue -h -j "$job" 2>/dev/null)" ] && [ $i -lt 360 ]; do
	sleep 0.5
	i=$((i + 1))
done
scontrol -o show job "$job" >"$tmp/states" 2>&1
cat "$tmp"/ppsim-sweep-*.out >>"$tmp/out" 2>/dev/null
check "both tasks completed" sh -c "
	test \$(grep -c 'JobState=COMPLETED' '$tmp/states') -eq 2 && test ! -e '$w/r/sweep-003.csv'"

"$ppsim" merge "$w"/r/sweep-*.csv --out "$tmp/plot" >"$tmp/merged.csv" 2>>"$tmp/out"
check "the merge of the tasks' CSVs is the direct sweep, byte for byte, and plotted" sh -c "
	cmp '$tmp/merged.csv' '$tmp/direct.csv' && test -s '$tmp/plot/sweep-rate.dat'"
check "merge refuses the tasks' CSVs but one: a job's CSV is missing" \
	fails 2 "sweep-001.csv:$(line_of '^# points' "$w/r/sweep-001.csv"): the sweep has 2 points and 4 runs .*: a job's CSV is missing" \
	"$ppsim" merge "$w/r/sweep-001.csv"
