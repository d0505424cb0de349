#!/usr/bin/env bash
# Training speed of schedules side by side in one run, interleaved (so drifting load hits them
# alike): TGN on Wikipedia (embedded, zero edge features of width 172), batch 600, 1 epoch each,
# 2 workers of intra-op 1 + BLAS 1, REPEATS rounds of: [the baseline jar with 2 step workers, if
# BASELINE names one], `sequential` on 2 workers, `disttgl` at G = 2 on 2 workers.
# Prints events/s per run and the median per configuration, and each run's per-device stage split.
# Usage: [BASELINE=path/to/old/depbloom.jar] [REPEATS=2] bench/schedule-speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-runs/schedule-speed}
rm -rf "$out"; mkdir -p "$out"
common=(train --edge-feature-dim 172 --epochs 1 --eval-negatives 1 --seed 0 --threads 1,1,2 --quiet --json)
${DEPBLOOM:-./depbloom} --version > /dev/null   # build once, outside the timed runs
for r in $(seq 1 "${REPEATS:-2}"); do
  if [[ -n "${BASELINE:-}" ]]; then
    java -jar "$BASELINE" "${common[@]}" --out "$out/baseline-$r" | tail -n 1 > "$out/baseline-$r.json"
  fi
  ${DEPBLOOM:-./depbloom} "${common[@]}" --schedule sequential --out "$out/sequential-$r" \
    | tail -n 1 > "$out/sequential-$r.json"
  ${DEPBLOOM:-./depbloom} "${common[@]}" --schedule disttgl --devices 2 --out "$out/disttgl2-$r" \
    | tail -n 1 > "$out/disttgl2-$r.json"
done
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(f"{out}/*.json")):
    name, rep = os.path.basename(f)[:-5].rsplit("-", 1)
    s = json.load(open(f))
    epoch = json.loads(open(f"{out}/{name}-{rep}/metrics.jsonl").readline())
    rows.setdefault(name, []).append((s["trainEventsPerSecond"], epoch, s["valAp"]))
for name, runs in rows.items():
    eps = [r[0] for r in runs]
    print(f"{name:11s} events/s " + " / ".join(f"{e:,.0f}" for e in eps)
          + f"  median {statistics.median(eps):,.0f}  val AP {runs[0][2]:.4f}")
    for d, stages in enumerate(runs[-1][1].get("devices", [])):
        print(f"    device {d}: " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items() if v > 0))
PY
