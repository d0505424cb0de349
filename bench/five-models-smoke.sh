#!/usr/bin/env bash
# One epoch of each of the five models on CollegeMsg and on bitcoin-otc: no NaN, validation AP well
# above 0.5. One epoch is about 60 optimizer steps on these streams, so the learning rate is 1e-3
# (LR=... to change it; TGL's published 1e-4 leaves the memory-only models barely trained).
# CollegeMsg has no edge features; DySAT's attention has no time encoding, so on CollegeMsg it gets
# zero edge features of width 1 (otherwise its attention has no input at all).
# Usage: bench/five-models-smoke.sh [SHARED_DATA_DIR]   (default ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
out=${OUT:-runs/five-models-smoke}
mkdir -p "$out"
printf '| data | model | train loss | val AP | val AUC | test AP | train events/s |\n|---|---|---|---|---|---|---|\n'
for f in CollegeMsg.txt.gz soc-sign-bitcoinotc.csv.gz; do
  for m in jodie tgn apan tgat dysat; do
    rm -rf "$out/$f-$m"
    extra=()
    if [[ $m == dysat && $f == CollegeMsg.txt.gz ]]; then extra=(--edge-feature-dim 1); fi
    ${DEPBLOOM:-./depbloom} train --data "$data/$f" --model "$m" --epochs 1 --lr "${LR:-0.001}" --eval-negatives 1 "${extra[@]}" \
      --out "$out/$f-$m" --quiet --json | tail -n 1 > "$out/$f-$m.json"
    python3 - "$f" "$m" "$out/$f-$m.json" "$out/$f-$m/metrics.jsonl" <<'PY'
import json, sys
f, m, summary, metrics = sys.argv[1:]
s = json.load(open(summary)); e = json.loads(open(metrics).readline())
assert all(x == x for x in (e['trainLoss'], s['valAp'], s['testAp'])), "NaN"
print(f"| {f} | {m} | {e['trainLoss']:.4f} | {s['valAp']:.4f} | {e['valAuc']:.4f} | {s['testAp']:.4f} | "
      f"{s['trainEventsPerSecond']:,.0f} |")
PY
  done
done
