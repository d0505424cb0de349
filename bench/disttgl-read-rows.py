#!/usr/bin/env python3
"""How many memory rows DistTGL's daemon gathers per trainer, against the distinct rows the
projection charges (docs/measurements/converged-comparison.md, "DistTGL's reads").

DistTGL (amazon-science/disttgl, utils.py to_dgl_blocks, dataloader.py _load_and_slice_mfgs)
deduplicates the source nodes of each message-flow graph, but it builds the positive graph (the
batch's sources and destinations with their sampled neighbours) and the negative graph (the negative
destinations with theirs) apart and concatenates them (combine_mfgs), so a node in both is read
twice. The projection (RoundWork.ItemWork.memoryReadBytes) charges the batch's distinct nodes.
This counts both over the training batches of a stream: TGN's sampling (the 10 most recent
neighbours strictly before a root's time, both directions), TGL's 70/15/15 chronological split,
negatives uniform over the destinations (bipartite) or all nodes.

Usage: bench/disttgl-read-rows.py FILE [--format jodie|snap] [--batch 600] [--neighbors 10]
Needs numpy only. Prints one JSON object.
"""
import argparse
import gzip
import json

import numpy as np


def load(path, fmt):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        if fmt == "jodie":
            next(f)
            rows = [line.split(",", 3)[:3] for line in f]
        else:
            rows = [line.split()[:3] for line in f if line.strip() and not line.startswith("#")]
    a = np.array(rows, dtype=np.float64)
    src, dst, ts = a[:, 0].astype(np.int64), a[:, 1].astype(np.int64), a[:, 2]
    order = np.argsort(ts, kind="stable")
    src, dst, ts = src[order], dst[order], ts[order]
    if fmt == "jodie":  # items after users, as the project's loader numbers them
        dst = dst + src.max() + 1
    return src, dst, ts


def adjacency(src, dst, ts, nodes):
    """Per node: its neighbours and their times, in time order (both directions)."""
    a = np.concatenate([src, dst])
    b = np.concatenate([dst, src])
    t = np.concatenate([ts, ts])
    order = np.lexsort((t, a))
    a, b, t = a[order], b[order], t[order]
    starts = np.searchsorted(a, np.arange(nodes + 1))
    return starts, b, t


def sampled(roots, times, adj, k):
    starts, nbr, t = adj
    out = [roots]
    for r, time in zip(roots, times):
        lo, hi = starts[r], starts[r + 1]
        end = lo + np.searchsorted(t[lo:hi], time, side="left")
        out.append(nbr[max(lo, end - k):end])
    return np.concatenate(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("file")
    p.add_argument("--format", choices=["jodie", "snap"], default=None)
    p.add_argument("--batch", type=int, default=600)
    p.add_argument("--neighbors", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    fmt = args.format or ("snap" if ".txt" in args.file else "jodie")
    src, dst, ts = load(args.file, fmt)
    nodes = int(max(src.max(), dst.max())) + 1
    adj = adjacency(src, dst, ts, nodes)
    train = int(len(ts) * 0.70)
    bipartite = not np.intersect1d(src, dst).size
    candidates = np.unique(dst) if bipartite else np.arange(nodes)
    rng = np.random.default_rng(args.seed)
    batches = -(-train // args.batch)
    distinct = per_graph = roots_only = 0
    for lo in range(0, train, args.batch):
        hi = min(lo + args.batch, train)
        s, d, t = src[lo:hi], dst[lo:hi], ts[lo:hi]
        neg = rng.choice(candidates, size=hi - lo)
        pos_ids = sampled(np.concatenate([s, d]), np.concatenate([t, t]), adj, args.neighbors)
        neg_ids = sampled(neg, t, adj, args.neighbors)
        u_pos, u_neg = np.unique(pos_ids), np.unique(neg_ids)
        distinct += np.union1d(u_pos, u_neg).size
        per_graph += u_pos.size + u_neg.size
        roots_only += np.unique(np.concatenate([s, d, neg])).size
    print(
        json.dumps(
            {
                "file": args.file,
                "events": int(len(ts)),
                "trainEvents": train,
                "batch": args.batch,
                "neighbors": args.neighbors,
                "bipartite": bool(bipartite),
                "distinctRowsPerBatch": distinct / batches,
                "disttglRowsPerBatch": per_graph / batches,
                "disttglOverDistinct": per_graph / distinct,
                "rootRowsPerBatch": roots_only / batches,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
