#!/usr/bin/env bash
# TGN on the Wikipedia stream as issue 3's accuracy and speed bar asks (zero edge features of width
# 172, negatives from the destination set, batch 600, 3 epochs) with the shipped `tgn-wide` config:
# memory and embedding width 172 (DyGLib's), 8 recent neighbors; the calibrated thread budget.
# Prints per seed: validation AP per epoch, test AP, training events/s over the three epochs.
# Usage: bench/tgn-wide.sh [SEED...]   (default: 0 1 2; about 4 minutes per seed on 2 cores)
# Extra `depbloom train` options via TRAIN_OPTS, e.g. TRAIN_OPTS="--threads 1,2".
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=("${@:-0 1 2}")
out=${OUT:-runs/tgn-wide}
mkdir -p "$out"
for s in ${seeds[@]}; do
  rm -rf "$out/seed-$s"
  ${DEPBLOOM:-./depbloom} train --model tgn-wide --edge-feature-dim 172 --epochs 3 --seed "$s" \
    ${TRAIN_OPTS:-} --out "$out/seed-$s" --quiet --json | tail -n 1 > "$out/seed-$s.json"
  python3 - "$s" "$out/seed-$s" <<'PY'
import json, sys
seed, d = sys.argv[1], sys.argv[2]
epochs = [json.loads(l) for l in open(f"{d}/metrics.jsonl")]
s = json.load(open(f"{d}.json"))
print(f"seed {seed}: val AP " + " / ".join(f"{e['valAp']:.4f}" for e in epochs)
      + f", test AP {s['testAp']:.4f}, train events/s {s['trainEventsPerSecond']:,.0f} ("
      + " / ".join(f"{e['trainEventsPerSecond']:,.0f}" for e in epochs) + ")")
PY
done
