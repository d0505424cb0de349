package dev.depbloom.nn;

import dev.depbloom.tensor.Tensors;
import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.LayerNormImpl;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.LongVector;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * TGL's {@code transformer_attention} layer (TGAT's temporal attention): {@code q = W_q [h_target
 * || timeEnc(0)]}, {@code k, v = W_k, W_v [h_neighbor || edgeFeature || timeEnc(t - t_edge)]},
 * score {@code LeakyReLU_0.2(q . k)} per head without 1/sqrt(d) scaling, softmax over each target's
 * neighbors, attention dropout, {@code out = LayerNorm(ReLU(Dropout(W_out [agg || h_target])))}.
 * Parts of width 0 (no node representation, no edge features, no time) are left out, as TGL does; a
 * layer without any sampled edge returns zeros (TGL's {@code num_edges() == 0} branch).
 *
 * <p>The key/value projection is split by input part: the neighbor part runs once per row of the
 * source table and the edge part once per distinct edge, then both are gathered to the samples; the
 * time part runs per sample. One weight matrix holds all parts, initialised as TGL's single Linear.
 */
public final class TemporalAttentionLayer extends Module {
  /** Bytes of a piece's keys and values on the grid ({@link #forwardOnGrid}). */
  static final long PIECE_BYTES = 2L << 20;

  private final int nodeDim;
  private final int edgeDim;
  private final int dimOut;
  private final int heads;
  private final double dropout;
  private final double attentionDropout;
  private final TimeEncoder time; // null when dimTime == 0
  private final LinearImpl query; // nodeDim + dimTime -> dimOut, null if both are 0
  private final LinearImpl keyValue; // nodeDim + edgeDim + dimTime -> 2 dimOut
  private final LinearImpl out; // nodeDim + dimOut -> dimOut
  private final LayerNormImpl norm;

  public TemporalAttentionLayer(
      int nodeDim,
      int edgeDim,
      int dimTime,
      int heads,
      int dimOut,
      double dropout,
      double attentionDropout) {
    if (nodeDim + edgeDim + dimTime == 0) {
      throw new IllegalArgumentException(
          "attention needs node, edge or time inputs; all three have width 0");
    }
    this.nodeDim = nodeDim;
    this.edgeDim = edgeDim;
    this.dimOut = dimOut;
    this.heads = heads;
    this.dropout = dropout;
    this.attentionDropout = attentionDropout;
    this.time = dimTime > 0 ? register_module("time", new TimeEncoder(dimTime)) : null;
    this.query =
        nodeDim + dimTime > 0
            ? register_module("w_q", new LinearImpl(nodeDim + dimTime, dimOut))
            : null;
    this.keyValue =
        register_module("w_kv", new LinearImpl(nodeDim + edgeDim + dimTime, 2L * dimOut));
    this.out = register_module("w_out", new LinearImpl(nodeDim + dimOut, dimOut));
    this.norm = register_module("norm", new LayerNormImpl(new LongVector(new long[] {dimOut})));
  }

  public int dimOut() {
    return dimOut;
  }

  /** Representations of the targets: {@code [T, dimOut]}. */
  public Tensor forward(AttentionInputs in) {
    long t = in.targetCount();
    long s = in.sampleCount();
    if (s == 0) {
      return in.sinceEdge().new_zeros(t, dimOut); // on the inputs' device
    }
    if (!GradMode.is_enabled() && !is_training() && s * 8 >= t * in.fanout() * 7) {
      return forwardOnGrid(in);
    }
    int dh = dimOut / heads;
    // chunk, not narrow: its backward writes the [S, 2 dimOut] gradient once (a cat), where two
    // narrows would each fill a zero tensor of that size and add them
    Tensor[] kv = keyValue(in).chunk(2, 1).get(); // [S, 2 dimOut]
    Tensor key = kv[0];
    Tensor value = kv[1];
    Tensor q = query(in).index_select(0, in.targetIndex()); // [S, dimOut]
    Tensor score =
        torch.leaky_relu(q.mul(key).view(s, heads, dh).sum(2), new Scalar(0.2)); // [S, heads]
    Tensor padded =
        score
            .new_full(new long[] {t * in.fanout(), heads}, new Scalar(-1e30))
            .index_copy(0, in.slot(), score)
            .view(t, in.fanout(), heads);
    Tensor att = padded.softmax(1).view(t * in.fanout(), heads).index_select(0, in.slot());
    att = Dropout.apply(att, attentionDropout, is_training()); // [S, heads]
    Tensor weighted = value.view(s, heads, dh).mul(att.unsqueeze(2)).view(s, dimOut);
    Tensor agg =
        weighted.new_zeros(t, dimOut).index_add(0, in.targetIndex(), weighted); // [T, dimOut]
    Tensor joined = nodeDim > 0 ? torch.cat(new TensorVector(agg, in.targets()), 1) : agg;
    Tensor h = Dropout.apply(out.forward(joined), dropout, is_training()).relu();
    return norm.forward(h);
  }

  /**
   * The same representations computed on the padded {@code [T, K]} grid (without gradient, when at
   * least 7/8 of the grid holds samples): keys and values for every slot (an empty slot's row is
   * that of source row 0 at time delta 0, never used), so each target's query broadcasts over its
   * row of the grid instead of being gathered to every sample, and the aggregate is a sum over the
   * grid's rows instead of an {@code index_add}. Slot by slot the same products, the same softmax
   * (empty slots at -1e30, then weight 0) and the same additions in the same order.
   *
   * <p>The grid is walked in pieces of targets whose keys and values take at most {@link
   * #PIECE_BYTES}, each piece's intermediates freed before the next: a test slice's grid is 40 MB
   * of keys and values, and whole-grid passes went to main memory where a piece's stay in cache
   * (TGN's evaluate 28.3 s -> 25.1 s). Only the stream part (kept for a second pass) and the
   * gathered rows are read whole.
   */
  private Tensor forwardOnGrid(AttentionInputs in) {
    long t = in.targetCount();
    int k = in.fanout();
    int dh = dimOut / heads;
    long slots = t * k;
    Tensor slot = in.slot();
    Tensor since = in.sinceEdge();
    AttentionInputs grid = spreadOnGrid(in);
    Tensor w = keyValue.weight();
    Tensor stream = streamOf(grid, w); // [T K, 2 dimOut] or null
    Tensor wn = nodeDim > 0 ? w.narrow(1, 0, nodeDim) : null;
    TensorOptional nodeBias =
        stream == null ? new TensorOptional(bias()) : new TensorOptional(); // else in the stream
    // a table with fewer rows than the grid is projected once, then its rows gathered per piece
    Tensor projectedTable =
        nodeDim > 0 && in.sources().size(0) <= slots
            ? torch.linear(in.sources(), wn, nodeBias)
            : null;
    Tensor q = query(in).view(t, 1, heads, dh);
    // 1 where a slot holds a sample
    Tensor filled =
        since.new_zeros(slots).index_copy_(0, slot, since.new_ones(since.size(0))).view(t, k, 1);
    Tensor agg = since.new_empty(t, dimOut);
    long piece = Math.max(1, PIECE_BYTES / (4L * k * 2 * dimOut)); // targets
    Tensors.fillInPieces(
        agg,
        t,
        piece,
        (index, from, n, into) -> {
          Tensor kvRows = stream == null ? null : stream.narrow(0, from * k, n * k);
          if (nodeDim > 0) {
            Tensor rows = grid.sourceIndex().narrow(0, from * k, n * k);
            Tensor node =
                projectedTable != null
                    ? projectedTable.index_select(0, rows)
                    : torch.linear(in.sources().index_select(0, rows), wn, nodeBias);
            kvRows = kvRows == null ? node : node.add_(kvRows); // [n K, 2 dimOut]
          }
          Tensor[] kv = kvRows.chunk(2, 1).get();
          Tensor score =
              torch.leaky_relu(
                  kv[0].view(n, k, heads, dh).mul(q.narrow(0, from, n)).sum(3),
                  new Scalar(0.2)); // [n, K, h]
          Tensor f = filled.narrow(0, from, n);
          Tensor att = score.masked_fill_(f.eq(new Scalar(0)), new Scalar(-1e30)).softmax(1);
          att.mul_(f); // a target without samples aggregates nothing
          into.copy_(kv[1].view(n, k, heads, dh).mul(att.unsqueeze(3)).sum(1).view(n, dimOut));
        });
    Tensor joined = nodeDim > 0 ? torch.cat(new TensorVector(agg, in.targets()), 1) : agg;
    return norm.forward(out.forward(joined).relu());
  }

  /**
   * The inputs spread on the {@code [T, K]} grid: source and edge indices and time deltas per slot
   * (0 in an empty slot), without slot and target index.
   */
  private static AttentionInputs spreadOnGrid(AttentionInputs in) {
    long t = in.targetCount();
    int k = in.fanout();
    long slots = t * k;
    Tensor slot = in.slot();
    Tensor since = in.sinceEdge();
    return new AttentionInputs(
        in.targets(),
        in.sources(),
        in.sourceIndex() == null
            ? null
            : slot.new_zeros(slots).index_copy_(0, slot, in.sourceIndex()),
        in.edgeFeatures(),
        in.edgeIndex() == null ? null : slot.new_zeros(slots).index_copy_(0, slot, in.edgeIndex()),
        since.new_zeros(slots).index_copy_(0, slot, since),
        null,
        null,
        t,
        k,
        in.streamParts());
  }

  private Tensor query(AttentionInputs in) {
    long t = in.targetCount();
    if (query == null) {
      return in.sinceEdge().new_ones(new long[] {t, dimOut});
    }
    Tensor w = query.weight();
    TensorOptional bias = new TensorOptional(query.bias());
    if (time == null) {
      return torch.linear(in.targets(), w, bias);
    }
    Tensor zeroTime = time.encode(in.sinceEdge().new_zeros(1)); // [1, dimTime], for every target
    Tensor constant = torch.linear(zeroTime, w.narrow(1, nodeDim, time.dim()), bias); // [1, dimOut]
    if (nodeDim == 0) {
      return constant.expand(t, dimOut);
    }
    return torch.linear(in.targets(), w.narrow(1, 0, nodeDim), new TensorOptional()).add(constant);
  }

  /**
   * {@code [S, 2 dimOut]}: the stream part (bias, edge and time projections, which depend only on
   * the sampled neighborhood; kept in {@link AttentionInputs#streamParts} when given) plus the
   * neighbor part. The bias is added to the first (small) table projection before its gather, later
   * parts accumulate in place, and the per-sample time part is one {@code addmm}, so the {@code [S,
   * 2 dimOut]} tensor is written as few times as possible (these passes, not the products, bound
   * the layer when S is large).
   */
  private Tensor keyValue(AttentionInputs in) {
    Tensor w = keyValue.weight();
    Tensor stream = streamOf(in, w);
    if (nodeDim == 0) {
      return stream;
    }
    Tensor node =
        projectGathered(
            in.sources(),
            in.sourceIndex(),
            w.narrow(1, 0, nodeDim),
            stream == null ? bias() : null);
    // the node part is a fresh tensor: adding in place leaves a kept stream part untouched
    return stream == null ? node : node.add_(stream);
  }

  /**
   * The bias plus the edge and time projections of the samples, kept in (or taken from) the inputs'
   * stream parts when they are given; null without edge and time inputs.
   */
  private Tensor streamOf(AttentionInputs in, Tensor w) {
    if (edgeDim + (time != null ? time.dim() : 0) == 0) {
      return null;
    }
    return in.streamParts() != null
        ? in.streamParts().computeIfAbsent(this, () -> streamPart(in, w))
        : streamPart(in, w);
  }

  /** The bias plus the edge and time projections of the samples, {@code [S, 2 dimOut]}. */
  private Tensor streamPart(AttentionInputs in, Tensor w) {
    Tensor bias = bias();
    Tensor part = null;
    if (edgeDim > 0) {
      part =
          projectGathered(in.edgeFeatures(), in.edgeIndex(), w.narrow(1, nodeDim, edgeDim), bias);
    }
    if (time != null) {
      Tensor te = time.encode(in.sinceEdge()); // [S, dimTime]
      Tensor wt = w.narrow(1, nodeDim + edgeDim, time.dim());
      part =
          part == null
              ? torch.linear(te, wt, new TensorOptional(bias))
              : torch.addmm(part, te, wt.t());
    }
    return part;
  }

  private Tensor bias() {
    return keyValue.bias();
  }

  /**
   * {@code (table W^T + bias)[index]}, projecting before or after the gather, whichever is fewer
   * rows; {@code bias} may be null.
   */
  private static Tensor projectGathered(Tensor table, Tensor index, Tensor w, Tensor bias) {
    TensorOptional b = bias == null ? new TensorOptional() : new TensorOptional(bias);
    if (table.size(0) <= index.size(0)) {
      return torch.linear(table, w, b).index_select(0, index);
    }
    return torch.linear(table.index_select(0, index), w, b);
  }
}
