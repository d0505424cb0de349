"""TGN with the project's configuration (TGL's): GRU memory updater over a mailbox of one mail
[mem_self || mem_other || edge_feat] delivered to self, one layer of 2-head temporal attention over the
10 most recent neighbours, and the edge predictor out(relu(srcFc(h_s) + dstFc(h_d))).

Two formulations of one function:
- `plain`: the updater and the key/value projection run once per occurrence (row of the batch);
- `dedup`: mail and memory are projected once per distinct node, the updater's time part once per
  distinct (node, read time), edge features once per distinct edge (what the Java trainer does).
They agree to float rounding (gpu_check.py's dedup part checks it on the device).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class TimeEncoding(nn.Module):
    """cos(w * dt + b), w_i = 10^(-9 i / (d - 1)), b = 0, both learnable."""

    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(1, dim)
        with torch.no_grad():
            w = 10.0 ** (-9.0 * np.arange(dim) / (dim - 1))
            self.lin.weight.copy_(torch.from_numpy(w).float().view(dim, 1))
            self.lin.bias.zero_()

    def forward(self, dt):  # [n] float32 -> [n, dim]
        return torch.cos(self.lin(dt.view(-1, 1)))


class TgnModel(nn.Module):
    def __init__(self, dim=100, edge_dim=172, heads=2, fanout=10, dropout=0.2):
        super().__init__()
        self.dim, self.edge_dim, self.heads, self.fanout = dim, edge_dim, heads, fanout
        self.mail_dim = 2 * dim + edge_dim
        self.mem_time = TimeEncoding(dim)
        self.gru = nn.GRUCell(self.mail_dim + dim, dim)
        self.att_time = TimeEncoding(dim)
        self.w_q = nn.Linear(2 * dim, dim)  # [h_root || te(0)]
        self.w_kv = nn.Linear(dim + edge_dim + dim, 2 * dim)  # [h_nbr || edge_feat || te(dt)]
        self.w_out = nn.Linear(2 * dim, dim)  # [aggregate || h_root]
        self.norm = nn.LayerNorm(dim)
        self.drop, self.att_drop = nn.Dropout(dropout), nn.Dropout(dropout)
        self.src_fc, self.dst_fc, self.out_fc = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, 1)

    # ----------------------------------------------------------------------- memory updater
    def update_plain(self, mem, mail, dt):
        """mem [n, d], mail [n, mail_dim], dt [n] per occurrence -> memory' [n, d]."""
        return self.gru(torch.cat([mail, self.mem_time(dt)], 1), mem)

    def update_dedup(self, mem_u, mail_u, pair_node, dt_pair):
        """mem_u [U, d], mail_u [U, mail_dim] per distinct node; pair_node [P] -> memory' [P, d].
        The GRUCell's equations (gate order r, z, n) with its own parameters, split by input part."""
        g, m = self.gru, self.mail_dim
        gi = F.linear(mail_u, g.weight_ih[:, :m], g.bias_ih)[pair_node] \
            + F.linear(self.mem_time(dt_pair), g.weight_ih[:, m:])  # [P, 3d]
        gh = F.linear(mem_u, g.weight_hh, g.bias_hh)[pair_node]  # [P, 3d]
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = gh.chunk(3, 1)
        r, z = torch.sigmoid(i_r + h_r), torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return (1 - z) * n + z * mem_u[pair_node]

    # ---------------------------------------------------------------------------- attention
    def kv_plain(self, h_nbr, edge_feat, nbr_dt):
        """h_nbr [V, d], edge_feat [V, de], nbr_dt [V] -> keys and values [V, 2d]."""
        return self.w_kv(torch.cat([h_nbr, edge_feat, self.att_time(nbr_dt)], 1))

    def kv_dedup(self, h_pair, inv_pair_nbr, edge_feat_u, inv_eid, nbr_dt):
        """The same projection split by input part: memory' once per pair, edge features once per
        distinct edge, the time encoding per slot."""
        w, d, de = self.w_kv.weight, self.dim, self.edge_dim
        return F.linear(h_pair, w[:, :d])[inv_pair_nbr] + F.linear(edge_feat_u, w[:, d:d + de])[inv_eid] \
            + F.linear(self.att_time(nbr_dt), w[:, d + de:], self.w_kv.bias)

    def attend(self, h_root, kv, slots):
        """h_root [R, d]; kv [V, 2d] of the valid slots at flat positions slots [V] of [R, K].
        Score LeakyReLU_0.2(q.k) per head, softmax over the root's valid neighbours, attention
        dropout; out = LayerNorm(ReLU(Dropout(W_out [aggregate || h_root]))). No valid neighbour:
        aggregate 0."""
        r, d, k, heads = h_root.shape[0], self.dim, self.fanout, self.heads
        te0 = self.att_time(h_root.new_zeros(1)).expand(r, d)  # te(0) is one vector for every root
        q = self.w_q(torch.cat([h_root, te0], 1)).view(r, 1, heads, d // heads)
        kv_pad = kv.new_zeros(r * k, 2 * d).index_copy(0, slots, kv).view(r, k, 2, heads, d // heads)
        key, value = kv_pad.unbind(2)  # [R, K, H, dh]
        valid = torch.zeros(r * k, dtype=torch.bool, device=kv.device).index_fill_(0, slots, True)
        valid = valid.view(r, k, 1)
        score = F.leaky_relu((q * key).sum(-1), 0.2).masked_fill(~valid, -1e30)  # [R, K, H]
        att = self.att_drop(torch.softmax(score, 1) * valid)
        agg = (att.unsqueeze(-1) * value).sum(1).reshape(r, d)
        return self.norm(F.relu(self.drop(self.w_out(torch.cat([agg, h_root], 1)))))

    # ---------------------------------------------------------------------------- predictor
    def loss(self, emb, b):
        """emb [3B, d] = [src | dst | neg] -> BCE-with-logits of the positive and the negative edge."""
        hs, hd = self.src_fc(emb[:b]), self.dst_fc(emb[b:])
        pos = self.out_fc(F.relu(hs + hd[:b])).squeeze(1)
        neg = self.out_fc(F.relu(hs + hd[b:])).squeeze(1)
        return F.binary_cross_entropy_with_logits(pos, torch.ones_like(pos)) \
            + F.binary_cross_entropy_with_logits(neg, torch.zeros_like(neg))


def analytic_matmul_flops(sizes, b, dim=100, edge_dim=172, fanout=10, dedup=False):
    """Matrix-product FLOPs of one training step (forward x 3 for forward + backward), from the
    batch's sizes; elementwise work is left out. A cross-check for the profiler's count."""
    mail, r = 2 * dim + edge_dim, 3 * b
    n, v = sizes['n'], sizes['V']
    if dedup:
        u, p, e = sizes['U'], sizes['P'], sizes['E']
        gru = u * mail * 3 * dim + p * dim * 3 * dim + u * dim * 3 * dim
        kv = p * dim * 2 * dim + e * edge_dim * 2 * dim + v * dim * 2 * dim
    else:
        gru = n * (mail + dim) * 3 * dim + n * dim * 3 * dim
        kv = v * (dim + edge_dim + dim) * 2 * dim
    att = r * 2 * dim * dim + 2 * r * fanout * dim + r * 2 * dim * dim  # w_q, q.k and att.v, w_out
    pred = b * dim * dim + 2 * b * dim * dim + 2 * b * dim
    return 3 * 2 * (gru + kv + att + pred)
