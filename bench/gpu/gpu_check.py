#!/usr/bin/env python3
"""GPU check of DepBloom-J's TGN cost model: one part per process (bench/gpu-check.sh runs each under
`timeout`), each writing its own JSON; `--report` merges them. See bench/gpu/README.md.

  gpu_check.py --part {env,ceilings,step,profile,placement,dedup,java} --out PART.json [--device cpu --smoke]
  gpu_check.py --report --parts-dir DIR --out-dir OUT [--projected FILE]
"""
import argparse
import json
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
DATA = os.path.join(ROOT, 'src/main/resources/dev/depbloom/data/wikipedia.csv.gz')
MB = 1 << 20


class Recorder:
    """A part's results, rewritten to its JSON file after every measurement, so a part killed by its
    time limit still leaves what it measured. `attempt` records a failing measurement's error and
    goes on with the next one."""

    def __init__(self, path, part, args):
        self.path, self.t0 = path, time.time()
        self.data = dict(part=part, status='running', device=args.device, smoke=args.smoke)
        self.flush()

    def flush(self):
        self.data['seconds'] = round(time.time() - self.t0, 2)
        tmp = self.path + '.tmp'
        with open(tmp, 'w') as f:
            json.dump(self.data, f, indent=1, default=str)
        os.replace(tmp, self.path)

    def attempt(self, key, fn):
        t0 = time.time()
        print(f'[{self.data["part"]}] {key} ...', flush=True)
        try:
            value = fn()
        except Exception as e:  # a failed measurement must not stop the others
            value = dict(error=f'{type(e).__name__}: {e}', traceback=traceback.format_exc()[-2000:])
            print(value['traceback'], flush=True)
        print(f'[{self.data["part"]}] {key} done in {time.time() - t0:.1f}s', flush=True)
        self.data[key] = value
        self.flush()
        return value


# ------------------------------------------------------------------------------------------- parts
def part_env(rec, args):
    from env_info import environment, nvidia_smi
    rec.attempt('env', lambda: environment(args.device))
    rec.attempt('nvidia_smi', nvidia_smi)


def part_java(rec, args):
    from env_info import java_gpu_test
    rec.attempt('java', lambda: java_gpu_test(ROOT, args.java_limit))


def part_ceilings(rec, args):
    import torch
    import ceilings as c
    device = torch.device(args.device)
    clock = c.Clock(device)
    smoke = args.smoke
    big = 16 * MB if smoke else 256 * MB
    rec.attempt('d2d_copy', lambda: c.copy_bandwidth(clock, big, reps=3 if smoke else 10))
    shapes = [(1024, 1024, 1024, 2)] if smoke else [(4096, 4096, 4096, 5)]
    shapes += [(1800, 372, 300, 5 if smoke else 200), (16000, 472, 300, 2 if smoke else 50)]
    for m, k, n, inner in shapes:
        for tf32 in ((False,) if not clock.cuda else (False, True)):
            rec.attempt(f'matmul_{m}x{k}x{n}_{"tf32" if tf32 else "fp32"}',
                        lambda: c.matmul_rate(clock, m, k, n, tf32, 3 if smoke else 10, inner))
    rec.attempt('launch', lambda: c.launch_overhead(clock, 2000 if smoke else 20000, 3 if smoke else 5))
    rec.attempt('graph_launch', lambda: c.graph_launch_floor(clock, 1000, 3 if smoke else 10))
    sizes = [4, 64 * 1024, MB, 16 * MB] + ([] if smoke else [256 * MB])
    rec.attempt('transfers', lambda: c.transfers(clock, sizes, smoke))
    rec.attempt('host_gather', lambda: c.host_gather([(9227, 100), (160000, 172)], [1800, 18000],
                                                     5 if smoke else 30))


def load_stream(args):
    import numpy as np
    from tgn_data import EventStream, RecentNeighborSampler
    t0 = time.time()
    ev = EventStream(args.data)
    sampler = RecentNeighborSampler(ev.src, ev.dst, ev.ts, ev.num_nodes)
    info = dict(events=ev.num_events, nodes=ev.num_nodes, train_events=ev.train_end,
                negative_pool=len(ev.neg_pool), load_and_csr_s=round(time.time() - t0, 3))
    return ev, sampler, info, np.random.default_rng(0)


def batch_sizes(args, full):
    return [600] if args.smoke else full


def counts(args, warmup, measure):
    return (1, 3) if args.smoke else (warmup, measure)


def part_step(rec, args):
    import torch
    from tgn_data import check_write_rule
    from tgn_train import TgnTrainer
    ev, sampler, info, rng = load_stream(args)
    rec.data['stream'] = info
    rec.attempt('write_rule_check', check_write_rule)
    rec.attempt('sampler_check', lambda: dict(
        queries=50 if args.smoke else 300,
        mismatches=sampler.check_against_brute_force(ev, 10, 50 if args.smoke else 300, rng)))
    device = torch.device(args.device)
    for b in batch_sizes(args, [600, 2400, 4800]):
        rec.attempt(f'B{b}', lambda: TgnTrainer(ev, sampler, device, b).run(*counts(args, 5, 50)))
        free(device)


def part_regimes(rec, args):
    """Issue 45's two regimes side by side on one GPU: DepBloom's local refinement (a large batch of
    4 x 600 on the device: four memory updates without gradient, then one training pass over 2,400)
    against the small and the large batch; and DistTGL's host-placed step with its edge features
    gathered per sampled edge on the host and copied in pageable, at 600 and 2,400."""
    import torch
    from tgn_train import RefinedTrainer, TgnTrainer
    ev, sampler, _, _ = load_stream(args)
    device = torch.device(args.device)
    warm, measure = counts(args, 5, 40)
    micro = 150 if args.smoke else 600
    rec.attempt(f'SB{micro}', lambda: TgnTrainer(ev, sampler, device, micro).run(warm, measure))
    free(device)
    rec.attempt(f'LB{4 * micro}', lambda: TgnTrainer(ev, sampler, device, 4 * micro).run(warm, measure))
    free(device)
    rec.attempt(f'LB{4 * micro}_refined_4x{micro}',
                lambda: RefinedTrainer(ev, sampler, device, micro, 4).run(warm, measure))
    free(device)
    for b in ([micro] if args.smoke else [600, 2400]):
        rec.attempt(f'B{b}_host-pageable_edges-per-edge', lambda: TgnTrainer(
            ev, sampler, device, b, 'host-pageable', edge_features='host-per-edge').run(warm, measure))
        free(device)


def part_profile(rec, args):
    import torch
    from profile_step import profile_step
    ev, sampler, _, _ = load_stream(args)
    device = torch.device(args.device)
    configs = [(600, False), (600, True)] if args.smoke else [(600, False), (2400, False), (4800, False),
                                                               (600, True), (4800, True)]
    for b, dedup in configs:
        rec.attempt(f'B{b}{"_dedup" if dedup else ""}',
                    lambda: profile_step(ev, sampler, device, b, dedup, warmup=1 if args.smoke else 5))
        free(device)


def part_placement(rec, args):
    import torch
    from tgn_train import TgnTrainer
    ev, sampler, _, _ = load_stream(args)
    device = torch.device(args.device)
    for b in batch_sizes(args, [600, 2400]):
        runs = {}
        for placement in ('device', 'host-pageable', 'host-pinned'):
            runs[placement] = rec.attempt(f'B{b}_{placement}', lambda: TgnTrainer(
                ev, sampler, device, b, placement).run(*counts(args, 5, 40)))
            free(device)
        rec.attempt(f'B{b}_loss_agreement', lambda: loss_agreement(runs))


def loss_agreement(runs):
    """The placements train the same function on the same batches: their losses must agree to float
    rounding (GPU atomics may reorder sums)."""
    ref = runs['device']['losses']
    return {k: max(abs(a - b) for a, b in zip(ref, r['losses'])) for k, r in runs.items()
            if k != 'device' and 'losses' in r}


def part_dedup(rec, args):
    import torch
    from profile_step import dedup_equivalence
    from tgn_train import TgnTrainer
    ev, sampler, _, _ = load_stream(args)
    device = torch.device(args.device)
    rec.attempt('equivalence', lambda: dedup_equivalence(ev, sampler, device, 600))
    variants = [('plain', False, 'single'), ('dedup', True, 'single'),
                ('plain_adam_foreach', False, 'foreach'), ('dedup_adam_foreach', True, 'foreach')]
    for name, dedup, adam in variants:
        rec.attempt(f'B600_{name}', lambda: TgnTrainer(ev, sampler, device, 600, dedup=dedup, adam=adam)
                    .run(*counts(args, 5, 40)))
        free(device)
    # the deduplicated step at the larger batches too: the work DepBloom-J records is deduplicated,
    # so these are the measurements its projection should meet where kernels, not launches, dominate
    for b in ([] if args.smoke else [2400, 4800]):
        rec.attempt(f'B{b}_dedup', lambda: TgnTrainer(ev, sampler, device, b, dedup=True)
                    .run(*counts(args, 5, 40)))
        free(device)


def free(device):
    import gc
    import torch
    gc.collect()
    if device.type == 'cuda':
        torch.cuda.empty_cache()


PARTS = dict(env=part_env, java=part_java, ceilings=part_ceilings, step=part_step, profile=part_profile,
             placement=part_placement, dedup=part_dedup, regimes=part_regimes)


def run_part(args):
    rec = Recorder(args.out, args.part, args)
    try:
        if args.part not in ('env', 'java'):
            import torch
            from env_info import cuda_unavailable_reason
            if args.device.startswith('cuda') and not torch.cuda.is_available():
                raise RuntimeError(cuda_unavailable_reason())
            torch.manual_seed(0)
            if args.device.startswith('cuda'):
                torch.cuda.reset_peak_memory_stats()
        PARTS[args.part](rec, args)
        rec.data['status'] = 'skipped' if 'skipped' in (rec.data.get(args.part) or {}) else 'ok'
        failed = [k for k, v in rec.data.items() if isinstance(v, dict) and 'error' in v]
        if failed:
            rec.data['status'] = 'partial'
            rec.data['failed'] = failed
    except Exception as e:
        rec.data.update(status='error', error=f'{type(e).__name__}: {e}', traceback=traceback.format_exc()[-3000:])
        print(rec.data['traceback'], flush=True)
    finally:
        if args.device.startswith('cuda') and 'torch' in sys.modules:
            try:
                rec.data['peak_gpu_MiB'] = round(sys.modules['torch'].cuda.max_memory_allocated() / MB, 1)
            except Exception:
                pass
        rec.flush()
    return rec.data['status']


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--part', choices=sorted(PARTS))
    p.add_argument('--out', help='the part JSON to write')
    p.add_argument('--device', default='cuda')
    p.add_argument('--smoke', action='store_true', help='tiny repeat counts, B = 600 only')
    p.add_argument('--data', default=DATA)
    p.add_argument('--java-limit', type=int, default=180, help='seconds for the Maven GPU test')
    p.add_argument('--report', action='store_true')
    p.add_argument('--parts-dir')
    p.add_argument('--out-dir')
    p.add_argument('--projected', default=os.path.join(ROOT, 'bench/gpu/projected-h200.json'))
    p.add_argument('--started', type=float, default=None, help='epoch seconds the whole check began')
    args = p.parse_args()
    if args.report:
        from report import report
        sys.exit(report(args))
    if not args.part or not args.out:
        p.error('--part and --out are required (or --report)')
    sys.exit(1 if run_part(args) == 'error' else 0)


if __name__ == '__main__':
    main()
