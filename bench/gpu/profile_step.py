"""One training step under torch.profiler (kernels launched, FLOPs, the kernels that take the time),
and the check that the deduplicated step computes the plain step's function."""
import time

from tgn_model import analytic_matmul_flops
from tgn_train import TgnTrainer


def profile_step(ev, sampler, device, b, dedup, warmup):
    """Profiles the GPU part of one steady-state step (inputs already on the device)."""
    from torch.profiler import ProfilerActivity, profile
    tr = TgnTrainer(ev, sampler, device, b, dedup=dedup)
    for _ in range(warmup):
        pb = tr.prepare()
        tr.step(pb, tr.upload(pb))
    pb = tr.prepare()
    dev = tr.upload(pb)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if tr.cuda else [])
    t0 = time.perf_counter()
    with profile(activities=activities, record_shapes=True, with_flops=True) as prof:
        tr.step(pb, dev)
        tr.sync()
    out = dict(batch=b, dedup=dedup, adam=tr.adam, sizes=pb.sizes(),
               profiled_step_wall_ms=(time.perf_counter() - t0) * 1e3,
               analytic_flops=analytic_matmul_flops(pb.sizes(), b, dedup=dedup))
    out.update(summarise_events(list(prof.events())))
    if tr.cuda and not out['kernels']:
        out['warning'] = 'the profiler recorded no device events (CUPTI unavailable?): kernel counts unknown'
    return out


def is_device_event(e):
    return str(getattr(e, 'device_type', '')).endswith('CUDA')


def device_kind(e):
    """'kernel', 'memcpy', 'memset' or 'other' (a GPU-side user annotation, such as the optimizer's
    record_function range). Newer torch labels events with activity_type; older ones by name."""
    activity = str(getattr(e, 'activity_type', '') or '').lower()
    if activity:
        return 'kernel' if activity == 'kernel' else 'memcpy' if 'memcpy' in activity else \
            'memset' if 'memset' in activity else 'other'
    if e.name.startswith('Memcpy'):
        return 'memcpy'
    if e.name.startswith('Memset'):
        return 'memset'
    return 'other' if getattr(e, 'is_user_annotation', False) else 'kernel'


def summarise_events(events):
    """Kernel events (device side) against the host's launch calls and operators; FLOPs as the
    profiler's formulas count them (matrix products and convolutions only)."""
    device = [e for e in events if is_device_event(e)]
    host = [e for e in events if not is_device_event(e)]
    kinds = [device_kind(e) for e in device]
    kernels = [e for e, k in zip(device, kinds) if k == 'kernel']
    out = dict(kernels=len(kernels), memcpy=kinds.count('memcpy'), memset=kinds.count('memset'),
               device_other=kinds.count('other'),
               launch_calls=sum('LaunchKernel' in e.name for e in host),
               aten_ops=sum(e.name.startswith('aten::') for e in host),
               kernel_time_ms=sum(e.time_range.elapsed_us() for e in kernels) / 1e3,
               profiler_flops=float(sum(getattr(e, 'flops', 0) or 0 for e in host)))
    if kernels:
        out['top_kernels'] = top_by_time(kernels, lambda e: e.time_range.elapsed_us())
    else:  # no device events (CPU run): the operators that take the host's time instead
        out['top_host_ops'] = top_by_time([e for e in host if e.name.startswith('aten::')],
                                          lambda e: e.self_cpu_time_total)
    return out


def top_by_time(events, micros, n=10):
    agg = {}
    for e in events:
        row = agg.setdefault(e.name, [0, 0.0])
        row[0] += 1
        row[1] += micros(e)
    top = sorted(agg.items(), key=lambda kv: -kv[1][1])[:n]
    return [dict(name=name[:140], count=c, total_us=round(t, 1), mean_us=round(t / c, 2)) for name, (c, t) in top]


def dedup_equivalence(ev, sampler, device, b):
    """On one batch, after three training steps have filled memory and mails: loss and parameter
    gradients of the plain and the deduplicated formulation, dropout off. -> their largest
    differences (absolute, and relative to the largest gradient entry)."""
    tr = TgnTrainer(ev, sampler, device, b, dedup=True)
    for _ in range(3):
        pb = tr.prepare()
        tr.step(pb, tr.upload(pb))
    tr.model.eval()
    pb = tr.prepare()
    dev = tr.upload(pb)
    params = list(tr.model.parameters())
    results = []
    for dedup in (False, True):
        tr.model.zero_grad(set_to_none=True)
        loss, _ = tr.forward(pb, dev, dedup)
        loss.backward()
        results.append((loss.item(), [p.grad.detach().clone() for p in params]))
    (loss_a, grads_a), (loss_b, grads_b) = results
    grad_diff = max(float((ga - gb).abs().max()) for ga, gb in zip(grads_a, grads_b))
    grad_max = max(float(g.abs().max()) for g in grads_a)
    rel = grad_diff / grad_max if grad_max > 0 else 0.0
    return dict(loss_plain=loss_a, loss_dedup=loss_b, loss_abs_diff=abs(loss_a - loss_b),
                grad_max_abs_diff=grad_diff, grad_rel_diff=rel, sizes=pb.sizes(),
                equal=abs(loss_a - loss_b) < 1e-4 and rel < 1e-3)
