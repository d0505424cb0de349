#!/usr/bin/env bash
# One epoch of each of the five models on CollegeMsg and on bitcoin-otc: no NaN, validation AP well
# above 0.5. Usage: bench/five-models-smoke.sh [SHARED_DATA_DIR]   (default ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
out=${OUT:-runs/five-models-smoke}
mkdir -p "$out"
printf '| data | model | train loss | val AP | val AUC | test AP | train events/s |\n|---|---|---|---|---|---|---|\n'
for f in CollegeMsg.txt.gz soc-sign-bitcoinotc.csv.gz; do
  for m in jodie tgn apan tgat dysat; do
    rm -rf "$out/$f-$m"
    ${DEPBLOOM:-./depbloom} train --data "$data/$f" --model "$m" --epochs 1 --eval-negatives 1 \
      --out "$out/$f-$m" --quiet --json | tail -n 1 > "$out/$f-$m.json"
    python3 - "$f" "$m" "$out/$f-$m.json" "$out/$f-$m/metrics.jsonl" <<'PY'
import json, sys
f, m, summary, metrics = sys.argv[1:]
s = json.load(open(summary)); e = json.loads(open(metrics).readline())
print(f"| {f} | {m} | {e['trainLoss']:.4f} | {s['valAp']:.4f} | {e['valAuc']:.4f} | {s['testAp']:.4f} | "
      f"{s['trainEventsPerSecond']:,.0f} |")
PY
  done
done
