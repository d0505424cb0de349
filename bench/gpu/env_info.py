"""The machine a check ran on, and the Java GPU path (the project's own GpuTrainingTest) where the
machine can run it."""
import glob
import os
import platform
import shutil
import subprocess
import sys

PYTORCH_GPU = 'org/bytedeco/pytorch/2.10.0-1.5.13/pytorch-2.10.0-1.5.13-linux-x86_64-gpu.jar'
CUDA_NATIVES = 'org/bytedeco/cuda/13.1-9.19-1.5.13/cuda-13.1-9.19-1.5.13-linux-x86_64.jar'
SMI_FIELDS = ['name', 'driver_version', 'memory.total', 'memory.used', 'clocks.sm', 'clocks.mem',
              'clocks.max.sm', 'clocks.max.mem', 'clocks.applications.graphics', 'power.limit',
              'pstate', 'temperature.gpu', 'persistence_mode', 'mig.mode.current', 'compute_mode',
              'pcie.link.gen.current', 'pcie.link.width.current']


def command(args, timeout=20):
    """-> (exit code, stdout + stderr), never raising: a missing tool is rc 127."""
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        return r.returncode, (r.stdout + r.stderr).strip()
    except FileNotFoundError:
        return 127, f'{args[0]}: not found'
    except subprocess.TimeoutExpired:
        return 124, f'{args[0]}: timed out after {timeout}s'


def nvidia_smi():
    """Each field queried on its own: one unsupported field must not lose the others; a hanging
    nvidia-smi stops the queries at the first timeout."""
    if not shutil.which('nvidia-smi'):
        return dict(skipped='nvidia-smi not on PATH')
    out = {}
    for field in SMI_FIELDS:
        rc, text = command(['nvidia-smi', f'--query-gpu={field}', '--format=csv,noheader'], timeout=10)
        out[field] = text.splitlines()[0].strip() if rc == 0 and text else f'n/a (rc {rc})'
        if rc == 124:
            return out
    rc, text = command(['nvidia-smi', '-L'], timeout=10)
    out['gpus'] = text.splitlines() if rc == 0 else text
    return out


def cpu_info():
    model, mem = None, None
    try:
        with open('/proc/cpuinfo') as f:
            model = next((l.split(':', 1)[1].strip() for l in f if l.startswith('model name')), None)
        with open('/proc/meminfo') as f:
            kb = next(int(l.split()[1]) for l in f if l.startswith('MemTotal'))
            mem = round(kb / 2 ** 20, 1)
    except (OSError, StopIteration, ValueError):
        pass
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else None
    return dict(cpu_model=model, cpu_count=os.cpu_count(), cpus_usable=affinity, mem_total_GiB=mem)


def cuda_unavailable_reason():
    """None when torch sees a CUDA device; else what torch says about why not (a driver too old for
    the wheel's CUDA shows up here, as a warning or as torch.cuda.init()'s error)."""
    import warnings
    import torch
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        if torch.cuda.is_available():
            return None
    reasons = [str(w.message) for w in caught]
    try:
        torch.cuda.init()
    except Exception as e:  # noqa: BLE001 (the reason is the point)
        reasons.append(f'{type(e).__name__}: {e}')
    return f'CUDA is not available to torch {torch.__version__} (CUDA {torch.version.cuda}): ' + \
        ('; '.join(reasons) or 'no reason given')


def torch_info(device):
    import numpy
    import pandas
    import torch
    out = dict(python=sys.version.split()[0], torch=torch.__version__, torch_cuda=torch.version.cuda,
               numpy=numpy.__version__, pandas=pandas.__version__, torch_threads=torch.get_num_threads(),
               cuda_available=torch.cuda.is_available())
    try:  # torch >= 2.9 deprecates this getter (and raises if the new per-backend API was written)
        out['float32_matmul_precision'] = torch.get_float32_matmul_precision()
    except Exception as e:  # noqa: BLE001
        out['float32_matmul_precision'] = f'error: {e}'
    from ceilings import new_tf32_api
    if new_tf32_api():
        out['cuda_matmul_fp32_precision'] = torch.backends.cuda.matmul.fp32_precision
    try:
        out['cudnn'] = torch.backends.cudnn.version()
    except Exception as e:  # noqa: BLE001 (recorded, not fatal)
        out['cudnn'] = f'error: {e}'
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        out.update(device_count=torch.cuda.device_count(), device_name=props.name,
                   capability=f'{props.major}.{props.minor}', sm_count=props.multi_processor_count,
                   device_memory_GiB=round(props.total_memory / 2 ** 30, 1))
    elif device.startswith('cuda'):
        out['cuda_error'] = cuda_unavailable_reason()
    return out


def environment(device):
    """Host, Python packages, torch and its view of the device, Java tools (nvidia-smi: apart)."""
    out = dict(platform=platform.platform(), **cpu_info())
    try:
        out.update(torch_info(device))
    except Exception as e:  # noqa: BLE001
        out['torch_error'] = f'{type(e).__name__}: {e}'
    out['java'] = shutil.which('java')
    out['mvn'] = shutil.which('mvn')
    if out['java']:
        out['java_version'] = command(['java', '-version'])[1].splitlines()[:1]
    if out['mvn']:
        out['mvn_version'] = command(['mvn', '-v'])[1].splitlines()[:1]
    out['env'] = {k: os.environ.get(k) for k in ('CUDA_VISIBLE_DEVICES', 'CUDA_MODULE_LOADING',
                                                 'OMP_NUM_THREADS', 'LD_LIBRARY_PATH')}
    return out


def cuda_library_dirs():
    """The CUDA runtime libraries that pip's torch wheel brings (site-packages/nvidia/*/lib): the
    bytedeco GPU natives need CUDA 13 / cuDNN 9 / NCCL 2 libraries on the library path."""
    try:
        import torch
        base = os.path.join(os.path.dirname(os.path.dirname(torch.__file__)), 'nvidia')
        return sorted(glob.glob(os.path.join(base, '*', 'lib')) + glob.glob(os.path.join(base, 'cu*', 'lib')))
    except Exception:  # noqa: BLE001
        return []


def java_gpu_test(root, limit):
    """`mvn -Pgpu -q -B -o -Dtest=GpuTrainingTest verify` where java, mvn and the GPU natives (in the
    local Maven repository; the machine has no network, hence -o) are all there; else the reasons."""
    m2 = os.path.expanduser('~/.m2/repository')
    missing = [what for what, ok in [
        ('java not on PATH', shutil.which('java')), ('mvn not on PATH', shutil.which('mvn')),
        (f'{m2}/{PYTORCH_GPU} absent', os.path.exists(os.path.join(m2, PYTORCH_GPU))),
        (f'{m2}/{CUDA_NATIVES} absent', os.path.exists(os.path.join(m2, CUDA_NATIVES)))] if not ok]
    if missing:
        return dict(skipped='; '.join(missing))
    env = dict(os.environ)
    libs = cuda_library_dirs()
    env['LD_LIBRARY_PATH'] = ':'.join(libs + [env.get('LD_LIBRARY_PATH', '')])
    args = ['mvn', '-Pgpu', '-q', '-B', '-o', '-Dtest=GpuTrainingTest',
            '-Dsurefire.failIfNoSpecifiedTests=false', 'verify']
    try:
        r = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=limit)
        rc, text = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        rc, text = 124, f'timed out after {limit}s\n{e.stdout or ""}'
    return dict(command=' '.join(args), rc=rc, passed=rc == 0, cuda_library_dirs=libs,
                output_tail=str(text)[-3000:])
