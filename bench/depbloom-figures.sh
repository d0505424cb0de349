#!/usr/bin/env bash
# The paper's ablations on our data (TGN, Wikipedia with zero edge features of width 172, 3 epochs,
# 2 workers), each configuration one `train` run, summarised as a markdown table:
#   Fig. 15  batch 600 (sequential) vs batch 2400 (sequential) vs 2400 as 4 refined micro-batches of
#            600 (depbloom P=1 k=4) vs the same without refinement; both large batches at 4x the
#            learning rate (depbloom scales it by G = 4), so only the memory reads differ
#   Fig. 17a sensitivity to the micro-batch count k (depbloom P=1, refined, k = 1, 2, 4, 8)
#   Fig. 18  per-stage seconds per logical device (device 0 and the slowest), from metrics.jsonl
# Validation loss is TGL's loss on the validation events and their first negatives (valLoss).
# Usage: [WORKERS=2] bench/depbloom-figures.sh [fig15|fig17|all]   (default all; ~20 minutes on 2 quiet cores)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
out=${OUT:-runs/depbloom-figures}
mkdir -p "$out"
run() { # name, then train options
  local name=$1; shift
  rm -rf "$out/$name"
  ${DEPBLOOM:-./depbloom} train --edge-feature-dim 172 --epochs 3 --eval-negatives 1 --seed 0 \
    --workers "${WORKERS:-2}" --quiet --json --out "$out/$name" "$@" | tail -n 1 > "$out/$name.json"
  echo "$name" >> "$out/rows.txt"
}
db() { echo --schedule depbloom --set schedule.window=1000000 --set schedule.partitioner=contiguous \
  --set schedule.chains=1 --set schedule.micro_batches="$1" --set schedule.refine="$2"; }
rm -f "$out/rows.txt"
if [[ $what == fig15 || $what == all ]]; then
  run b600 --schedule sequential
  run b2400 --schedule sequential --batch-size 2400 --lr 0.0004   # the learning rate of 4 x 600 below
  run b600x4-refined $(db 4 true)
  run b600x4-stale $(db 4 false)
fi
if [[ $what == fig17 || $what == all ]]; then
  for k in 2 8; do run "k$k-refined" $(db "$k" true); done   # k = 1 is b600 (one chain, one micro-batch = sequential, tested)
fi
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("| run | schedule | val AP (e1 / e2 / e3) | val loss (e1 / e2 / e3) | train loss (e1 / e2 / e3) | test AP | events/s | device 0: sample / refine / fetch / memoryUpdate / train / memoryWrite / sync (s, epoch 3) |")
print("|---|---|---|---|---|---|---|---|")
for name in open(f"{out}/rows.txt").read().split():
    epochs = [json.loads(l) for l in open(f"{out}/{name}/metrics.jsonl")]
    s = json.load(open(f"{out}/{name}.json"))
    cfg = open(f"{out}/{name}/config.yml").read()
    sched = [l.split(":")[1].strip() for l in cfg.splitlines() if l.strip().startswith("- name:")][-1]
    d0 = epochs[-1]["devices"][0]
    stages = " / ".join(f"{d0.get(k, 0):.2f}" for k in
                        ["sample", "refine", "fetch", "memoryUpdate", "train", "memoryWrite", "sync"])
    print(f"| {name} | {sched} | " + " / ".join(f"{e['valAp']:.4f}" for e in epochs)
          + " | " + " / ".join(f"{e.get('valLoss', float('nan')):.4f}" for e in epochs)
          + " | " + " / ".join(f"{e['trainLoss']:.4f}" for e in epochs)
          + f" | {s['testAp']:.4f} | {s['trainEventsPerSecond']:,.0f} | {stages} |")
PY
