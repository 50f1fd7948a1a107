#!/usr/bin/env bash
# A real test of the Slurm recipes on a real scheduler: installs Slurm from the Debian packages when it is
# missing, starts a one-node cluster in a private folder, submits a study's shards as a 4-task array with
# its merge (deploy/slurm/submit.sh), then resubmits a lost shard with --missing, and checks after each
# merge that every result file is byte-identical to one `subdual run`. Every daemon it started is stopped
# and the private folder removed, whatever happens. Needs root on Linux (.ci/run skips it otherwise).
#
#   bash deploy/slurm/test-one-node.sh            # from the repository, after cargo build --release
#
# Environment: SUBDUAL (default $CARGO_TARGET_DIR/release/subdual, else target/release/subdual), STUDY (default scenarios/sap-or-mug-the-sentry.toml:
# its 196 work items at 70,000 trials, two blocks each, split into shards of 49, so shards cut through a
# point's blocks and through the tune's candidates), TRIALS (default 70000), SHARDS (default 4),
# TIMEOUT (seconds to wait for a round of jobs, default 300), KEEP=1 keeps the private folder.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
# The release binary, wherever cargo puts it (CARGO_TARGET_DIR moves it).
subdual=$(realpath -m "${SUBDUAL:-${CARGO_TARGET_DIR:-target}/release/subdual}")
study=${STUDY:-scenarios/sap-or-mug-the-sentry.toml}
trials=${TRIALS:-70000}
shards=${SHARDS:-4}
timeout=${TIMEOUT:-300}
stem=$(basename "$study" .toml)
started=$SECONDS

say() { echo "slurm test: $*"; }
fail() {
    echo "slurm test: FAILED: $*" >&2
    exit 1
}

[ "$(uname)" = Linux ] || fail "needs Linux"
[ "$(id -u)" = 0 ] || fail "needs root (it installs Slurm and starts its daemons)"
[ -x "$subdual" ] || fail "no binary at $subdual (cargo build --release --locked first)"
[ -f "$study" ] || fail "no study $study"
study=$(realpath "$study") # the jobs run in another folder

# --- Install --------------------------------------------------------------------------------------
own_policy=no
cleanup_policy() {
    if [ "$own_policy" = yes ]; then
        rm -f /usr/sbin/policy-rc.d
        own_policy=no
    fi
}
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurmctld slurmd slurm-client munge from the Debian packages"
    command -v apt-get >/dev/null || fail "Slurm is missing and there is no apt-get to install it"
    # No service may start during the install: the cluster below is started by hand, in a private folder.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        trap cleanup_policy EXIT
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 0755 /usr/sbin/policy-rc.d
        own_policy=yes
    fi
    apt=(-o DPkg::Lock::Timeout=120 -o Acquire::Retries=3)
    # apt-get update takes the lists' lock, which DPkg::Lock::Timeout does not wait for: retry a while.
    for try in $(seq 1 24); do
        if apt-get "${apt[@]}" -qq update; then
            break
        fi
        [ "$try" -lt 24 ] || fail "apt-get update kept failing"
        say "apt-get update failed (another apt running?), trying again in 5 s"
        sleep 5
    done
    DEBIAN_FRONTEND=noninteractive apt-get "${apt[@]}" -y -qq --no-install-recommends \
        install slurmctld slurmd slurm-client munge >/dev/null
    cleanup_policy
    trap - EXIT
fi
installed=$SECONDS
version=$(dpkg-query -W -f '${Version}' slurmctld 2>/dev/null || echo "(not from a package)")
say "Slurm $version ready ($((installed - started)) s)"

# --- A one-node cluster in a private folder -------------------------------------------------------
dir=$(mktemp -d /tmp/subdual-slurm.XXXXXX)
pids=()
cleanup() {
    status=$?
    set +e
    if [ "$status" != 0 ]; then
        for log in "$dir"/*.log "$dir"/*.err "$dir"/jobs/*.out; do
            [ -f "$log" ] || continue
            echo "----- $log (last 40 lines)" >&2
            tail -n 40 "$log" >&2
        done
    fi
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ] && [ "${#pids[@]}" -gt 1 ]; then
        # Cancel what is left, so that no job step outlives its slurmd.
        scancel --quiet --full --user=root 2>/dev/null
        for _ in $(seq 1 20); do
            [ -z "$(squeue -h 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    # Stop the daemons, slurmd and slurmctld before munged, by the ids of the processes started here.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [ "${KEEP:-0}" = 1 ]; then
        echo "slurm test: kept $dir" >&2
    else
        rm -rf "$dir"
    fi
    if [ "$status" = 0 ]; then
        echo "slurm test: passed in $((SECONDS - started)) s ($((SECONDS - installed)) s after the install)"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$dir"/{state,spool,jobs,out}
# munged refuses a socket folder that others cannot enter.
chmod 0755 "$dir"
mkdir -m 0755 "$dir/munge"
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 0400 "$dir/munge.key"
socket=$dir/munge/munge.socket

# Two free TCP ports for slurmctld and slurmd, so that a Slurm already on the machine is left alone.
free_port() {
    local port
    for port in $(seq "$1" "$(($1 + 200))"); do
        if ! (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    fail "no free port from $1"
}
ctld_port=$(free_port 16817)
slurmd_port=$(free_port $((ctld_port + 1)))

host=$(hostname -s)
node=$(slurmd -C | head -n 1)
case $node in
    NodeName=*) ;;
    *) fail "slurmd -C printed no node line: $node" ;;
esac
node="$node NodeAddr=127.0.0.1 State=UNKNOWN"
export SLURM_CONF=$dir/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=subdual-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
$node
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

say "starting munged, slurmctld and slurmd in $dir (ports $ctld_port, $slurmd_port)"
munged --foreground --force --socket="$socket" --key-file="$dir/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" >"$dir/munged.err" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do
    [ -S "$socket" ] && break
    sleep 0.1
done
[ -S "$socket" ] || fail "munged did not open its socket"
slurmctld -D -f "$SLURM_CONF" >"$dir/slurmctld.err" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.err" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    case $state in idle*) break ;; esac
    for pid in "${pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || fail "a daemon (process $pid) stopped during start-up"
    done
    sleep 0.2
done
case $state in idle*) ;; *) fail "the node did not become idle (state: '${state}')" ;; esac
say "node $host idle ($((SECONDS - installed)) s after the install)"

# --- Shards and merge through the recipes ---------------------------------------------------------
export SUBDUAL=$subdual SUBDUAL_OUT=$dir/out
single=$dir/single
"$subdual" run "$study" --trials "$trials" --out "$single" --quiet &
single_pid=$!

# Waits for jobs to leave the queue, then requires every one of them (every task) to have completed.
wait_jobs() {
    local waited=0 job states
    while [ -n "$(squeue -h -j "$(
        IFS=,
        echo "$*"
    )" 2>/dev/null)" ]; do
        [ "$waited" -lt $((timeout * 2)) ] || fail "jobs $* still queued after $timeout s: $(squeue)"
        sleep 0.5
        waited=$((waited + 1))
    done
    for job in "$@"; do
        # One record per task of an array; every one must have completed.
        states=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | xargs)
        if [ -z "$states" ] || scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | grep -qv '=COMPLETED$'; then
            fail "job $job did not complete: ${states:-no record}"
        fi
    done
}

# Every file of the single run's folder but run.json and report.html (which describe the run) must be
# in the merged folder, byte for byte, and nothing else.
same_results() {
    local a=$single/$stem b=$SUBDUAL_OUT/$stem name checked=0
    list() { find "$1" -maxdepth 1 -type f ! -name run.json ! -name report.html -printf '%f\n' | sort; }
    [ -f "$a/summary.csv" ] || fail "the single run wrote no summary.csv"
    if [ "$(list "$a")" != "$(list "$b")" ]; then
        diff <(list "$a") <(list "$b") >&2 || true
        fail "$1: the merged folder holds other files than the single run's"
    fi
    while read -r name; do
        cmp "$a/$name" "$b/$name" || fail "$1: $name differs from the single run's"
        checked=$((checked + 1))
    done < <(list "$a")
    [ -f "$b/run.json" ] || fail "$1: the merge wrote no run.json"
    say "$1: $checked files byte-identical to one run ($(list "$a" | xargs))"
}

cd "$dir/jobs" # the jobs' output files land here
ids=$("$repo/deploy/slurm/submit.sh" "$study" "$shards" --trials "$trials")
read -r job merge <<<"$ids"
say "array job $job ($shards tasks) and merge job $merge submitted"
wait_jobs "$job" "$merge"
say "array and merge done ($((SECONDS - installed)) s after the install)"
wait "$single_pid" || fail "the single run failed"
parts=$SUBDUAL_OUT/$stem/parts
count=$(find "$parts" -name "part-*-of-$shards.json" | wc -l)
[ "$count" = "$shards" ] || fail "$count parts in $parts, expected $shards"
same_results "$shards shards"

# A lost part: --missing resubmits only that shard, and the new merge writes the same files again.
lost=$((shards / 2))
rm "$parts/part-$lost-of-$shards.json"
find "$SUBDUAL_OUT/$stem" -maxdepth 1 -type f -delete
check=0
spec=$("$subdual" merge --check "$parts" 2>/dev/null) || check=$?
if [ "$check" != 3 ] || [ "$spec" != "$lost" ]; then
    fail "merge --check said '$spec' (exit $check), expected '$lost' (exit 3)"
fi
ids=$("$repo/deploy/slurm/submit.sh" --missing "$study" "$shards" --trials "$trials")
read -r job merge <<<"$ids"
tasks=$(scontrol -o show job "$job" | grep -o 'ArrayTaskId=[0-9-]*' | xargs)
[ "$tasks" = "ArrayTaskId=$lost" ] || fail "the resubmitted array holds $tasks, expected ArrayTaskId=$lost"
wait_jobs "$job" "$merge"
same_results "shard $lost resubmitted"
"$subdual" merge --check "$parts" >/dev/null || fail "merge --check still finds shards missing"
