#!/usr/bin/env python3
"""Per-stage seconds of every row of a `bench schedules` run (the paper's Fig. 18, and the stage
side of Figs. 14 and 16): for each row, the last epoch's training seconds per stage of the logical
device that was busiest in total, of the mean device, and of the coordinating thread; plus the
row's projected and measured events/s and validation AP by epoch.

Usage: bench/stage-breakdown.py BENCH_OUT_DIR   (the --out of `depbloom bench schedules`)
"""
import json
import pathlib
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = pathlib.Path(sys.argv[1])
summary = json.load(open(out / "comparison.json"))
STAGES = ["sample", "refine", "fetch", "memoryUpdate", "memoryWrite", "train"]
print(f"{summary['model']} on {summary['data']}, G = {summary['devices']}, last epoch; seconds per stage"
      " (sample / refine / fetch / memoryUpdate / memoryWrite / train)")
print()
print("| row | val AP by epoch | busiest device | mean device | coordinator: memoryWrite (commit + merge) / sync"
      " / prefill | events/s here / projected |")
print("|---|---|---|---|---|---|")
for row in summary["rows"] + summary.get("checks", []):
    folder = out / "runs" / row["label"].replace(" ", "-").replace("=", "")
    if not (folder / "metrics.jsonl").exists():  # a converged row on one learning rate
        found = sorted((out / "runs" / "grid").glob("*/" + folder.name))
        folder = found[0] if found else folder
    epochs = [json.loads(l) for l in open(folder / "metrics.jsonl")]
    last = epochs[-1]
    devices = last["devices"]
    busiest = max(devices, key=lambda d: sum(d.get(s, 0) for s in STAGES))
    mean = {s: sum(d.get(s, 0) for d in devices) / len(devices) for s in STAGES}
    fmt = lambda d: " / ".join(f"{d.get(s, 0):.2f}" for s in STAGES)
    print(f"| {row['label']} | " + " / ".join(f"{e['valAp']:.4f}" for e in epochs)
          + f" | {fmt(busiest)} | {fmt(mean)} | {last.get('memoryWrite', 0):.2f} / {last.get('sync', 0):.2f}"
          + f" / {last.get('prefill', 0):.2f}"
          + f" | {row['targets']['here']['eventsPerSecond']:,.0f}"
          + f" / {row['targets']['measured']['eventsPerSecond']:,.0f} |")
