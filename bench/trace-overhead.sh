#!/usr/bin/env bash
# What --trace costs: `disttgl` at G = 8 on 2 workers, TGN on Wikipedia (zero edge features of width
# 172), 1 epoch, with and without a Chrome trace, interleaved REPEATS times. Prints events/s per run,
# the medians and their ratio, and checks the trace has one track per logical device.
# Usage: [REPEATS=2] bench/trace-overhead.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-runs/trace-overhead}
rm -rf "$out"; mkdir -p "$out"
common=(train --edge-feature-dim 172 --epochs 1 --eval-negatives 1 --schedule disttgl --devices 8
  --workers 2 --quiet --json)
${DEPBLOOM:-./depbloom} --version > /dev/null
for r in $(seq 1 "${REPEATS:-2}"); do
  ${DEPBLOOM:-./depbloom} "${common[@]}" --out "$out/plain-$r" | tail -n 1 > "$out/plain-$r.json"
  ${DEPBLOOM:-./depbloom} "${common[@]}" --trace "$out/trace-$r.json" --out "$out/traced-$r" \
    | tail -n 1 > "$out/traced-$r.json"
done
python3 - "$out" "${REPEATS:-2}" <<'PY'
import json, statistics, sys
out, n = sys.argv[1], int(sys.argv[2])
eps = {k: [json.load(open(f"{out}/{k}-{r}.json"))["trainEventsPerSecond"] for r in range(1, n + 1)]
       for k in ("plain", "traced")}
for k, v in eps.items():
    print(f"{k:7s} " + " / ".join(f"{e:,.0f}" for e in v) + f"  median {statistics.median(v):,.0f}")
print(f"traced / plain: {statistics.median(eps['traced']) / statistics.median(eps['plain']):.3f}")
t = json.load(open(f"{out}/trace-{n}.json"))["traceEvents"]
tracks = sorted({e["args"]["name"] for e in t if e["ph"] == "M"})
print(f"trace: {sum(1 for e in t if e['ph'] == 'X'):,} spans, tracks: {', '.join(tracks)}")
PY
