#!/usr/bin/env bash
# Submits a study's shards as a Slurm array and its merge as a job that waits for them; with --missing,
# only the shards whose parts are not there yet (docs/deploy.md "Slurm").
#
#   deploy/slurm/submit.sh [--missing] SCENARIO N [subdual run options]
#
# Prints the two job ids, "ARRAY_JOB MERGE_JOB", on standard output (the rest goes to standard error).
# Environment: SUBDUAL (default `subdual`), SUBDUAL_OUT (default `output`), SBATCH_OPTIONS (more
# options for both sbatch calls, such as "--partition=long --time=2:00:00").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
missing=no
if [ "${1:-}" = --missing ]; then
    missing=yes
    shift
fi
if [ "$#" -lt 2 ]; then
    echo "usage: $0 [--missing] SCENARIO N [subdual run options]" >&2
    exit 2
fi
scenario=$1
shards=$2
shift 2
subdual=${SUBDUAL:-subdual}
out=${SUBDUAL_OUT:-output}
stem=$(basename "$scenario" .toml)
parts=$out/$stem/parts
read -r -a options <<<"${SBATCH_OPTIONS:-}"

array=0-$((shards - 1))
if [ "$missing" = yes ] && [ -d "$parts" ]; then
    # Exit 0: every shard is there; 3: the missing ones, as --array= takes them; else a refusal.
    status=0
    array=$("$subdual" merge --check "$parts") || status=$?
    case $status in
        0)
            echo "$parts: every shard is there; nothing to submit (merge with: $subdual merge $parts)" >&2
            exit 0
            ;;
        3) echo "$parts: resubmitting shards $array" >&2 ;;
        *) exit "$status" ;;
    esac
fi

job=$(sbatch --parsable "${options[@]}" --array="$array" \
    "$here/shards.sbatch" "$scenario" "$shards" "$@")
job=${job%%;*} # --parsable prints "id" or "id;cluster"
merge=$(sbatch --parsable "${options[@]}" --dependency="afterok:$job" --kill-on-invalid-dep=yes \
    "$here/merge.sbatch" "$parts")
merge=${merge%%;*}
echo "submitted shards $array of $scenario as array job $job, and its merge as job $merge" >&2
echo "$job $merge"
