#!/usr/bin/env python3
"""Summarises the parts of the converged comparison (bench/converged-comparison.sh).

Reads OUT/PART/comparison.json for every PART folder under OUT (default runs/converged) and prints,
as markdown, per part and clock: the fastest disttgl row and the fastest depbloom row to the target
(first crossing and sustained; a row the cap ended before it had stayed at or above the target
for `patience` validations has no sustained time), their times and the ratio, and then the mean ratio per clock over
the parts where both reach the target, with the count of parts only one system reaches: the paper's
goal is a mean of at least 2.84x on the A100 model. Then, per part and clock, the highest
validation AP both systems reach (the lower of their best rows' best): each system's fastest row to
it, the time ratio and the trained events each needed, which says whether speed or accuracy per
trained event decides where the target is missed. Only the Python standard library; figures are
read, never recomputed from timings.

With --read-factor PREFIX=R,... (R from bench/disttgl-read-rows.py for the parts whose name starts
with PREFIX) it also prints how much the projection may understate the fastest disttgl row's time:
DistTGL gathers R times the distinct memory rows the projection charges, so its time grows by at
most (R - 1) x (its host traffic + daemon time), both as charged.

Usage: bench/converged-summary.py [OUT] [--clocks here,measured,a100-pcie] [--read-factor wiki=1.22]
"""
import argparse
import collections
import json
import os
import re
import statistics

parser = argparse.ArgumentParser(description="Summarises the parts of the converged comparison.")
parser.add_argument("out", nargs="?", default="runs/converged", help="folder of the parts")
parser.add_argument("--clocks", default="here,measured,a100-pcie,a100-nvlink,h200")
parser.add_argument("--read-factor", default="", help="PREFIX=R,... (bench/disttgl-read-rows.py)")
options = parser.parse_args()
out = options.out
clocks = options.clocks.split(",")
read_factors = {k: float(v) for k, v in (kv.split("=") for kv in options.read_factor.split(",") if kv)}

CLOCK_KIND = {"here": "measured on 2 CPU workers", "measured": "projected (this machine's costs)"}


def stay(row, d):
    """Validations from the one where the row stays at or above the target to its last."""
    n = 0
    for v in reversed(row["run"]["validations"]):
        if v["valAp"] < d["targetValAp"]:
            break
        n += 1
    return n


def cut_by_cap(row, d):
    """A row the cap ended while it had stayed at or above the target for fewer validations than
    the patience: its sustained time is unproven (one more validation below would remove it), so it
    counts in no sustained ratio. A row patience stopped, or one that stayed that long, is shown."""
    capped = row["run"]["validations"][-1]["trainedEvents"] >= d["maxTrainedSplits"] * d["trainEvents"]
    return capped and 0 < stay(row, d) < d["patience"]


def fastest(rows, prefix, clock, key, keep=None, d=None):
    best = None
    for r in rows:
        if not r["label"].startswith(prefix) or (keep and not keep(r["label"])):
            continue
        if key == "sustainedSeconds" and cut_by_cap(r, d):
            continue
        t = r["targets"].get(clock, {}).get(key)
        if t is not None and (best is None or t < best[1]):
            best = (r, t)
    return best


def missing(rows, prefix, clock, key, keep, d):
    """Why a system has no time: no row reached the target, or the cap cut every stay short."""
    if key == "sustainedSeconds" and any(
        r["label"].startswith(prefix) and (not keep or keep(r["label"])) and cut_by_cap(r, d)
        for r in rows
    ):
        return "cut by the cap"
    return "none reached"


def fmt(x):
    return "-" if x is None else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


parts = sorted(
    p for p in os.listdir(out) if os.path.isfile(os.path.join(out, p, "comparison.json"))
)
comparison = {p: json.load(open(os.path.join(out, p, "comparison.json"))) for p in parts}
timings = {}
if os.path.isfile(os.path.join(out, "timings.txt")):
    for line in open(os.path.join(out, "timings.txt")):
        name, _, secs = line.partition(":")
        timings[name.strip()] = secs.strip()
print("| part | model | G | bench wall time | sequential best val AP | best disttgl row (val AP) | best depbloom row (val AP) | rows stopped by the cap |")
print("|---|---|---|---|---|---|---|---|")
for part in parts:
    d = comparison[part]
    rows = d["rows"]
    cap = d["maxTrainedSplits"] * d["trainEvents"]

    def best(prefix):
        r = max((r for r in rows if r["label"].startswith(prefix)), key=lambda r: r["run"]["bestValAp"], default=None)
        return "-" if r is None else f"{r['label']} ({r['run']['bestValAp']:.4f})"

    capped = sum(1 for r in rows if r["run"]["validations"][-1]["trainedEvents"] >= cap)
    print(
        f"| [{part}](converged/{part}/comparison.md) | {d['model']} | {d['devices']} | {timings.get(part, '-')} | "
        f"{rows[0]['run']['bestValAp']:.4f} | {best('disttgl')} | {best('depbloom')} | {capped} of {len(rows)} |"
    )
print()


def groups(label):
    """A DepBloom row's memory groups M (labels "depbloom M=2" before 2026-12-06, "... M=2" since)."""
    m = re.search(r"M=(\d+)", label)
    return int(m.group(1)) if m else 1


# DepBloom rows: all of them; without prefill (ours, not the paper's); the paper's techniques only
# (no prefill and one memory group: memory groups are DistTGL's memory parallelism)
VARIANTS = {
    "all": None,
    "without prefill": lambda l: "prefill" not in l,
    "paper's techniques only (no prefill, M=1)": lambda l: "prefill" not in l and groups(l) == 1,
}
ratios = {(c, k, v): [] for c in clocks for k in ("seconds", "sustainedSeconds") for v in VARIANTS}
# parts that only one system's rows reach: no ratio, so outside the means, but a win to count
only = collections.Counter()  # (clock, key, variant, system) -> parts
print("| part | clock | target | DepBloom rows | fastest disttgl (s) | fastest depbloom (s) | ratio | sustained: disttgl / depbloom (s) | ratio |")
print("|---|---|---|---|---|---|---|---|---|")
for part in parts:
    d = comparison[part]
    rows = d["rows"]
    for clock in clocks:
        if not all(clock in r["targets"] for r in rows):
            continue
        for variant, keep in VARIANTS.items():
            cells = []
            for key in ("seconds", "sustainedSeconds"):
                dt = fastest(rows, "disttgl", clock, key, d=d)
                db = fastest(rows, "depbloom", clock, key, keep, d)
                if dt and db:
                    ratio = dt[1] / db[1]
                    ratios[(clock, key, variant)].append(ratio)
                    cells.append(f"{dt[0]['label']} {fmt(dt[1])} | {db[0]['label']} {fmt(db[1])} | **{ratio:.2f}x**")
                else:
                    if dt or db:
                        only[(clock, key, variant, "disttgl" if dt else "depbloom")] += 1
                    cells.append(
                        f"{dt[0]['label'] + ' ' + fmt(dt[1]) if dt else missing(rows, 'disttgl', clock, key, None, d)} | "
                        f"{db[0]['label'] + ' ' + fmt(db[1]) if db else missing(rows, 'depbloom', clock, key, keep, d)} | -"
                    )
            kind = CLOCK_KIND.get(clock, "projected (GPU model)")
            print(f"| {part} | {clock}, {kind} | {d['targetValAp']:.4f} | {variant} | {cells[0]} | {cells[1]} |")
cut = [(part, r, comparison[part]) for part in parts for r in comparison[part]["rows"]
       if cut_by_cap(r, comparison[part])]
if cut:
    print()
    print("Sustained times not counted (the cap ended the row before it had stayed at or above the target for `patience` validations):")
    print()
    for part, r, d in cut:
        n = stay(r, d)
        print(f"- {part}, {r['label']}: at or above it for its last {n} validation{'s' if n > 1 else ''} only (patience {d['patience']})")
print()
print("| clock | DepBloom rows | mean ratio, first crossing | mean ratio, sustained | parts with a ratio (first crossing / sustained) | parts only disttgl reaches (first / sustained) | parts only depbloom reaches (first / sustained) |")
print("|---|---|---|---|---|---|---|")
for clock in clocks:
    for variant in VARIANTS:
        a, b = ratios[(clock, "seconds", variant)], ratios[(clock, "sustainedSeconds", variant)]
        if a or b:
            which = variant
            m = lambda v: f"{statistics.mean(v):.2f}x" if v else "-"
            n = lambda s: f"{only[(clock, 'seconds', variant, s)]} / {only[(clock, 'sustainedSeconds', variant, s)]}"
            print(f"| {clock} | {which} | {m(a)} | {m(b)} | {len(a)} / {len(b)} | {n('disttgl')} | {n('depbloom')} |")



def first_at(row, level, clock):
    """(seconds on clock, trained events) at a row's first validation at or above level."""
    for v in row["run"]["validations"]:
        if v["valAp"] >= level:
            s = v["projectedSeconds"] if clock == "measured" else v["gpuSeconds"].get(clock)
            return (s, v["trainedEvents"]) if s is not None else None
    return None


# The target decides the goal; where a system misses it, the highest level both reach still says
# which term decides: each system's fastest row to that level (its best row's best AP caps it), the
# time ratio, and how many trained events each needed (the accuracy per event a large batch costs).
print()
print("Below the target: the highest validation AP both systems reach (the lower of their best rows' best), first crossing.")
print()
print("| part | clock | level | fastest disttgl (s, trained events) | fastest depbloom (s, trained events) | time ratio | events ratio (depbloom / disttgl) |")
print("|---|---|---|---|---|---|---|")
for part in parts:
    rows = comparison[part]["rows"]
    best_of = lambda prefix: max((r["run"]["bestValAp"] for r in rows if r["label"].startswith(prefix)), default=None)
    if best_of("disttgl") is None or best_of("depbloom") is None:
        continue
    level = min(best_of("disttgl"), best_of("depbloom"))
    for clock in clocks:
        hits = {}
        for prefix in ("disttgl", "depbloom"):
            cands = [(first_at(r, level, clock), r["label"]) for r in rows if r["label"].startswith(prefix)]
            cands = [(h, label) for h, label in cands if h is not None]
            hits[prefix] = min(cands, key=lambda c: c[0][0]) if cands else None
        if not hits["disttgl"] or not hits["depbloom"]:
            continue
        (dt, dl), (db, bl) = hits["disttgl"], hits["depbloom"]
        print(
            f"| {part} | {clock} | {level:.4f} | {dl} {fmt(dt[0])} ({dt[1] / 1000:,.0f}k) | {bl} {fmt(db[0])} "
            f"({db[1] / 1000:,.0f}k) | **{dt[0] / db[0]:.2f}x** | {db[1] / dt[1]:.2f} |"
        )

if read_factors:
    print()
    print("| part | clock | fastest disttgl (first crossing) | host traffic + daemon, share of its time | R | its time understated by at most |")
    print("|---|---|---|---|---|---|")
    for part in parts:
        factor = next((r for prefix, r in read_factors.items() if part.startswith(prefix)), None)
        if factor is None:
            continue
        rows = comparison[part]["rows"]
        for clock in clocks:
            dt = fastest(rows, "disttgl", clock, "seconds")
            gpu = dt[0]["run"].get("gpu", {}).get(clock) if dt else None
            if gpu is None:
                continue
            share = (gpu["hostTraffic"] + gpu["daemon"]) / gpu["seconds"]
            print(f"| {part} | {clock} | {dt[0]['label']} | {100 * share:.1f}% | {factor:.2f} | {100 * (factor - 1) * share:.1f}% |")
