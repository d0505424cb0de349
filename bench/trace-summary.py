#!/usr/bin/env python3
"""Summarises a `--trace` Chrome trace of a training run: what is in a round's way.

Per round, each logical device's busy time is the sum of its spans (sync excluded: that is waiting);
the round's compute is its slowest device. Prints: rounds; the sum over rounds of the slowest device
and of the mean device (their ratio is the balance: 1.0 when every device is equally busy); busy
seconds per device stage over all devices; and the coordinator's seconds per stage (all-reduce,
optimizer step, commit, window-end merge, exchanges).

Usage: bench/trace-summary.py TRACE.json [TRACE.json ...]
"""
import json
import sys
from collections import defaultdict


def summarise(path):
    events = json.load(open(path))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M"}
    devices = sorted(t for t, n in names.items() if n.startswith("device"))
    busy = defaultdict(float)  # (round, device) -> microseconds
    stage = defaultdict(float)
    coordinator = defaultdict(float)
    for e in events:
        if e.get("ph") != "X":
            continue
        if names.get(e["tid"], "").startswith("device"):
            if e["name"] != "sync":
                busy[(e["args"]["round"], e["tid"])] += e["dur"]
                stage[e["name"]] += e["dur"] / 1e6
        else:
            coordinator[e["name"]] += e["dur"] / 1e6
    rounds = sorted({r for r, _ in busy})
    slowest = mean = 0.0
    for r in rounds:
        v = [busy.get((r, d), 0.0) for d in devices]
        slowest += max(v)
        mean += sum(v) / len(v)
    print(f"{path}: {len(rounds)} rounds on {len(devices)} devices")
    print(f"  slowest device summed over rounds {slowest / 1e6:.2f} s, mean device {mean / 1e6:.2f} s,"
          f" balance {mean / slowest:.3f}")
    print("  device stages (s, all devices): "
          + ", ".join(f"{k} {v:.2f}" for k, v in sorted(stage.items(), key=lambda x: -x[1])))
    print("  coordinator (s): "
          + ", ".join(f"{k} {v:.3f}" for k, v in sorted(coordinator.items(), key=lambda x: -x[1])))


for p in sys.argv[1:] or sys.exit(__doc__):
    summarise(p)
