#!/usr/bin/env bash
# Accuracy of the five models on the Wikipedia stream as the README reports it: TGL semantics, zero
# edge features of width 172 standing in for WIKI's 172-dim features, negatives from the destination
# set (the stream is bipartite), batch 600, 3 epochs, TGL's published hyper-parameters, seed 0.
# Usage: bench/accuracy-wikipedia.sh [MODEL...]   (default: all five; about 25 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
models=("${@:-jodie tgn apan tgat dysat}")
out=${OUT:-runs/accuracy-wikipedia}
mkdir -p "$out"
printf '| model | val AP (last) | best val AP | test AP | test AUC | test MRR (49 neg.) | new-node AP |\n'
printf '|---|---|---|---|---|---|---|\n'
for m in ${models[@]}; do
  rm -rf "$out/$m"
  ${DEPBLOOM:-./depbloom} train --model "$m" --edge-feature-dim 172 --epochs 3 --out "$out/$m" --quiet --json \
    | tail -n 1 > "$out/$m.json"
  python3 - "$m" "$out/$m.json" <<'PY'
import json, sys
m, f = sys.argv[1], sys.argv[2]
s = json.load(open(f))
print(f"| {m} | {s['valAp']:.4f} | {s['bestValAp']:.4f} | {s['testAp']:.4f} | {s['testAuc']:.4f} | "
      f"{s['testMrr']:.4f} | {s['testNewNodeAp']:.4f} |")
PY
done
