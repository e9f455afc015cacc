#!/bin/sh
# simcoll sweep --slurm against a real Slurm: a one-node cluster of this
# machine (Debian's munged, slurmctld and slurmd, which .ci/run installs),
# started here in a scratch folder with a munge key, socket, ports and
# state of its own; a small study run through it, interrupted while it
# waits and run again, and the merged CSV compared with the local sweep's.
# Where Slurm cannot start (a command missing, not root, a daemon that does
# not come up), the case says why and exits 77, which ctest counts as
# skipped: it never passes without a Slurm.
# usage: slurm.sh SIMCOLL PLATFORM_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 platforms=$2
skip() {
    echo "slurm.sh: skipped: $*"
    exit 77
}
for cmd in munged slurmctld slurmd sbatch squeue sinfo; do
    command -v $cmd >/dev/null ||
        skip "$cmd not found (apt-get install munge slurmctld slurmd slurm-client)"
done
[ "$(id -u)" = 0 ] || skip "slurmd runs jobs as other users only as root, and this is not root"
work=$(mktemp -d)
stop() {
    for pid in "$work/slurmd.pid" "$work/slurmctld.pid"; do
        [ -s "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
    done
    munged --stop --socket="$work/munge.sock" >/dev/null 2>&1
    sleep 1
    rm -rf "$work"
}
trap stop EXIT
fail() {
    echo "slurm.sh: $*"
    for log in slurmctld slurmd; do
        echo "--- $log.log"
        tail -n 5 "$work/$log.log" 2>/dev/null
    done
    exit 1
}
cd "$work" || exit 1

# A munge key and socket of its own: the machine's own munged, if any, is
# left alone.
dd if=/dev/urandom of=munge.key bs=1024 count=1 2>/dev/null && chmod 400 munge.key
munged --force --key-file="$work/munge.key" --socket="$work/munge.sock" \
    --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed" ||
    skip "munged would not start: $(tail -n 2 munged.log 2>/dev/null)"
host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p state spool
cat > slurm.conf <<CONF
ClusterName=simcolltest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmUser=root
SlurmdUser=root
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=simcoll Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || skip "slurmctld would not start: $(tail -n 2 slurmctld.log)"
slurmd -f "$SLURM_CONF" || skip "slurmd would not start: $(tail -n 2 slurmd.log)"
up=0
for i in $(seq 30); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && up=1 && break
    sleep 1
done
[ $up = 1 ] || skip "the node did not come up in 30 s: $(sinfo 2>&1 | tail -n 1); $(tail -n 2 slurmctld.log)"

cat > study.ini <<STUDY
platform = $platforms/gige.xml
algo = ring, bruck
np = 4, 8, 16
size = 1K
payload = no
STUDY

# Interrupted while it waits for the job: the job runs on, and the next
# run waits for it instead of submitting its points again.
"$simcoll" sweep study.ini --slurm -o slurm.csv 2>first.log &
pid=$!
for i in $(seq 60); do
    grep -q "submitted as Slurm job" first.log && break
    sleep 0.5
done
grep -q "6 points submitted as Slurm job [0-9]*, 6 array tasks" first.log ||
    fail "no submission: $(cat first.log)"
kill -TERM $pid
wait $pid 2>/dev/null
job=$(sed -n 's/.*submitted as Slurm job \([0-9]*\),.*/\1/p' first.log)
[ "$(cat slurm.csv.slurm/job-id)" = "$job" ] || fail "no record of job $job to wait for"
"$simcoll" sweep study.ini --slurm -o slurm.csv 2>second.log ||
    fail "the rerun: $(cat second.log)"
grep -q "waiting for Slurm job $job, which an earlier run submitted" second.log ||
    fail "the rerun did not wait for job $job: $(cat second.log)"
! grep -q "submitted as Slurm job" second.log || fail "the rerun submitted again: $(cat second.log)"
grep -q "it holds 6 of 6 points" second.log || fail "not every point merged: $(cat second.log)"
[ ! -e slurm.csv.slurm/job-id ] || fail "job-id left after the job ended"
ls slurm.csv.slurm/*.log >/dev/null 2>&1 || fail "no task logs in slurm.csv.slurm/"

# The same rows as a sweep run here, in the same order, byte for byte.
"$simcoll" sweep study.ini -o local.csv 2>local.log || fail "the local sweep: $(cat local.log)"
cmp -s slurm.csv local.csv || fail "the Slurm sweep's CSV differs: $(diff slurm.csv local.csv | head -n 4)"
# Nothing left to do: nothing submitted.
"$simcoll" sweep study.ini --slurm -o slurm.csv 2>third.log || fail "a third run: $(cat third.log)"
! grep -q "submitted" third.log || fail "a complete sweep submitted a job: $(cat third.log)"
echo "slurm.sh: job $job, 6 points, the same CSV as the local sweep"
