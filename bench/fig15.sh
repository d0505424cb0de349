#!/usr/bin/env bash
# Issue 45's Fig. 15-style accuracy on Wikipedia TGN (DepBloom paper, Fig. 15: SB, LB, LB+IMR):
# small batch 600, large batch 2,400, and the large batch as 4 refined micro-batches of 600
# (depbloom with one chain, k = 4, placement local: the four micro-batches on the one device,
# refinement gives micro-batch j the writes of 0..j-1, so memory is batch 600's, and one training
# pass over the 2,400 events steps the optimizer once, as LB does). Same learning rate for all three
# (schedule.scale_lr false), seed 0, EPOCHS epochs (default 10); each run's validation loss per
# epoch is in its metrics.jsonl. ROWS="lb2400 lb2400-imr4" picks rows (default: all; the 4x rows
# need SCALED=1).
# The projected speed of the same rows: dev.depbloom.bench.LargeBatchProjection (test tree).
# Usage: bench/fig15.sh [OUT]   EPOCHS=N SEED=S ROWS=...
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-runs/fig15}
epochs=${EPOCHS:-10}
seed=${SEED:-0}
mkdir -p "$out"
common=(--epochs "$epochs" --seed "$seed" --quiet --json)
# one chain of 4 refined micro-batches of 600, one window over Wikipedia's 110,231 training events
imr4=(--batch-size 600 --schedule depbloom --devices 1 --set schedule.chains=1
  --set schedule.micro_batches=4 --set schedule.window=110231 --set schedule.partitioner=contiguous
  --set schedule.refine=true --set schedule.critical_path=false --set schedule.scale_lr=false)
rows=" ${ROWS:-sb600 lb2400 lb2400-imr4 lb2400-lr4x lb2400-imr4-lr4x} "
row() { # row NAME ARGS...: trains into $out/NAME, its summary JSON beside it (if ROWS names it)
  local name=$1
  shift
  [[ "$rows" == *" $name "* ]] || return 0
  ./depbloom train "${common[@]}" "$@" --out "$out/$name" > "$out/$name.json"
}
row sb600 --batch-size 600
row lb2400 --batch-size 2400
row lb2400-imr4 "${imr4[@]}"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
import os
rows = {n: [json.loads(l) for l in open(f"{out}/{n}/metrics.jsonl")] for n in ("sb600", "lb2400", "lb2400-imr4")
        if os.path.exists(f"{out}/{n}/metrics.jsonl")}
if len(rows) < 3:
    print("rows trained:", ", ".join(rows)); sys.exit(0)
print("| epoch | SB 600 val loss | LB 2,400 (/SB) | LB+IMR(4) (/SB) | SB val AP | LB val AP | LB+IMR(4) val AP |")
print("|---|---|---|---|---|---|---|")
for e in range(len(rows["sb600"])):
    s, l, i = (rows[n][e] for n in ("sb600", "lb2400", "lb2400-imr4"))
    print(f"| {e+1} | {s['valLoss']:.4f} | {l['valLoss']:.4f} ({l['valLoss']/s['valLoss']:.3f}) | "
          f"{i['valLoss']:.4f} ({i['valLoss']/s['valLoss']:.3f}) | {s['valAp']:.4f} | {l['valAp']:.4f} | {i['valAp']:.4f} |")
for n, r in rows.items():
    best = max(r, key=lambda m: m["valAp"])
    print(f"{n}: best val AP {best['valAp']:.4f} at epoch {best['epoch']}, min val loss {min(m['valLoss'] for m in r):.4f}, "
          f"train events/s (this CPU) {sum(m['trainEventsPerSecond'] for m in r)/len(r):,.0f}")
PY
# With SCALED=1 also the two large-batch rows at 4x the learning rate (the linear scaling rule,
# what schedule.scale_lr does for G = 4): does the optimizer's larger batch, not staleness, explain
# the large batches' lower accuracy?
if [[ "${SCALED:-0}" == 1 ]]; then
  lr=$(python3 -c "print(4 * ${LR:-0.0001})")
  row lb2400-lr4x --batch-size 2400 --lr "$lr"
  row lb2400-imr4-lr4x "${imr4[@]}" --lr "$lr"
  python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
import os
for n in ("lb2400-lr4x", "lb2400-imr4-lr4x"):
    if not os.path.exists(f"{out}/{n}/metrics.jsonl"):
        continue
    r = [json.loads(l) for l in open(f"{out}/{n}/metrics.jsonl")]
    print(n, " ".join(f"{m['valAp']:.4f}" for m in r), "| val loss", " ".join(f"{m['valLoss']:.4f}" for m in r))
PY
fi
