#!/usr/bin/env bash
# The five models on the Wikipedia stream under both test protocols, as the README's table reports
# them: TGL's published hyper-parameters, 3 epochs, batch 600, seed 0, zero edge features of width
# 172 standing in for WIKI's LIWC features, negatives from the destination set (bipartite stream).
# Test: the best epoch's checkpoint, scored on the memory its validation left behind (continued)
# and after a memory reset and a replay of training and validation (TGL's); AP/AUC against one
# negative per event, MRR against 49 negatives that exclude the destination.
# Usage: bench/test-protocols-wikipedia.sh [MODEL...]   (default: all five; 15-25 minutes on 2 cores)
# EPOCHS=N changes the epochs; OUT the output folder (default runs/test-protocols-wikipedia).
set -euo pipefail
cd "$(dirname "$0")/.."
models=("${@:-jodie tgn apan tgat dysat}")
epochs=${EPOCHS:-3}
out=${OUT:-runs/test-protocols-wikipedia}
mkdir -p "$out"
echo "load before: $(uptime)" >&2
printf '| model | best val AP (epoch) | test AP reset / continued | AUC reset / continued | MRR reset / continued | new-node AP reset / continued | train s | test s |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for m in ${models[@]}; do
  rm -rf "$out/$m"
  ${DEPBLOOM:-./depbloom} train --model "$m" --edge-feature-dim 172 --epochs "$epochs" --out "$out/$m" \
    --quiet --json | tail -n 1 > "$out/$m.json"
  python3 - "$m" "$out/$m.json" "$out/$m" <<'PY'
import json, sys
m, summary, run = sys.argv[1], sys.argv[2], sys.argv[3]
s = json.load(open(summary))
t = json.load(open(f"{run}/test.json"))
train = sum(json.loads(l)["trainSeconds"] for l in open(f"{run}/metrics.jsonl"))
def pair(key):
    a, b = s[key], s[key + "Continued"]
    f = lambda v: "-" if v is None else f"{v:.4f}"
    return f"{f(a)} / {f(b)}"
print(f"| {m} | {s['bestValAp']:.4f} ({s['bestEpoch']}) | {pair('testAp')} | {pair('testAuc')} | "
      f"{pair('testMrr')} | {pair('testNewNodeAp')} | {train:.0f} | {t['testSeconds']:.0f} |")
PY
done
echo "load after: $(uptime)" >&2
