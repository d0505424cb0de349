#!/usr/bin/env python3
"""Every validation of a `depbloom bench schedules` run as a markdown table.

Usage: bench/validation-curves.py OUT_DIR [CLOCK]   (the --out folder, holding comparison.json;
CLOCK: 'measured' (default), 'here', or a GPU device model the run projected onto)

Per row: validation AP at each validation, at the training splits of events trained so far (2.5 is
two and a half passes over the training events; bold at or above the target), then the row's time
to target under the clock, the previous validation's time, the speedup over the fastest disttgl
and whether one validation decides it, and the time from which it stays at or above the target.
"""
import json
import sys
from pathlib import Path


def fmt(x, unit=""):
    return "-" if x is None else f"{x:.1f}{unit}" if unit == "" else f"{x:.2f}{unit}"


def main(folder: Path, clock: str) -> None:
    c = json.loads((folder / "comparison.json").read_text())
    target = c["targetValAp"]
    split = c["trainEvents"]
    print(f"Target {target:.4f}; validations every {c['checkEverySplits']} training splits; clock "
          f"'{clock}'.\n")
    print("| row | validation AP at training splits | s to target | previous validation (s) | speedup |"
          " one check decides | sustained from (s) | sustained speedup |")
    print("|---|---|---|---|---|---|---|---|")
    for r in c["rows"]:
        points = []
        for p in r["run"]["validations"]:
            at = p["trainedEvents"] / split
            ap = f"{p['valAp']:.4f}"
            points.append(f"{at:.2f}: **{ap}**" if p["valAp"] >= target else f"{at:.2f}: {ap}")
        t = r["targets"][clock]
        decides = t["oneCheckDecides"]
        print(f"| {r['label']} | {', '.join(points)} | {fmt(t['seconds'])} | {fmt(t['previousSeconds'])} | "
              f"{fmt(t['speedup'], 'x')} | {'-' if decides is None else 'yes' if decides else 'no'} | "
              f"{fmt(t['sustainedSeconds'])} | {fmt(t['sustainedSpeedup'], 'x')} |")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) == 3 else "measured")
