#!/usr/bin/env python3
"""Every validation of a `depbloom bench schedules` run as a markdown table.

Usage: bench/validation-curves.py OUT_DIR   (the --out folder, holding comparison.json)

Per row: validation AP at each validation (at epochs done: 1.25 is a quarter into the second
epoch; bold at or above the target), the projected training seconds at the first validation at or
above the target (the bench's time to target) and its speedup over the fastest disttgl; then the
same from the validation after which the row stays at or above the target ("sustained": a curve
that crosses the target and falls back is not counted as there until it stays).
"""
import json
import sys
from pathlib import Path


def main(folder: Path) -> None:
    c = json.loads((folder / "comparison.json").read_text())
    target = c["targetValAp"]
    rows = c["rows"]
    train_events = max(p["position"] for r in rows for p in r["validations"])
    print(f"Target {target:.4f}; {c.get('validationsPerEpoch', 1)} validations an epoch; "
          f"validation AP at epoch + share of its training events.\n")
    def sustained(r):
        points = r["validations"]
        t = None
        for p in reversed(points):
            if p["valAp"] < target:
                break
            t = p["projectedSeconds"]
        return t

    best = [sustained(r) for r in rows if r["schedule"] == "disttgl" and sustained(r) is not None]
    best = min(best) if best else None
    print("| row | validation AP | projected s to target | speedup | sustained: s | speedup |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        points = []
        for p in r["validations"]:
            at = p["epoch"] - 1 + p["position"] / train_events
            ap = f"{p['valAp']:.4f}"
            points.append(f"{at:.2f}: **{ap}**" if p["valAp"] >= target else f"{at:.2f}: {ap}")
        t = r["projectedTimeToTargetSeconds"]
        s = r["speedupOverDisttgl"]
        u = sustained(r)
        v = None if u is None or best is None else best / u
        print(f"| {r['label']} | {', '.join(points)} | {'-' if t is None else f'{t:.1f}'} | "
              f"{'-' if s is None else f'{s:.2f}x'} | {'-' if u is None else f'{u:.1f}'} | "
              f"{'-' if v is None else f'{v:.2f}x'} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
