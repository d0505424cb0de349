#!/usr/bin/env bash
# The accuracy-versus-devices curve of DistTGL's schedule, the one DepBloom must beat: TGN, 3 epochs,
# `disttgl` at G = 1, 2, 4, 8 logical devices with one memory group (k = 1, so i = G batches of 600
# per round) and G = 4 with k = 2 memory groups, all on 2 workers (--workers 2: intra-op 1 + BLAS 1
# each), on Wikipedia (embedded; zero edge features of width 172) and on email-Eu-core-temporal.
# The test pass scores one negative per event (test AP does not depend on the count: the first
# negative of each event is the same draw either way). Prints a markdown table: validation AP per
# epoch, test AP (TGL's protocol), training events/s over the 3 epochs (events counted once per
# memory group that trained on them), and wall seconds of the training passes.
# Usage: bench/disttgl-devices.sh [DATA...]   (default: wikipedia email; ~25 minutes on 2 quiet cores)
# Extra `depbloom train` options via TRAIN_OPTS.
set -euo pipefail
cd "$(dirname "$0")/.."
sets=("${@:-wikipedia email}")
out=${OUT:-runs/disttgl-devices}
mkdir -p "$out"
for data in ${sets[@]}; do
  case "$data" in
    wikipedia) data_opts=(--edge-feature-dim 172) ;;
    email) data_opts=(--data ../shared/data/email-Eu-core-temporal.txt.gz) ;;
    *) echo "unknown data set $data (wikipedia, email)" >&2; exit 2 ;;
  esac
  for gk in 1:1 2:1 4:1 8:1 4:2; do
    g=${gk%:*}; k=${gk#*:}
    run="$out/$data-G$g-k$k"
    rm -rf "$run"
    ${DEPBLOOM:-./depbloom} train "${data_opts[@]}" --epochs 3 --eval-negatives 1 --seed 0 \
      --schedule disttgl --devices "$g" --set schedule.memory_parallelism="$k" --workers 2 \
      ${TRAIN_OPTS:-} --out "$run" --quiet --json | tail -n 1 > "$run.json"
  done
done
python3 - "$out" ${sets[@]} <<'PY'
import json, sys
out, sets = sys.argv[1], sys.argv[2:]
print("| data | G | i x k | val AP (epochs 1 / 2 / 3) | test AP | train events/s | train s |")
print("|---|---|---|---|---|---|---|")
for data in sets:
    for g, k in [(1, 1), (2, 1), (4, 1), (8, 1), (4, 2)]:
        run = f"{out}/{data}-G{g}-k{k}"
        epochs = [json.loads(l) for l in open(f"{run}/metrics.jsonl")]
        s = json.load(open(f"{run}.json"))
        events = sum(e["trainEvents"] for e in epochs)
        seconds = sum(e["trainSeconds"] for e in epochs)
        print(f"| {data} | {g} | {g // k} x {k} | "
              + " / ".join(f"{e['valAp']:.4f}" for e in epochs)
              + f" | {s['testAp']:.4f} | {events / seconds:,.0f} | {seconds:.1f} |")
PY
