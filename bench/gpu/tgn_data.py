"""Host side of a TGN batch: the event stream, a vectorised recent-neighbour sampler, and the index
arrays one training batch needs (what it reads, where its neighbours go, what it writes).

Everything here is numpy on the CPU; the GPU sees only the two packed arrays of `PreparedBatch.pack`.
Semantics are the project's (README "Training semantics", TGL's): events stably sorted by time, roots
laid out [src | dst | neg], neighbours strictly before the root's time, the most recent `fanout`, and
the memory write of a batch taken by the last occurrence of each node in event order s0 d0 s1 d1 ...
"""
import time

import numpy as np
import pandas as pd


class EventStream:
    """Events sorted by time. src, dst: [E] int64 dense node ids; ts: [E] float64 from 0."""

    def __init__(self, path, train_share=0.70):
        df = pd.read_csv(path)  # JODIE layout: header u,i,ts,label
        src, dst = df['u'].to_numpy(np.int64), df['i'].to_numpy(np.int64)
        if dst.min() <= src.max():  # raw JODIE numbering restarts items at 0: put them after users
            dst = dst + src.max() + 1
        ts = df['ts'].to_numpy(np.float64)
        order = np.argsort(ts, kind='stable')
        self.src, self.dst = src[order], dst[order]
        self.ts = ts[order] - ts[order][0]
        self.num_events = len(self.ts)
        self.num_nodes = int(max(self.src.max(), self.dst.max())) + 1
        self.train_end = int(self.num_events * train_share)  # chronological 70/15/15 split
        self.neg_pool = np.unique(self.dst)  # bipartite: negatives uniform over the destination set


class RecentNeighborSampler:
    """Temporal CSR over both directions of every event, each node's edges sorted by (time, event id).

    A query (v, t) returns the `fanout` most recent edges of v with time strictly before t. All queries
    of a batch are answered by one np.searchsorted on a composite key node * R + rank(time), which is
    sorted because the CSR is sorted by node, then time; ranks (not raw times) keep the key exact.
    """

    def __init__(self, src, dst, ts, num_nodes):
        node = np.concatenate([src, dst])
        order = np.lexsort((np.tile(np.arange(len(ts)), 2), np.concatenate([ts, ts]), node))
        self.other = np.concatenate([dst, src])[order]  # the neighbour across each edge
        self.eid = np.tile(np.arange(len(ts)), 2)[order]
        self.time = np.concatenate([ts, ts])[order]
        self.distinct_times = np.unique(ts)
        self.R = len(self.distinct_times) + 1
        self.key = node[order] * self.R + np.searchsorted(self.distinct_times, self.time)
        self.seg_start = np.searchsorted(node[order], np.arange(num_nodes))

    def sample(self, roots, query_time, fanout):
        """roots, query_time [n] -> nbr, eid, edge_time, valid: [n, fanout], oldest..newest."""
        rank = np.searchsorted(self.distinct_times, query_time, side='left')  # distinct times < t
        end = np.searchsorted(self.key, roots * self.R + rank, side='left')  # first edge at/after t
        pos = end[:, None] + np.arange(-fanout, 0)
        valid = pos >= self.seg_start[roots][:, None]
        pos = np.where(valid, pos, 0)
        return self.other[pos], self.eid[pos], self.time[pos], valid

    def check_against_brute_force(self, ev, fanout, queries, rng):
        """Compares `queries` random queries (half at an endpoint's own event time, which must be
        excluded) with a scan of the whole stream. -> number of mismatches (0 expected)."""
        j = rng.integers(0, ev.num_events, queries)
        at_event = rng.random(queries) < 0.5
        nodes = np.where(at_event, ev.src[j], rng.integers(0, ev.num_nodes, queries))
        times = np.where(at_event, ev.ts[j], rng.uniform(0, ev.ts[-1] + 1, queries))
        _, eid, et, valid = self.sample(nodes, times, fanout)
        bad = int(((et >= times[:, None]) & valid).sum())
        for q in range(queries):
            incident = np.flatnonzero(((ev.src == nodes[q]) | (ev.dst == nodes[q])) & (ev.ts < times[q]))
            # a self-loop is two CSR entries of one event; compare event sets, as multisets would need it
            expect = set(incident[-fanout:].tolist()) if len(incident) else set()
            got = set(eid[q][valid[q]].tolist())
            if got != expect and not (ev.src[incident] == ev.dst[incident]).any():
                bad += 1
        return bad


class PreparedBatch:
    """Index arrays of one training batch of events [lo, hi), built on the host.

    Occurrences are every (node, read time) the batch reads: the 3B roots at their event time, then
    each valid neighbour slot (row-major over [3B, fanout]) at its edge time. n = 3B + V.
    """

    def __init__(self, ev, sampler, lo, hi, neg, fanout, dedup):
        b = hi - lo
        self.b, self.fanout = b, fanout
        t = ev.ts[lo:hi]
        roots = np.concatenate([ev.src[lo:hi], ev.dst[lo:hi], neg])  # [3B]
        root_t = np.tile(t, 3)  # [3B]
        t0 = time.perf_counter()
        nbr, eid, edge_t, valid = sampler.sample(roots, root_t, fanout)  # [3B, K] each
        self.sampler_s = time.perf_counter() - t0
        self.slots = np.flatnonzero(valid)  # [V] flat positions r * K + k of the valid slots
        self.occ = np.concatenate([roots, nbr.ravel()[self.slots]])  # [n] node of each occurrence
        self.read_t = np.concatenate([root_t, edge_t.ravel()[self.slots]])  # [n]
        self.nbr_dt = root_t[self.slots // fanout] - edge_t.ravel()[self.slots]  # [V] > 0
        self.nbr_eid = eid.ravel()[self.slots]  # [V]
        self._write_rows(ev, lo, b, t)
        self.dedup = dedup
        if dedup:
            self._dedup()

    def _write_rows(self, ev, lo, b, t):
        """True endpoints write; a node's last occurrence in s0 d0 s1 d1 ... wins. Rows index the
        memory' of the roots: src i is row i, dst i is row B + i."""
        nodes = np.stack([ev.src[lo:lo + b], ev.dst[lo:lo + b]], 1).ravel()  # [2B] event order
        event, is_dst = np.arange(2 * b) // 2, np.arange(2 * b) % 2 == 1
        _, first_from_end = np.unique(nodes[::-1], return_index=True)
        last = 2 * b - 1 - first_from_end  # [W]
        self.write_node = nodes[last]
        self.write_row = np.where(is_dst, b + event, event)[last]
        self.partner_row = np.where(is_dst, event, b + event)[last]  # the other endpoint's row
        self.write_eid = lo + event[last]
        self.write_t = t[event[last]]

    def _dedup(self):
        """Distinct nodes (U), distinct (node, read time) pairs (P) and distinct edges, with inverses,
        so memory is read once per node and the updater runs once per pair (as the Java trainer)."""
        self.uniq, inv_node = np.unique(self.occ, return_inverse=True)
        _, t_rank = np.unique(self.read_t, return_inverse=True)
        pair_key = inv_node.reshape(-1) * (int(t_rank.max()) + 1) + t_rank.reshape(-1)
        _, first, self.inv_pair = np.unique(pair_key, return_index=True, return_inverse=True)
        self.inv_pair = self.inv_pair.reshape(-1)  # [n] occurrence -> pair
        self.pair_node = inv_node.reshape(-1)[first]  # [P] pair -> row of uniq
        self.pair_t = self.read_t[first]  # [P]
        self.uniq_eid, self.inv_eid = np.unique(self.nbr_eid, return_inverse=True)
        self.inv_eid = self.inv_eid.reshape(-1)

    def sizes(self):
        s = dict(n=len(self.occ), V=len(self.slots), W=len(self.write_node))
        if self.dedup:
            s.update(U=len(self.uniq), P=len(self.pair_t), E=len(self.uniq_eid))
        return s

    def pack(self):
        """-> (ints int64, floats float64, layout): one host buffer of each kind, so the batch crosses
        to the device in two copies; layout lists (name, kind, length) in buffer order."""
        ints = ['occ', 'slots', 'nbr_eid', 'write_node', 'write_row', 'partner_row', 'write_eid']
        floats = ['read_t', 'nbr_dt', 'write_t']
        if self.dedup:
            ints += ['uniq', 'pair_node', 'inv_pair', 'uniq_eid', 'inv_eid']
            floats += ['pair_t']
        layout = [(k, 'i', len(getattr(self, k))) for k in ints] + \
                 [(k, 'f', len(getattr(self, k))) for k in floats]
        return (np.concatenate([getattr(self, k).astype(np.int64) for k in ints]),
                np.concatenate([getattr(self, k).astype(np.float64) for k in floats]), layout)


def check_write_rule():
    """A hand-built batch of four events: the write rows must be each node's last occurrence in
    s0 d0 s1 d1 ..., with the other endpoint of that event as the mail's partner. -> mismatches."""
    class Tiny:
        src, dst = np.array([0, 1, 0, 2]), np.array([5, 5, 6, 6])
        ts = np.array([1.0, 2.0, 3.0, 3.0])
        num_events, num_nodes = 4, 7
    sampler = RecentNeighborSampler(Tiny.src, Tiny.dst, Tiny.ts, Tiny.num_nodes)
    pb = PreparedBatch(Tiny, sampler, 0, 4, np.array([3, 3, 4, 4]), 2, dedup=False)
    got = {int(n): (int(r), int(p), int(e), float(t)) for n, r, p, e, t in
           zip(pb.write_node, pb.write_row, pb.partner_row, pb.write_eid, pb.write_t)}
    b = 4  # rows: src i -> i, dst i -> 4 + i
    expect = {0: (2, b + 2, 2, 3.0), 1: (1, b + 1, 1, 2.0), 2: (3, b + 3, 3, 3.0),
              5: (b + 1, 1, 1, 2.0), 6: (b + 3, 3, 3, 3.0)}
    # roots [0 1 0 2 | 5 5 6 6 | 3 3 4 4]: only node 0 at t=3 (root 2) and node 5 at t=2 (root 5) have
    # an edge strictly earlier (event 0 at t=1); node 6 at t=3 must not see event 2, also at t=3
    sampled = {(int(s) // 2, int(n)) for s, n in zip(pb.slots, pb.occ[3 * b:])}
    bad = sum(got.get(k) != v for k, v in expect.items()) + (len(got) != len(expect))
    bad += sampled != {(2, 5), (5, 0)}
    return dict(mismatches=int(bad), write=got, sampled=sorted(sampled))
