# A one-node Slurm cluster in a folder of its own, for tests: sourced, it gives
#   start_slurm DIR CPUS   munged, slurmctld and slurmd of Debian's Slurm with their own munge
#                          key, slurm.conf, ports, state, spool and logs under DIR; exports
#                          SLURM_CONF, so sbatch, squeue and scontrol talk to this cluster only.
#                          Returns 77 with a one-line reason where the daemons cannot start.
#   stop_slurm             cancels the cluster's jobs, then stops each daemon it started by its
#                          pid (safe to call twice, and from an EXIT trap).
# The daemons run as root (slurmd starts jobs as their user), so the tests need root.

slurm_pids=()  # munged, slurmctld, slurmd: what stop_slurm stops

# A TCP port on 127.0.0.1 that nothing listens on, and the next one too (slurmctld, slurmd).
free_port_pair() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 40000))
    if ! ss -Htln "sport = :$port or sport = :$((port + 1))" | grep -q .; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

wait_for_file() {  # wait_for_file PATH SECONDS
  local tries=$(($2 * 10))
  while ((tries-- > 0)); do
    [[ -s "$1" ]] && return 0
    sleep 0.1
  done
  return 1
}

start_slurm() {
  local dir=$1 cpus=$2 port host memory tool
  for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo ss; do
    command -v "$tool" >/dev/null || { echo "no $tool: scripts/setup.sh installs Slurm and munge" && return 77; }
  done
  ((EUID == 0)) || { echo "slurmd and munged need root here (running as uid $EUID)" && return 77; }
  port=$(free_port_pair) || { echo "no free TCP port pair for slurmctld and slurmd" && return 77; }
  host=$(hostname -s)
  # The node's memory as Slurm reads it, less a tenth: a RealMemory above it drains the node.
  memory=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  mkdir -p "$dir/state" "$dir/spool"
  chmod 700 "$dir"

  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge.key"
  # --force: munged refuses a socket folder under a world-writable /tmp without it.
  munged --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" --log-file="$dir/munged.log" \
    --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed" || { echo "munged did not start" && return 77; }
  wait_for_file "$dir/munged.pid" 10 || { echo "munged wrote no pid file" && return 77; }
  slurm_pids+=("$(cat "$dir/munged.pid")")

  # cred_expire=5 (120 by default): a requeued job waits that long before it may start again.
  # sched_interval=1 (60 by default): the requeued job starts as soon as it may.
  # proctrack/pgid and task/none: no cgroups, which a container may not delegate.
  cat >"$dir/slurm.conf" <<EOF
ClusterName=nqueens-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket,cred_expire=5
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
ReturnToService=2
KillWait=5
MinJobAge=600
NodeName=node1 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=node1 Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" || { echo "slurmctld did not start: $(tail -3 "$dir/slurmctld.log")" && return 77; }
  wait_for_file "$dir/slurmctld.pid" 10 || { echo "slurmctld wrote no pid file" && return 77; }
  slurm_pids+=("$(cat "$dir/slurmctld.pid")")
  slurmd -f "$SLURM_CONF" -N node1 || { echo "slurmd did not start: $(tail -3 "$dir/slurmd.log")" && return 77; }
  wait_for_file "$dir/slurmd.pid" 10 || { echo "slurmd wrote no pid file" && return 77; }
  slurm_pids+=("$(cat "$dir/slurmd.pid")")
  # Ready when the node is idle.
  for _ in $(seq 100); do
    [[ $(sinfo -h -n node1 -o %t 2>/dev/null) == idle ]] && return 0
    sleep 0.2
  done
  echo "the node did not come up: $(sinfo -h -o '%t %E' 2>&1) $(tail -3 "$dir/slurmd.log")"
  return 77
}

stop_slurm() {
  local pid i
  if ((${#slurm_pids[@]} >= 3)); then
    # The jobs first: their steps (slurmstepd and what it runs) outlive slurmd otherwise.
    scancel --full --quiet --user=root 2>/dev/null || true
    for _ in $(seq 100); do
      [[ -z $(squeue -h -t running,completing -o %i 2>/dev/null) ]] && break
      sleep 0.1
    done
  fi
  for ((i = ${#slurm_pids[@]} - 1; i >= 0; i--)); do  # slurmd, slurmctld, then munged
    pid=${slurm_pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
  slurm_pids=()
}
