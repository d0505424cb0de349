#!/usr/bin/env bash
# Two processes against one: TGN on CollegeMsg, `disttgl` and `depbloom` at G = 2 logical devices,
# once in one process on 2 workers (--workers 2) and once as 2 ranks of 1 worker each joined by
# Gloo over loopback (`depbloom launch --nproc 2`), same seed. depbloom: 2 chains x 1 micro-batch,
# its window and partitioner from the dependency profile. Prints a markdown table per run: whether
# the two runs' metrics are equal, training events/s, and the bytes each rank sent per epoch
# (gradients, memory, other), as metrics.jsonl counts them (ring-algorithm volume).
# Usage: bench/distributed.sh [DATA] [EPOCHS]   (default ../shared/data/CollegeMsg.txt.gz, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/CollegeMsg.txt.gz}
epochs=${2:-2}
out=${OUT:-runs/distributed}
mkdir -p "$out"
common=(--data "$data" --epochs "$epochs" --eval-negatives 1 --seed 0 --threads 1,1 --quiet --json)
for schedule in disttgl depbloom; do
  opts=(--schedule "$schedule" --devices 2)
  if [[ $schedule == depbloom ]]; then
    opts+=(--set schedule.chains=2 --set schedule.micro_batches=1)
  fi
  rm -rf "$out/$schedule-1p" "$out/$schedule-2p"
  ./depbloom train "${common[@]}" "${opts[@]}" --workers 2 --out "$out/$schedule-1p" \
    | tail -n 1 > "$out/$schedule-1p.json"
  ./depbloom launch --nproc 2 -- train "${common[@]}" "${opts[@]}" --out "$out/$schedule-2p" \
    | grep '^\[rank 0\] {' | sed 's/^\[rank 0\] //' > "$out/$schedule-2p.json"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("| schedule | processes | val AP (last epoch) | test AP | same metrics | train events/s |"
      " bytes sent per rank per epoch (gradients + memory + other) |")
print("|---|---|---|---|---|---|---|")
for schedule in ["disttgl", "depbloom"]:
    runs = {}
    for p in ["1p", "2p"]:
        run = f"{out}/{schedule}-{p}"
        runs[p] = ([json.loads(l) for l in open(f"{run}/metrics.jsonl")], json.load(open(f"{run}.json")))
    keys = ["trainLoss", "valAp", "valAuc", "parameterChecksum"]
    same = all(a[k] == b[k] for a, b in zip(runs["1p"][0], runs["2p"][0]) for k in keys) \
        and runs["1p"][1]["testAp"] == runs["2p"][1]["testAp"]
    for p, label in [("1p", "1 (2 workers)"), ("2p", "2 (1 worker each)")]:
        epochs, s = runs[p]
        events = sum(e["trainEvents"] for e in epochs)
        seconds = sum(e["trainSeconds"] for e in epochs)
        if p == "2p":
            ranks = epochs[-1]["ranks"]
            sent = "; ".join(f"rank {r['rank']}: {r['bytesSent'] / 1e6:.1f} MB = "
                             f"{r['gradientBytes'] / 1e6:.1f} + {r['memoryBytes'] / 1e6:.2f} + "
                             f"{r['otherBytes'] / 1e3:.1f} kB" for r in ranks)
        else:
            sent = "-"
        print(f"| {schedule} | {label} | {epochs[-1]['valAp']:.4f} | {s['testAp']:.4f} | "
              f"{'yes' if same else 'NO'} | {events / seconds:,.0f} | {sent} |")
PY
