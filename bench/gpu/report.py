"""Merges the parts' JSON files into $OUT/gpu-check.json, prints the summary table, the comparison
with bench/gpu/projected-h200.json where it exists, and, as the last line of standard output, one
compact JSON object (status, summary, comparison; the full record is the file)."""
import json
import math
import os
import sys
import time

SCHEMA = 'depbloom-gpu-check/1'
PART_ORDER = ['env', 'ceilings', 'step', 'regimes', 'profile', 'placement', 'dedup', 'java']


def get(d, *path):
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def load_parts(parts_dir):
    """Each part's JSON plus what the shell recorded about its process (exit code, seconds, limit)."""
    parts = {}
    for name in PART_ORDER:
        path = os.path.join(parts_dir, name + '.json')
        part = {}
        if os.path.exists(path):
            try:
                with open(path) as f:
                    part = json.load(f)
            except ValueError as e:
                part = dict(status='error', error=f'unreadable part JSON: {e}')
        rc_path = os.path.join(parts_dir, name + '.rc')
        if os.path.exists(rc_path):
            with open(rc_path) as f:
                fields = f.read().split()
            rc, seconds, limit = (int(float(x)) for x in (fields + ['0', '0', '0'])[:3])
            part.update(rc=rc, process_seconds=seconds, limit_s=limit)
            if rc == -1:
                part.update(status='skipped', skipped='no time left in the check\'s budget')
            elif rc in (124, 137):
                part['status'] = 'timeout'
                part.setdefault('error', f'killed at its limit of {limit}s; measurements before it are kept')
            elif rc != 0 and part.get('status') in (None, 'running'):
                part['status'] = 'error'
                part.setdefault('error', f'process exited with {rc}')
        elif not part:
            part = dict(status='not run')
        parts[name] = part
    return parts


def median(d, key):
    return get(d, key, 'median')


def build_summary(parts):
    """Flat quantities with their units in the key: what a device model is compared on."""
    s = {}
    env = get(parts, 'env', 'env') or {}
    smi = get(parts, 'env', 'nvidia_smi') or {}
    s['gpu'] = env.get('device_name') or smi.get('name')
    s['driver'] = smi.get('driver_version')
    s['torch'] = env.get('torch')
    s['torch_cuda'] = env.get('torch_cuda')
    s['cpu_count'] = env.get('cpu_count')
    s['java_available'] = bool(env.get('java')) and bool(env.get('mvn'))
    c = parts.get('ceilings', {})
    s['d2d_copy_GBps'] = get(c, 'd2d_copy', 'GBps')
    for key, val in c.items():
        if key.startswith('matmul_') and isinstance(val, dict) and 'TFLOPs' in val:
            s[key + '_TFLOPs'] = val['TFLOPs']
    s['launch_eager_us_per_op'] = get(c, 'launch', 'total_us_per_op')
    s['launch_issue_us_per_op'] = get(c, 'launch', 'issue_us_per_op')
    s['launch_graph_us_per_op'] = get(c, 'graph_launch', 'us_per_op')
    for kind, val in (get(c, 'transfers') or {}).items():
        if isinstance(val, dict) and 'sizes' in val:
            s[f'{kind}_latency_us'] = val['latency_us']
            s[f'{kind}_GBps_largest'] = val['sizes'][-1]['GBps']
            s[f'{kind}_GBps_fit'] = get(val, 'fit', 'GBps')
    for row in get(c, 'host_gather') or []:
        tag = f'{row["rows"]}_of_{row["table"]}_{row["threads"]}t'
        s[f'host_gather_{tag}_us'] = row['gather_us']
        if row['threads'] == 1:
            s[f'host_scatter_{tag}_us'] = row['scatter_us']
    for key, run in parts.get('step', {}).items():
        if key.startswith('B') and isinstance(run, dict) and 'wall_ms' in run:
            s[f'step_{key}_sample_ms'] = median(run, 'sample_ms')
            s[f'step_{key}_gpu_ms'] = median(run, 'gpu_step_ms')
            s[f'step_{key}_wall_ms'] = median(run, 'wall_ms')
            s[f'step_{key}_events_per_s'] = run['batch'] / median(run, 'wall_ms') * 1e3
            s[f'step_{key}_reads_per_batch'] = run.get('n_mean')
    for key, prof in parts.get('profile', {}).items():
        if key.startswith('B') and isinstance(prof, dict) and 'kernels' in prof:
            s[f'profile_{key}_kernels'] = prof['kernels']
            s[f'profile_{key}_kernel_time_ms'] = prof['kernel_time_ms']
            s[f'profile_{key}_GFLOP'] = prof['profiler_flops'] / 1e9
            s[f'profile_{key}_GFLOP_analytic'] = prof['analytic_flops'] / 1e9
    for b in (600, 2400, 4800):  # time per kernel of the step: near the launch cost if launch-bound
        gpu_ms, kernels = s.get(f'step_B{b}_gpu_ms'), s.get(f'profile_B{b}_kernels')
        if gpu_ms and kernels:
            s[f'step_B{b}_us_per_kernel'] = gpu_ms * 1e3 / kernels
    for key, run in parts.get('placement', {}).items():
        if key.startswith('B') and isinstance(run, dict) and 'batch_ms' in run:
            s[f'placement_{key}_batch_ms'] = median(run, 'batch_ms')
            if run['placement'] != 'device':
                s[f'placement_{key}_link_MB'] = (run['h2d_bytes'] + run['d2h_bytes']) / 1e6
    regimes = parts.get('regimes', {})
    for key, run in regimes.items():  # issue 45: a refined 4 x 600 against 600 and 2,400
        if isinstance(run, dict) and 'gpu_step_ms' in run:
            ms = median(run, 'gpu_step_ms')
            s[f'regimes_{key}_gpu_ms'] = ms
            if ms:
                s[f'regimes_{key}_events_per_s'] = run['batch'] * 1e3 / ms
            if run.get('h2d_bytes'):
                s[f'regimes_{key}_link_MB'] = (run['h2d_bytes'] + run.get('d2h_bytes', 0)) / 1e6
    d = parts.get('dedup', {})
    for key, run in d.items():
        if key.startswith('B') and isinstance(run, dict) and 'gpu_step_ms' in run:
            s[f'dedup_{key}_gpu_ms'] = median(run, 'gpu_step_ms')
    s['dedup_equal'] = get(d, 'equivalence', 'equal')
    s['dedup_grad_rel_diff'] = get(d, 'equivalence', 'grad_rel_diff')
    s.update(checks(parts))
    java = get(parts, 'java', 'java') or {}
    s['java_gpu_test'] = 'skipped' if 'skipped' in java else ('passed' if java.get('passed') else
                                                              ('failed' if java else None))
    return {k: v for k, v in s.items() if v is not None}


def checks(parts):
    """The semantic checks the parts ran, in one place: all must read 0 / True."""
    out = {}
    step = parts.get('step', {})
    out['check_write_rule_mismatches'] = get(step, 'write_rule_check', 'mismatches')
    out['check_sampler_mismatches'] = get(step, 'sampler_check', 'mismatches')
    diffs = [d for key, val in parts.get('placement', {}).items() if key.endswith('_loss_agreement')
             and isinstance(val, dict) and 'error' not in val for d in val.values()]
    out['check_placement_loss_max_diff'] = max(diffs) if diffs else None
    runs = [run for name in ('step', 'placement', 'dedup') for run in parts.get(name, {}).values()
            if isinstance(run, dict) and 'loss_finite' in run]
    out['check_losses_finite'] = all(r['loss_finite'] for r in runs) if runs else None
    return out


def flatten(d, prefix=''):
    """Nested projection -> dotted keys; {"value": x, ...} counts as the leaf x."""
    out = {}
    for key, val in d.items():
        path = prefix + str(key)
        if isinstance(val, dict) and 'value' in val:
            out[path] = val['value']
        elif isinstance(val, dict):
            out.update(flatten(val, path + '.'))
        else:
            out[path] = val
    return out


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def compare(summary, record, path):
    """Every projected quantity found among the measured ones (a summary key, or a dotted path into
    the full record, with or without its leading `parts.`) -> measured, projected, measured/projected."""
    if not os.path.exists(path):
        return dict(skipped=f'{os.path.relpath(path)} does not exist')
    try:
        with open(path) as f:
            projected = flatten(json.load(f))
    except (ValueError, AttributeError) as e:
        return dict(error=f'{path}: {e}')
    rows, unmatched = [], []
    for key, proj in projected.items():
        meas = summary.get(key)
        if meas is None:
            meas = get(record, *key.split('.'))
        if meas is None:
            meas = get(record, 'parts', *key.split('.'))
        if number(meas) and number(proj):
            rows.append(dict(key=key, measured=meas, projected=proj, ratio=meas / proj if proj else None))
        elif not key.startswith('_'):
            unmatched.append(key)
    return dict(source=os.path.relpath(path), rows=rows, unmatched=unmatched)


def sig(v, digits=4):
    """v rounded to `digits` significant digits (floats only), to keep the last line short."""
    if isinstance(v, float) and math.isfinite(v) and v != 0:
        return round(v, digits - 1 - int(math.floor(math.log10(abs(v)))))
    return v


def fmt(v):
    if isinstance(v, float):
        return f'{v:.4g}' if abs(v) < 1e6 else f'{v:.3e}'
    return str(v)


HEADLINE = ('gpu', 'driver', 'torch', 'd2d_copy', 'matmul_4096', 'matmul_1800', 'launch_eager', 'launch_graph',
            'h2d_pinned_GBps_largest', 'h2d_pageable_GBps_largest', 'd2h_pinned_GBps_largest',
            'd2h_pageable_GBps_largest', 'h2d_pinned_latency', 'h2d_pageable_latency', 'step_', 'profile_',
            'regimes_', 'placement_', 'dedup_B600_plain_gpu', 'dedup_B600_dedup_gpu', 'dedup_B2400_dedup_gpu',
            'dedup_B4800_dedup_gpu', 'dedup_equal', 'check_', 'java_gpu')


def print_tables(record, out, headline_only):
    """Parts, then the summary (on standard output only the headline quantities; the log gets all),
    then the comparison with the projection."""
    print(file=out)
    print('part       status    seconds  note', file=out)
    for name, part in record['parts'].items():
        note = part.get('skipped') or part.get('error') or ', '.join(part.get('failed', [])) or ''
        java_skip = get(part, 'java', 'skipped')
        note = note or (f'skipped: {java_skip}' if java_skip else '')
        seconds = fmt(part.get('process_seconds', part.get('seconds', '-')))
        print(f'{name:<10} {part.get("status", "?"):<9} {seconds:>7}  {note[:300]}', file=out)
    print(file=out)
    print(f'{"quantity":<48} value' + ('  (headline; every quantity: gpu-check.json, gpu-check.log)'
                                      if headline_only else ''), file=out)
    for key, val in record['summary'].items():
        if not headline_only or key.startswith(HEADLINE) and not key.endswith('_GFLOP_analytic'):
            print(f'{key:<48} {fmt(val)}', file=out)
    if not headline_only:
        for key, prof in record['parts'].get('profile', {}).items():
            if not isinstance(prof, dict) or not (prof.get('top_kernels') or prof.get('top_host_ops')):
                continue
            top = prof.get('top_kernels') or prof['top_host_ops']
            what = 'kernels' if prof.get('top_kernels') else 'host operators (no device events)'
            print(f'\nprofile {key}: top {what} by time (count, total us, name)', file=out)
            for k in top:
                print(f'{k["count"]:>6} {k["total_us"]:>10.1f}  {k["name"][:100]}', file=out)
    comp = record['comparison']
    print(file=out)
    if 'rows' in comp:
        print(f'measured against projected ({comp["source"]}): {len(comp["rows"])} quantities, '
              f'{len(comp["unmatched"])} not measured', file=out)
        print(f'{"quantity":<48} {"measured":>10} {"projected":>10} {"ratio":>7}', file=out)
        for r in comp['rows']:
            print(f'{r["key"]:<48} {fmt(r["measured"]):>10} {fmt(r["projected"]):>10} {fmt(r["ratio"]):>7}',
                  file=out)
        if comp['unmatched']:
            print('not measured: ' + ', '.join(comp['unmatched'])[:600], file=out)
    else:
        print('comparison: ' + (comp.get('skipped') or comp.get('error')), file=out)


def report(args):
    parts = load_parts(args.parts_dir)
    summary = build_summary(parts)
    ran = [p for p in parts.values() if 'smoke' in p]  # every part's JSON says how it was run
    mode = ('smoke' if ran[0]['smoke'] else 'full') if ran else None
    record = dict(schema=SCHEMA, mode=mode, device=ran[0]['device'] if ran else None,
                  commit=os.environ.get('GPU_CHECK_COMMIT'),
                  finished=time.strftime('%Y-%m-%dT%H:%M:%S%z'),
                  elapsed_s=round(time.time() - args.started, 1) if args.started else None,
                  status={k: v.get('status') for k, v in parts.items()},
                  errors={k: str(v['error'])[:300] for k, v in parts.items() if v.get('error')},
                  summary=summary)
    record['comparison'] = compare(summary, dict(record, parts=parts), args.projected)
    record['parts'] = parts
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, 'gpu-check.json'), 'w') as f:
        json.dump(record, f, indent=1, default=str)
    print_tables(record, sys.stderr, headline_only=False)  # the shell sends standard error to the log
    print_tables(record, sys.stdout, headline_only=True)
    compact = {k: v for k, v in record.items() if k not in ('parts', 'comparison', 'summary')}
    compact['summary'] = {k: sig(v) for k, v in summary.items()}
    comp = record['comparison']
    compact['comparison'] = [[r['key'], sig(r['measured']), sig(r['projected']), sig(r['ratio'])]
                             for r in comp['rows']] if 'rows' in comp else comp
    compact['full'] = 'gpu-check.json'
    print(json.dumps(compact, separators=(',', ':'), default=str))
    return 0
