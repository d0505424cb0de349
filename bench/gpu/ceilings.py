"""Device ceilings: what a device model's parameters should be on this machine.

Each figure is a median over repeated timings after warm-up. Device-side work is timed with CUDA events
around `inner` back-to-back calls; anything that involves the host (transfers, launch overhead, CPU
gathers) with a wall clock read after torch.cuda.synchronize(). Inputs are random (never all zeros),
seeds fixed. On a CPU-only machine (--device cpu, the smoke test) the same code times the CPU and the
measurements that need CUDA are marked skipped.
"""
import os
import statistics
import time

import torch

MB = 1 << 20


class Clock:
    """Median milliseconds per call of fn: CUDA events on a CUDA device, else a wall clock."""

    def __init__(self, device):
        self.device, self.cuda = device, device.type == 'cuda'

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def device_ms(self, fn, warmup, reps, inner=1):
        for _ in range(warmup):
            fn()
        self.sync()
        if not self.cuda:
            return self.wall_ms(fn, 0, reps, inner)
        times = []
        for _ in range(reps):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(inner):
                fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / inner)
        return statistics.median(times)

    def wall_ms(self, fn, warmup, reps, inner=1):
        for _ in range(warmup):
            fn()
        self.sync()
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            self.sync()
            times.append((time.perf_counter() - t0) * 1e3 / inner)
        return statistics.median(times)


def new_tf32_api():
    """Whether torch has torch.backends.cuda.matmul.fp32_precision (2.9 and later); older versions
    raise AssertionError, not AttributeError, for an unknown attribute there."""
    try:
        getattr(torch.backends.cuda.matmul, 'fp32_precision')
        return True
    except (AttributeError, AssertionError, RuntimeError):
        return False


def set_tf32(on):
    """TF32 for float32 matrix products on or off. torch >= 2.9 has a per-backend setting and raises
    when code reads the legacy one after the new one was written, so use only one of them per torch."""
    matmul = torch.backends.cuda.matmul
    if new_tf32_api():
        matmul.fp32_precision = 'tf32' if on else 'ieee'
        return f'cuda.matmul.fp32_precision={matmul.fp32_precision}'
    torch.set_float32_matmul_precision('high' if on else 'highest')
    return f'float32_matmul_precision={torch.get_float32_matmul_precision()}'


def copy_bandwidth(clock, nbytes, reps):
    """Device-to-device copy_; bandwidth counts the bytes read plus the bytes written."""
    src = torch.rand(nbytes // 4, device=clock.device)
    dst = torch.empty_like(src)
    ms = clock.device_ms(lambda: dst.copy_(src), warmup=3, reps=reps, inner=5)
    if not torch.equal(dst[:1000], src[:1000]):
        raise AssertionError('copy did not copy')
    return dict(bytes=nbytes, ms=ms, GBps=2 * nbytes / ms / 1e6)


def matmul_rate(clock, m, k, n, tf32, reps, inner):
    """torch.mm of random [m, k] x [k, n] into a preallocated output -> TFLOP/s (2mnk per product)."""
    g = torch.Generator(device=clock.device).manual_seed(0)
    a = torch.randn(m, k, device=clock.device, generator=g)
    b = torch.randn(k, n, device=clock.device, generator=g)
    out = torch.empty(m, n, device=clock.device)
    precision = set_tf32(tf32) if clock.cuda else 'n/a on cpu'
    try:
        ms = clock.device_ms(lambda: torch.mm(a, b, out=out), warmup=3, reps=reps, inner=inner)
        # TF32 shows as a relative error near 1e-3 against float64, full float32 near 1e-6
        rows = slice(0, min(m, 256))
        exact = a[rows].double() @ b.double()
        rel_err = float((out[rows].double() - exact).abs().max() / exact.abs().max())
    finally:
        if clock.cuda:
            set_tf32(False)
    return dict(shape=f'{m}x{k}x{n}', precision=precision, ms=ms, TFLOPs=2 * m * n * k / ms / 1e9,
                rel_err_vs_fp64=rel_err)


def launch_overhead(clock, ops, reps):
    """A chain of `ops` dependent x.add_(1) on a one-element tensor: the wall time per op to issue them
    (issue_us) and to finish them (total_us, synchronised). On a GPU both are the launch path's cost,
    as the kernels themselves take about a microsecond."""
    x = torch.zeros(1, device=clock.device)
    issue, total = [], []
    for rep in range(reps + 1):  # the first round is warm-up
        clock.sync()
        t0 = time.perf_counter()
        for _ in range(ops):
            x.add_(1)
        t1 = time.perf_counter()
        clock.sync()
        t2 = time.perf_counter()
        if rep:
            issue.append((t1 - t0) * 1e6 / ops)
            total.append((t2 - t0) * 1e6 / ops)
    if int(x.item()) != ops * (reps + 1):
        raise AssertionError(f'chain ran {x.item()} ops, expected {ops * (reps + 1)}')
    return dict(ops=ops, issue_us_per_op=statistics.median(issue), total_us_per_op=statistics.median(total))


def graph_launch_floor(clock, ops, reps):
    """The same chain captured once in a CUDA graph and replayed: GPU time per op without the host's
    launch path (the floor a graph-captured step could reach), and the wall time of one replay."""
    if not clock.cuda:
        return dict(skipped='CUDA graphs need a CUDA device')
    x = torch.zeros(1, device=clock.device)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture, as torch.cuda.graph requires
        for _ in range(3):
            x.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(ops):
            x.add_(1)
    ms = clock.device_ms(graph.replay, warmup=3, reps=reps)
    replay_ms = clock.wall_ms(graph.replay, warmup=1, reps=reps)
    return dict(ops=ops, us_per_op=ms * 1e3 / ops, replay_wall_ms=replay_ms)


def transfers(clock, sizes, smoke):
    """Host->device and device->host copies of `sizes` bytes from pinned (non_blocking) and pageable
    (blocking) host buffers, wall clock after synchronize. Per size: ms and GB/s; per kind: the
    smallest size's time as fixed latency, and a least-squares fit t = latency + bytes / bandwidth
    over the sizes of 64 KB and up. Without CUDA (the smoke test) only the pageable rows run, as
    host-to-host copies, to exercise the code."""
    top = max(sizes)
    dev = torch.empty(top, dtype=torch.uint8, device=clock.device).random_(0, 255)
    out = {} if clock.cuda else dict(note='no CUDA: host-to-host copies, pageable only')
    for pinned in ((True, False) if clock.cuda else (False,)):
        host = torch.empty(top, dtype=torch.uint8).fill_(7)  # touched: no page faults in the timings
        if pinned:
            host = host.pin_memory()
        for direction, dst, src in (('h2d', dev, host), ('d2h', host, dev)):
            rows = []
            for size in sizes:
                reps = 3 if smoke else (30 if size <= MB else 10 if size <= 16 * MB else 5)
                ms = clock.wall_ms(copier(dst[:size], src[:size], pinned), warmup=2, reps=reps)
                rows.append(dict(bytes=size, ms=ms, GBps=size / ms / 1e6))
            out[f'{direction}_{"pinned" if pinned else "pageable"}'] = dict(
                sizes=rows, latency_us=rows[0]['ms'] * 1e3, fit=fit_latency(rows))
    # DistTGL copies a trainer's writes back with .cpu(), into freshly allocated pageable memory:
    # large allocations are fresh mappings, so the copy pays the page faults too (a published A100
    # figure of this kind: about 1.4 GB/s, pytorch PR #138018).
    rows = []
    for size in sizes:
        reps = 3 if smoke else (30 if size <= MB else 10 if size <= 16 * MB else 5)
        src = dev[:size]
        ms = clock.wall_ms(lambda: src.cpu() if clock.cuda else src.clone(), warmup=2, reps=reps)
        rows.append(dict(bytes=size, ms=ms, GBps=size / ms / 1e6))
    out['d2h_pageable_fresh'] = dict(sizes=rows, latency_us=rows[0]['ms'] * 1e3, fit=fit_latency(rows))
    return out


def copier(dst, src, non_blocking):
    return lambda: dst.copy_(src, non_blocking=non_blocking)


def fit_latency(rows):
    pts = [(r['bytes'], r['ms']) for r in rows if r['bytes'] >= 64 * 1024]
    if len(pts) < 2:
        return None
    mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx  # ms per byte
    return dict(latency_us=(my - slope * mx) * 1e3, GBps=1 / slope / 1e6 if slope > 0 else None)


def host_gather(tables, row_counts, reps):
    """CPU index_select (gather) and index_copy_ (scatter) of random rows, on 1 thread and on all
    cores: microseconds and GB/s of the rows moved."""
    g = torch.Generator().manual_seed(0)
    saved = torch.get_num_threads()
    out = []
    try:
        for n_rows, width in tables:
            table = torch.randn(n_rows, width, generator=g)
            for rows in row_counts:
                idx = torch.randint(0, n_rows, (rows,), generator=g)
                distinct = torch.randperm(n_rows, generator=g)[:min(rows, n_rows)]
                buf = torch.empty(rows, width)
                for threads in sorted({1, os.cpu_count() or 1}):
                    torch.set_num_threads(threads)
                    clock = Clock(torch.device('cpu'))
                    gather = clock.wall_ms(lambda: torch.index_select(table, 0, idx, out=buf), 3, reps)
                    scatter = clock.wall_ms(lambda: table.index_copy_(0, distinct, buf[:len(distinct)]), 3, reps)
                    nbytes = rows * width * 4
                    out.append(dict(table=f'{n_rows}x{width}', rows=rows, threads=threads,
                                    gather_us=gather * 1e3, gather_GBps=nbytes / gather / 1e6,
                                    scatter_us=scatter * 1e3,
                                    scatter_GBps=len(distinct) * width * 4 / scatter / 1e6))
    finally:
        torch.set_num_threads(saved)
    return out
