#!/usr/bin/env bash
# A study's shards over a few machines with GNU parallel and ssh, then the merge (docs/deploy.md
# "GNU parallel").
#
#   deploy/parallel/run.sh SCENARIO N LOGIN... [-- subdual run options]
#   deploy/parallel/run.sh scenarios/mugging-level-gap.toml 12 alice@box1 box2 : -- --trials 10000000
#
# Each LOGIN (as ssh takes it; `:` is this machine) runs one shard at a time with all its cores, and
# parallel hands out shards 0..N-1 as logins come free. Every machine needs subdual (SUBDUAL, default
# `subdual` on its PATH).
#
# The output folder (SUBDUAL_OUT, default `output`) is either
#   - shared (the default): the current folder has the same path on every machine (NFS, a cluster home),
#     the shards run there and write their parts straight into SUBDUAL_OUT; or
#   - copied (TRANSFER=1): the scenario is copied to each machine, each shard runs in a scratch folder
#     there, and its part is copied back into SUBDUAL_OUT here, then removed there (every LOGIN then
#     goes through ssh: name this machine `localhost`, not `:`).
# A failed shard stops the rest; run the script again and only the shards whose parts are missing run
# (a shard whose identical part is already there does nothing).
set -euo pipefail

if [ "$#" -lt 3 ]; then
    echo "usage: $0 SCENARIO N LOGIN... [-- subdual run options]" >&2
    exit 2
fi
scenario=$1
shards=$2
shift 2
logins=()
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
    logins+=("1/$1") # one shard at a time per machine: each shard uses all its cores
    shift
done
[ "${1:-}" = -- ] && shift
subdual=${SUBDUAL:-subdual}
out=${SUBDUAL_OUT:-output}
stem=$(basename "$scenario" .toml)
sshlogins=$(IFS=,; echo "${logins[*]}")

if [ "${TRANSFER:-0}" = 1 ]; then
    # Relative paths, so that parallel copies the scenario to and the part from the same place.
    case $scenario$out in /*) echo "$0: with TRANSFER=1, give SCENARIO and SUBDUAL_OUT as relative paths" >&2; exit 2 ;; esac
    # parallel copies nothing for `:`, yet would still run its shards in a scratch folder.
    case " ${logins[*]} " in *" 1/: "*) echo "$0: with TRANSFER=1, name this machine by ssh (localhost), not ':'" >&2; exit 2 ;; esac
    parallel --sshlogin "$sshlogins" --halt now,fail=1 --workdir ... \
        --transferfile "$scenario" --return "$out/$stem/parts/part-{}-of-$shards.json" --cleanup \
        "$subdual" run "$scenario" --shard "{}/$shards" --out "$out" --quiet "$@" \
        ::: $(seq 0 $((shards - 1)))
else
    parallel --sshlogin "$sshlogins" --halt now,fail=1 --workdir "$PWD" \
        "$subdual" run "$scenario" --shard "{}/$shards" --out "$out" --quiet "$@" \
        ::: $(seq 0 $((shards - 1)))
fi

# Every part is here now; the merge checks them and writes SUBDUAL_OUT/<stem>/.
"$subdual" merge "$out/$stem/parts"
