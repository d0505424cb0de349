#!/usr/bin/env bash
# Training speed of TGN on Wikipedia (zero edge features of width 172, batch 600, 1 training epoch),
# DepBloom-J and the plain-PyTorch reference (../shared/reference/ref_tgn.py) back to back in one run,
# each with its best thread budget on 2 cores: the reference 1 intra-op + 2 BLAS threads, DepBloom-J
# THREADS (default 1,1,2: two step workers of 1 + 1, what its calibration picks; 1,2 compares
# the same single-thread split). Extra arguments go to `depbloom train` (e.g. --set memory.dim_out=172).
# Needs Debian's python3-torch, python3-pandas, python3-sklearn.
# Usage: [THREADS=1,2] bench/speed-vs-reference.sh [EPOCHS] [TRAIN-OPTION...]   (default 1 epoch)
set -euo pipefail
cd "$(dirname "$0")/.."
epochs=${1:-1}
shift || true
ref=../shared/reference/ref_tgn.py
out=${OUT:-runs/speed-vs-reference}
rm -rf "$out"; mkdir -p "$out"
${DEPBLOOM:-./depbloom} train --edge-feature-dim 172 --epochs "$epochs" --eval-negatives 1 \
  --threads "${THREADS:-1,1,2}" --out "$out/depbloom" --quiet --json "$@" | tail -n 1 > "$out/depbloom.json"
/usr/bin/python3 "$ref" --data ../shared/data/wikipedia.csv.gz --epochs "$epochs" --threads 1 \
  --blas-threads 2 | tee "$out/reference.log" | grep -E '^(epoch|RESULT)'
python3 - "$out/depbloom.json" "$out/reference.log" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
r = float(re.search(r"events_per_s=([0-9.]+)", open(sys.argv[2]).read()).group(1))
print(f"depbloom {d['trainEventsPerSecond']:,.0f} events/s, reference {r:,.0f} events/s: "
      f"ratio {d['trainEventsPerSecond'] / r:.2f}x")
PY
