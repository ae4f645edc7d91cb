#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the --mpi suite under srun (docs/SCALE.md):
# munged, slurmctld and slurmd on localhost, with a minimal slurm.conf written here, all
# state, logs and pid files in one directory. Needs Debian's slurm-wlm (slurmctld, slurmd,
# slurm-client) and munge, and root (slurmd starts each task as its user).
#
#   .ci/slurm-up.sh [DIR]        start (or find running) the cluster; prints its SLURM_CONF
#   .ci/slurm-up.sh --stop [DIR] stop the daemons this script started in DIR
#
# DIR defaults to /tmp/ffind-slurm. Nothing in /etc is touched: srun, scancel and sinfo find
# the cluster through SLURM_CONF=DIR/slurm.conf, which the caller exports.
set -euo pipefail

stop=0
if [ "${1:-}" = --stop ]; then
  stop=1
  shift
fi
dir=${1:-/tmp/ffind-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf

# Ends the daemon whose pid file is $1 (written by the daemon itself), if it still runs.
end() {
  local pid
  [ -f "$1" ] || return 0
  pid=$(cat "$1")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "$1"
}

if [ "$stop" = 1 ]; then
  end "$dir/slurmd.pid"
  end "$dir/slurmctld.pid"
  end "$dir/munge/munged.pid"
  exit 0
fi

# Already up (a second run in the same CI job, or by hand): nothing to do.
if [ -f "$conf" ] && scontrol ping 2>/dev/null | grep UP >/dev/null &&
  sinfo -h -o %T 2>/dev/null | grep -E '^(idle|mixed|allocated)' >/dev/null; then
  echo "$conf"
  exit 0
fi

mkdir -p "$dir/state" "$dir/spool"
chmod 755 "$dir"

# munge: Slurm's authentication. Debian's package made the key; its socket is /run/munge.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 755 /run/munge "$dir/munge"
  setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log"
  for _ in $(seq 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
    sleep 0.1
  done
  munge -n | unmunge >/dev/null
fi

host=$(hostname -s)
cpus=$(nproc)
# proctrack/linuxproc and task/none: no cgroups needed (containers and VMs without systemd).
# OverSubscribe=FORCE: several test jobs share the cores, as mpirun --oversubscribe does;
# srun --overcommit then runs more tasks than a job has cores (-n 4 on two).
# KillOnBadExit=1: a task that dies (killed, or exiting non-zero) ends the whole step, rather
# than leaving the others waiting on it forever.
cat >"$conf" <<EOF
# Written by .ci/slurm-up.sh: a one-node cluster for ffind's --mpi suite.
ClusterName=ffind-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillOnBadExit=1
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:16
EOF

# -i: ignore state left by an earlier run of this directory.
slurmctld -i -f "$conf"
slurmd -f "$conf"

for _ in $(seq 100); do
  if sinfo -h -o %T 2>/dev/null | grep -E '^(idle|mixed|allocated)' >/dev/null; then
    echo "$conf"
    exit 0
  fi
  sleep 0.2
done
echo "slurm-up.sh: the node did not come up; sinfo says:" >&2
sinfo >&2 || true
tail -20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
exit 1
