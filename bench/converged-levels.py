#!/usr/bin/env python3
"""Time to each of several validation-AP levels, per row of one converged-comparison part.

Reads PART/comparison.json (bench schedules --json) and prints, as markdown, for every row and
level: the projected seconds on CLOCK (a GPU device model of the run, or 'measured') at the first
validation at or above the level, and the trained events then; '-' where the row never reaches it.
Shows where a row that misses the target stands against one that reaches it: whether speed or
accuracy per trained event decides. Figures are read, never recomputed. Standard library only.

Usage: bench/converged-levels.py PART_DIR [--clock a100-pcie] [--levels 0.88,0.90,0.92,0.94]
"""
import argparse
import json
import os

parser = argparse.ArgumentParser(description="Time to validation-AP levels per row.")
parser.add_argument("part", help="a part's folder, holding comparison.json")
parser.add_argument("--clock", default="a100-pcie")
parser.add_argument("--levels", default="0.88,0.89,0.90,0.91,0.92,0.93,0.94,0.95")
options = parser.parse_args()
d = json.load(open(os.path.join(options.part, "comparison.json")))
levels = [float(x) for x in options.levels.split(",")]
clock = options.clock


def seconds(v):
    if clock == "measured":
        return v["projectedSeconds"]
    return v["gpuSeconds"].get(clock)


print(f"Projected seconds on `{clock}` (trained events, thousands) at the first validation at or above each level; target {d['targetValAp']:.4f}:")
print()
print("| row | best val AP | " + " | ".join(f"{x:g}" for x in levels) + " |")
print("|---|---|" + "---|" * len(levels))
for r in d["rows"]:
    if clock != "measured" and r["label"] == "sequential" and not r["run"]["validations"][0]["gpuSeconds"]:
        continue
    cells = []
    for level in levels:
        hit = next((v for v in r["run"]["validations"] if v["valAp"] >= level), None)
        s = seconds(hit) if hit else None
        cells.append("-" if s is None else f"{s:.2f} ({hit['trainedEvents'] / 1000:,.0f}k)")
    print(f"| {r['label']} | {r['run']['bestValAp']:.4f} | " + " | ".join(cells) + " |")
