#!/bin/sh
# The Slurm job array of docs/shards on a real single-node Slurm that this script starts (Debian's
# slurmctld, slurmd and munge, in a folder of its own, on ports of its own): sbatch as the guide says,
# each task grades its shard, and `grade merge` of the shards gives the CSV a whole-class run gives.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

PATH="$PATH:/usr/sbin:/sbin"
missing=""
for p in munged slurmctld slurmd sbatch squeue sinfo; do command -v "$p" > /dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  echo "1..0 # SKIP not installed:$missing (scripts/deps.sh test installs slurmctld, slurmd, slurm-client and munge)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "1..0 # SKIP slurmd runs jobs as their user only when it runs as root"
  exit 0
fi

s="$tmp/slurm"
mkdir -p "$s/state" "$s/spool" "$s/munge" "$s/work" "$s/bin"
chmod 700 "$s/munge"
ln -s "$bin" "$s/bin/cltutor"
# munge: a key and a socket of this script's own
dd if=/dev/urandom of="$s/munge/key" bs=1024 count=1 2> /dev/null && chmod 400 "$s/munge/key"
munged --force --key-file="$s/munge/key" --socket="$s/munge/sock" --pid-file="$s/munge/pid" \
  --log-file="$s/munge/log" --seed-file="$s/munge/seed" > "$s/munge/out" 2>&1
daemons_down() {
  for f in "$s/slurmd.pid" "$s/slurmctld.pid" "$s/munge/pid"; do [ -s "$f" ] && kill "$(cat "$f")" 2> /dev/null; done
}
trap daemons_down EXIT
ports=$(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for x in ss: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in ss))')
set -- $ports
node=$(hostname -s)
cat > "$s/slurm.conf" <<EOF
ClusterName=cltutor-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$s/munge/sock
CredType=cred/munge
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=500 State=UNKNOWN
PartitionName=class Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$s/slurm.conf"
slurmctld -f "$SLURM_CONF" > "$s/slurmctld.out" 2>&1
slurmd -f "$SLURM_CONF" > "$s/slurmd.out" 2>&1
# the node is up when it takes jobs (idle), within a minute whatever the load
i=0
until sinfo -h -o %t 2> /dev/null | grep -q idle || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
if sinfo -h -o %t 2> /dev/null | grep -q idle; then ok "a single-node Slurm started (slurmctld, slurmd, munge)"
else
  bad "Slurm did not start" "$(sinfo 2>&1; tail -n 5 "$s/munge/log" "$s/slurmctld.log" "$s/slurmd.log" 2>&1)"
  finish
  exit 1
fi

# a class of four: two right, one wrong, one with nothing handed in
c="$s/work/submissions"
for who in ada bob; do put "$c/$who" 01-serial "$root/kernels/01-serial/histogram.cl"; done
sed 's/int d = 0; d < n_descriptors/int d = 1; d < n_descriptors/' "$root/kernels/01-serial/histogram.cl" > "$s/wrong.cl"
put "$c/cy" 01-serial "$s/wrong.cl"   # leaves the first descriptor out
mkdir -p "$c/dee"
# sbatch as the template's header says, from the folder the logs go to, asking no more than this node has
jid=$(cd "$s/work" && PATH="$s/bin:$PATH" sbatch --parsable --array=1-2 --cpus-per-task=1 --mem=100M \
  --export=ALL,SUBMISSIONS="$c",SEED=7,CHAPTERS=1 "$root/docs/shards/grade-array.slurm" 2> "$s/sbatch.err")
case $jid in
  [0-9]*) ok "sbatch takes the template as a job array ($jid)" ;;
  *) bad "sbatch refused the template" "$(cat "$s/sbatch.err")"; finish; exit 1 ;;
esac
# both tasks end (the grader takes seconds; the limit is generous for a loaded machine)
i=0
while [ -n "$(squeue -h -j "$jid" 2> /dev/null)" ] && [ $i -lt 3000 ]; do sleep 0.2; i=$((i + 1)); done
if [ -z "$(squeue -h -j "$jid" 2> /dev/null)" ]; then ok "the array's two tasks ended"
else bad "the array still runs after 10 minutes" "$(squeue 2>&1; tail -n 5 "$s/slurmd.log")"; fi
for t in 1 2; do
  log="$s/work/cltutor-grade-${jid}_$t.out"
  if [ -s "$s/work/shards/grades-$t.csv" ]; then ok "task $t wrote its shard's grades ($(($(wc -l < "$s/work/shards/grades-$t.csv") - 1)) students)"
  else bad "task $t wrote no grades" "$(cat "$log" 2>&1)"; fi
done
(cd "$s/work" && "$bin" grade merge --batch "$c" shards/grades-1.csv shards/grades-2.csv -o merged.csv > merge.out 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "grade merge joins the shards: every student has a row" || bad "grade merge (exit $rc)" "$(cat "$s/work/merge.out")"
"$bin" grade 1 --batch "$c" --seed 7 -o "$s/whole.csv" > "$s/whole.out" 2>&1
# the same grades, row for row; only the report column differs (each shard's own folder)
if [ "$(sed 's/,[^,]*$//' "$s/work/merged.csv")" = "$(sed 's/,[^,]*$//' "$s/whole.csv")" ] &&
   [ "$(wc -l < "$s/whole.csv")" -eq 5 ]; then
  ok "the merged shards are the whole-class run's grades, row for row"
else
  bad "merged shards differ from the whole class" "$(diff "$s/work/merged.csv" "$s/whole.csv")"
fi
grep -q '^ada,100,' "$s/work/merged.csv" && grep -q '^cy,' "$s/work/merged.csv" && ! grep -q '^cy,100,' "$s/work/merged.csv" \
  && ok "right and wrong kernels are graded as such on the cluster" || bad "grades from the cluster" "$(cat "$s/work/merged.csv")"

finish
