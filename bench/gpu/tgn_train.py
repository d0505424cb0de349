"""TGN training on one device with node memory placed on the device or on the host, timed per batch.

Placements (what separates DistTGL from DepBloom on a GPU):
- `device`: memory, mailbox and last-update times resident on the device; a batch reads them with
  index_select and writes them with index_copy_ (DepBloom keeps a chain's memory there for a window).
- `host-pageable`: the tables are ordinary host tensors (DistTGL: host shared memory served by a
  daemon). A batch gathers the rows it reads on the CPU into a read buffer, copies them to the device
  (blocking, pageable), copies the written rows back right after the forward pass (blocking, as
  DistTGL's trainer fills the daemon's write buffer inside forward), and scatters them on the CPU
  after the optimizer step. Rows are read per occurrence, as DistTGL's mini-batches read them.
- `host-pinned`: the same traffic through pinned staging buffers with non_blocking copies. The copies
  stay in stream order (one stream), but the host does not wait for them: it goes on issuing the
  forward pass after the read, and backward and the optimizer step after the write's copy, and waits
  for that copy only before its scatter.
Edge features stay on the device in every placement (zero features; only memory traffic differs).
"""
import time

import numpy as np
import torch

from tgn_data import PreparedBatch
from tgn_model import TgnModel, analytic_matmul_flops

DIM, EDGE_DIM, FANOUT, HEADS = 100, 172, 10, 2
MAIL_DIM = 2 * DIM + EDGE_DIM


def make_adam(params, flavour, lr=1e-4):
    """`single`: one parameter at a time (foreach=False), as libtorch's C++ Adam, which the Java trainer
    runs; `foreach` and `fused`: PyTorch's multi-tensor variants. -> (optimizer, what was used)."""
    options = {'single': dict(foreach=False), 'foreach': dict(foreach=True), 'fused': dict(fused=True)}
    try:
        return torch.optim.Adam(params, lr=lr, **options[flavour]), flavour
    except (TypeError, RuntimeError, ValueError) as e:
        return torch.optim.Adam(params, lr=lr), f'default ({flavour} unavailable: {e})'


def host_buffer(shape, dtype, pinned):
    t = torch.empty(shape, dtype=dtype)
    return t.pin_memory() if pinned else t


class InputStaging:
    """Host (pinned where CUDA is) and device buffers for one kind of per-batch index array, grown on
    demand, so a batch's inputs cross in one copy per kind."""

    def __init__(self, device, dtype):
        self.device, self.dtype, self.pinned = device, dtype, device.type == 'cuda'
        self.host = self.dev = None

    def put(self, array):
        n = len(array)
        if self.host is None or self.host.shape[0] < n:
            self.host = host_buffer((int(n * 1.5) + 1024,), self.dtype, self.pinned)
            self.dev = torch.empty_like(self.host, device=self.device)
        self.host[:n].numpy()[:] = array
        self.dev[:n].copy_(self.host[:n], non_blocking=self.pinned)
        return self.dev[:n]


class DeviceMemory:
    """memory [N, d], mail [N, mail_dim] float32 and last-update time [N] float64, on the device."""
    placement = 'device'

    def __init__(self, num_nodes, device, **_):
        self.memory = torch.zeros(num_nodes, DIM, device=device)
        self.mail = torch.zeros(num_nodes, MAIL_DIM, device=device)
        self.last = torch.zeros(num_nodes, dtype=torch.float64, device=device)
        self.counters = dict(h2d_bytes=0, d2h_bytes=0, gather_s=0.0, scatter_s=0.0)

    def reset(self):
        self.memory.zero_(); self.mail.zero_(); self.last.zero_()

    def read(self, nodes_host, nodes_dev):
        return (self.memory.index_select(0, nodes_dev), self.mail.index_select(0, nodes_dev),
                self.last.index_select(0, nodes_dev))

    def write_begin(self, new_mem, new_mail):
        self.pending = (new_mem, new_mail)

    def write_end(self, nodes_host, nodes_dev, t_host, t_dev):
        new_mem, new_mail = self.pending
        self.memory.index_copy_(0, nodes_dev, new_mem)
        self.mail.index_copy_(0, nodes_dev, new_mail)
        self.last.index_copy_(0, nodes_dev, t_dev)


class HostMemory(DeviceMemory):
    """The same tables in host memory; reads and writes cross the host-device link every batch."""

    def __init__(self, num_nodes, device, pinned, max_read, max_write):
        self.device, self.pinned = device, pinned and device.type == 'cuda'
        self.placement = 'host-pinned' if pinned else 'host-pageable'
        cpu = torch.device('cpu')
        super().__init__(num_nodes, cpu)
        self.r_mem = host_buffer((max_read, DIM), torch.float32, self.pinned)  # DistTGL's read buffer
        self.r_mail = host_buffer((max_read, MAIL_DIM), torch.float32, self.pinned)
        self.r_last = host_buffer((max_read,), torch.float64, self.pinned)
        self.w_mem = host_buffer((max_write, DIM), torch.float32, self.pinned)  # its write buffer
        self.w_mail = host_buffer((max_write, MAIL_DIM), torch.float32, self.pinned)
        cuda = device.type == 'cuda'
        self.read_copied = torch.cuda.Event() if cuda else None  # staging may be reused after it
        self.write_copied = torch.cuda.Event() if cuda else None

    def read(self, nodes_host, nodes_dev):
        n, idx = len(nodes_host), torch.from_numpy(nodes_host)
        if self.read_copied is not None:
            self.read_copied.synchronize()
        t0 = time.perf_counter()
        torch.index_select(self.memory, 0, idx, out=self.r_mem[:n])
        torch.index_select(self.mail, 0, idx, out=self.r_mail[:n])
        torch.index_select(self.last, 0, idx, out=self.r_last[:n])
        self.counters['gather_s'] += time.perf_counter() - t0
        out = tuple(buf[:n].to(self.device, non_blocking=self.pinned)
                    for buf in (self.r_mem, self.r_mail, self.r_last))
        if self.read_copied is not None:
            self.read_copied.record()
        self.counters['h2d_bytes'] += n * ((DIM + MAIL_DIM) * 4 + 8)
        return out

    def write_begin(self, new_mem, new_mail):
        w = new_mem.shape[0]
        self.w_mem[:w].copy_(new_mem, non_blocking=self.pinned)
        self.w_mail[:w].copy_(new_mail, non_blocking=self.pinned)
        if self.write_copied is not None:
            self.write_copied.record()
        self.counters['d2h_bytes'] += w * (DIM + MAIL_DIM) * 4

    def write_end(self, nodes_host, nodes_dev, t_host, t_dev):
        if self.write_copied is not None:
            self.write_copied.synchronize()
        w, idx = len(nodes_host), torch.from_numpy(nodes_host)
        t0 = time.perf_counter()
        self.memory.index_copy_(0, idx, self.w_mem[:w])
        self.mail.index_copy_(0, idx, self.w_mail[:w])
        self.last.index_copy_(0, idx, torch.from_numpy(t_host))
        self.counters['scatter_s'] += time.perf_counter() - t0


class TgnTrainer:
    """Trains TGN on consecutive full batches of the training split, starting at `start_share` of it
    and wrapping around to its start (memory reset, as at a new epoch) when it runs out."""

    def __init__(self, ev, sampler, device, batch, placement='device', dedup=False, seed=0,
                 adam='single', start_share=1 / 3, edge_features='device'):
        self.ev, self.sampler, self.device, self.b, self.dedup = ev, sampler, device, batch, dedup
        torch.manual_seed(seed)
        self.model = TgnModel(DIM, EDGE_DIM, HEADS, FANOUT).to(device)
        self.opt, self.adam = make_adam(self.model.parameters(), adam)
        self.edge_feat = torch.zeros(ev.num_events, EDGE_DIM, device=device)  # zero features
        # 'host-per-edge': DistTGL's loader (utils.py prepare_input, mfg.to): the features of every
        # sampled edge gathered on the host, one row per sample, and copied in pageable (plain only)
        self.edge_features = edge_features
        self.edge_feat_host = (torch.zeros(ev.num_events, EDGE_DIM)
                               if edge_features == 'host-per-edge' else None)
        if placement == 'device':
            self.store = DeviceMemory(ev.num_nodes, device)
        else:
            self.store = HostMemory(ev.num_nodes, device, placement == 'host-pinned',
                                    3 * batch * (FANOUT + 1), 2 * batch)
        self.rng = np.random.default_rng(seed)
        self.n_full = ev.train_end // batch
        self.next_batch, self.wraps = int(self.n_full * start_share), 0
        self.ints = InputStaging(device, torch.int64)
        self.floats = InputStaging(device, torch.float64)
        self.cuda = device.type == 'cuda'

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def prepare(self):
        """The next batch's indices, built on the host (sampling, negatives, write rows)."""
        if self.next_batch >= self.n_full:
            self.next_batch, self.wraps = 0, self.wraps + 1
            self.store.reset()
        lo = self.next_batch * self.b
        self.next_batch += 1
        neg = self.ev.neg_pool[self.rng.integers(0, len(self.ev.neg_pool), self.b)]
        return PreparedBatch(self.ev, self.sampler, lo, lo + self.b, neg, FANOUT, self.dedup)

    def upload(self, pb):
        """The batch's indices on the device (two copies), waited for."""
        ints, floats, layout = pb.pack()
        self.input_bytes = 8 * (ints.size + floats.size)
        di, df = self.ints.put(ints), self.floats.put(floats)
        dev, at = {}, {'i': 0, 'f': 0}
        for name, kind, n in layout:
            dev[name] = (di if kind == 'i' else df)[at[kind]:at[kind] + n]
            at[kind] += n
        self.sync()
        return dev

    def forward(self, pb, dev, dedup):
        """-> (loss, memory' of the roots [3B, d]) of one batch, plain or deduplicated."""
        m, r = self.model, 3 * self.b
        nbr_dt = dev['nbr_dt'].float()
        if not dedup:
            mem, mail, last = self.store.read(pb.occ, dev['occ'])  # [n, d], [n, mail], [n]
            h = m.update_plain(mem, mail, (dev['read_t'] - last).float())  # [n, d]
            kv = m.kv_plain(h[r:], self.sampled_edge_features(pb, dev), nbr_dt)  # [V, 2d]
            h_root = h[:r]
        else:
            mem_u, mail_u, last_u = self.store.read(pb.uniq, dev['uniq'])  # [U, ...]
            pair_node, inv = dev['pair_node'], dev['inv_pair']
            h_pair = m.update_dedup(mem_u, mail_u, pair_node, (dev['pair_t'] - last_u[pair_node]).float())
            kv = m.kv_dedup(h_pair, inv[r:], self.edge_feat.index_select(0, dev['uniq_eid']),
                            dev['inv_eid'], nbr_dt)  # [V, 2d]
            h_root = h_pair[inv[:r]]
        return m.loss(m.attend(h_root, kv, dev['slots']), self.b), h_root

    def sampled_edge_features(self, pb, dev):
        """[V, edge_dim] features of the sampled edges: on the device, or gathered per edge on the
        host and copied in pageable (counted in h2d_bytes)."""
        if self.edge_feat_host is None:
            return self.edge_feat.index_select(0, dev['nbr_eid'])
        t0 = time.perf_counter()
        rows = self.edge_feat_host.index_select(0, torch.from_numpy(pb.nbr_eid))
        self.store.counters['gather_s'] += time.perf_counter() - t0
        self.store.counters['h2d_bytes'] += rows.numel() * 4
        return rows.to(self.device)

    def step(self, pb, dev):
        """Forward, backward, Adam step and memory write of one batch -> loss (a device scalar)."""
        b = self.b
        self.opt.zero_grad(set_to_none=True)
        loss, h_root = self.forward(pb, dev, self.dedup)
        with torch.no_grad():  # the write's values: memory' of the true endpoints and their mails
            h_end = h_root[:2 * b].detach()  # rows: src 0..B-1, dst B..2B-1
            new_mem = h_end.index_select(0, dev['write_row'])  # [W, d]
            new_mail = torch.cat([new_mem, h_end.index_select(0, dev['partner_row']),
                                  self.edge_feat.index_select(0, dev['write_eid'])], 1)  # [W, mail]
        self.store.write_begin(new_mem, new_mail)
        loss.backward()
        self.opt.step()
        self.store.write_end(pb.write_node, dev['write_node'], pb.write_t, dev['write_t'])
        return loss.detach()

    def run(self, warmup, measure):
        """-> summary of `measure` batches after `warmup`: medians of the stage times (ms), sizes,
        bytes over the link per batch, and the loss sequence's ends."""
        rows, losses = [], []
        for i in range(warmup + measure):
            before = dict(self.store.counters)
            t0 = time.perf_counter()
            pb = self.prepare()
            t1 = time.perf_counter()
            dev = self.upload(pb)
            t2 = time.perf_counter()
            if self.cuda:
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
            losses.append(self.step(pb, dev))
            if self.cuda:
                end.record()
            self.sync()
            t3 = time.perf_counter()
            if i < warmup:
                continue
            c = {k: self.store.counters[k] - before[k] for k in before}
            rows.append(dict(sample_ms=(t1 - t0) * 1e3, sampler_ms=pb.sampler_s * 1e3,
                             upload_ms=(t2 - t1) * 1e3,
                             gpu_step_ms=start.elapsed_time(end) if self.cuda else (t3 - t2) * 1e3,
                             step_wall_ms=(t3 - t2) * 1e3, batch_ms=(t3 - t1) * 1e3,
                             wall_ms=(t3 - t0) * 1e3, host_gather_ms=c['gather_s'] * 1e3,
                             host_scatter_ms=c['scatter_s'] * 1e3, h2d_bytes=c['h2d_bytes'],
                             d2h_bytes=c['d2h_bytes'], input_bytes=self.input_bytes,
                             analytic_flops=analytic_matmul_flops(pb.sizes(), self.b, dedup=self.dedup),
                             **pb.sizes()))
        loss = torch.stack(losses).float().cpu().numpy()
        return summarise(rows, loss, dict(batch=self.b, placement=self.store.placement, dedup=self.dedup,
                                          adam=self.adam, warmup=warmup, measured=measure,
                                          wraps=self.wraps, edge_features=self.edge_features,
                                          **self.describe()))

    def describe(self):
        return {}


class RefinedTrainer(TgnTrainer):
    """DepBloom's local refinement on one GPU: a large batch of k x B events as k micro-batches of B,
    memory on the device. Each micro-batch in turn reads its rows (through the writes of the ones
    before: they are applied to the device tables at once), updates them without gradient and writes;
    then one training pass over the k x B events recomputes the update with gradient (per occurrence,
    as the plain step: the micro-batches' reads are not deduplicated across them), embeds, backward
    and Adam. What DepBloom-J's local placement runs (docs/schedules.md, "Placement"); the training
    pass is timed as one step of batch k x B, without its write."""

    def __init__(self, ev, sampler, device, micro, k, **kw):
        super().__init__(ev, sampler, device, micro * k, **kw)
        self.micro, self.k = micro, k

    def describe(self):
        return dict(micro_batch=self.micro, micro_batches=self.k)

    def prepare(self):
        large = super().prepare()
        lo = (self.next_batch - 1) * self.b
        neg = large.occ[2 * self.b:3 * self.b]  # the large batch's negatives, in event order
        parts = [PreparedBatch(self.ev, self.sampler, lo + j * self.micro, lo + (j + 1) * self.micro,
                               neg[j * self.micro:(j + 1) * self.micro], FANOUT, False)
                 for j in range(self.k)]
        return RefinedBatch(large, parts)

    def upload(self, rb):
        # each upload reuses the same staging buffers: keep a copy of every micro-batch's indices
        parts = [{k: v.clone() for k, v in super(RefinedTrainer, self).upload(p).items()}
                 for p in rb.parts]
        large = super().upload(rb.large)
        self.input_bytes = sum(8 * (a.size + f.size) for a, f, _ in (p.pack() for p in rb.all()))
        return (large, parts)

    def step(self, rb, dev):
        large_dev, part_devs = dev
        m, b = self.model, self.micro
        with torch.no_grad():
            for pb, d in zip(rb.parts, part_devs):
                mem, mail, last = self.store.read(pb.occ, d['occ'])
                h = m.update_plain(mem, mail, (d['read_t'] - last).float())
                h_end = h[:2 * b]
                new_mem = h_end.index_select(0, d['write_row'])
                new_mail = torch.cat([new_mem, h_end.index_select(0, d['partner_row']),
                                      self.edge_feat.index_select(0, d['write_eid'])], 1)
                self.store.write_begin(new_mem, new_mail)
                self.store.write_end(pb.write_node, d['write_node'], pb.write_t, d['write_t'])
        self.opt.zero_grad(set_to_none=True)
        loss, _ = self.forward(rb.large, large_dev, False)
        loss.backward()
        self.opt.step()
        return loss.detach()


class RefinedBatch:
    """A large batch's plan for the training pass and its micro-batches' plans."""

    def __init__(self, large, parts):
        self.large, self.parts = large, parts
        self.sampler_s = large.sampler_s + sum(p.sampler_s for p in parts)

    def all(self):
        return [self.large] + self.parts

    def sizes(self):
        return self.large.sizes()


def summarise(rows, loss, meta):
    """Times (keys ending _ms): median, p10, p90, mean; bytes and FLOPs: median per batch; batch
    sizes (n, V, W, ...): mean, as `<key>_mean`."""
    out = dict(meta)
    for key in rows[0]:
        values = np.array([r[key] for r in rows], dtype=np.float64)
        if key.endswith('_ms'):
            out[key] = dict(median=float(np.median(values)), p10=float(np.percentile(values, 10)),
                            p90=float(np.percentile(values, 90)), mean=float(values.mean()))
        elif key.endswith('bytes') or key.endswith('flops'):
            out[key] = float(np.median(values))
        else:
            out[key + '_mean'] = float(values.mean())
    out['loss_first'], out['loss_last'] = float(loss[0]), float(loss[-1])
    out['loss_finite'] = bool(np.isfinite(loss).all())
    out['losses'] = [round(float(x), 6) for x in loss]
    return out
