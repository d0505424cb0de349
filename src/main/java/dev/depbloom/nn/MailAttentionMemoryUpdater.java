package dev.depbloom.nn;

import org.bytedeco.pytorch.LayerNormImpl;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.LongVector;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;

/**
 * APAN's memory updater (TGL's transformer updater): the memory attends over the node's whole
 * mailbox. {@code q = W_q memory}; {@code k, v = W_k, W_v [mail_j || timeEnc(t - mailTime_j)]};
 * scores {@code LeakyReLU_0.2(q . k)} per head, softmax over the m slots (empty slots included, as
 * in TGL), attention dropout; {@code memory' = ReLU(Dropout(W_mlp LayerNorm(agg + memory)))}.
 */
public final class MailAttentionMemoryUpdater extends MemoryUpdater {
  private final int dim;
  private final int heads;
  private final int mailDim;
  private final int mailboxSize;
  private final double dropout;
  private final double attentionDropout;
  private final TimeEncoder time; // null when dimTime == 0
  private final LinearImpl query; // dim -> dim
  private final LinearImpl keyValue; // mailDim + dimTime -> 2 dim (TGL's w_k and w_v, fused)
  private final LayerNormImpl norm;
  private final LinearImpl mlp; // dim -> dim

  public MailAttentionMemoryUpdater(
      int mailDim,
      int dim,
      int dimTime,
      int mailboxSize,
      int heads,
      double dropout,
      double attentionDropout) {
    this.dim = dim;
    this.heads = heads;
    this.mailDim = mailDim;
    this.mailboxSize = mailboxSize;
    this.dropout = dropout;
    this.attentionDropout = attentionDropout;
    this.time = dimTime > 0 ? register_module("time", new TimeEncoder(dimTime)) : null;
    this.query = register_module("w_q", new LinearImpl(dim, dim));
    this.keyValue = register_module("w_kv", new LinearImpl(mailDim + dimTime, 2L * dim));
    this.norm = register_module("norm", new LayerNormImpl(new LongVector(new long[] {dim})));
    this.mlp = register_module("mlp", new LinearImpl(dim, dim));
  }

  @Override
  protected Tensor[] perNode(MemoryReads reads) {
    Tensor q = query.forward(reads.memory()); // [D, dim]
    Tensor mailPart =
        torch.linear(
            reads.mail().view(-1, mailDim), // [D * m, mailDim]
            keyValue.weight().narrow(1, 0, mailDim),
            new TensorOptional(keyValue.bias()));
    return new Tensor[] {q, mailPart.view(-1, mailboxSize, 2L * dim)}; // [D, m, 2 dim]
  }

  @Override
  protected Tensor perRead(Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece) {
    Tensor idx = reads.readNode();
    long u = idx.size(0);
    int m = mailboxSize;
    int dh = dim / heads;
    Tensor memory = reads.memory().index_select(0, idx); // [U, dim]
    Tensor q = nodes[0].index_select(0, idx).view(u, 1, heads, dh);
    Tensor kv = nodes[1].index_select(0, idx); // [U, m, 2 dim]
    if (time != null) {
      kv =
          plusTimePart(
              kv,
              parts,
              piece,
              reads.sinceMail(), // [U, m]
              d ->
                  torch
                      .linear(
                          time.encode(d.reshape(-1)), // [r * m, dimTime]
                          keyValue.weight().narrow(1, mailDim, time.dim()),
                          new TensorOptional())
                      .view(d.size(0), m, 2L * dim));
    }
    Tensor key = kv.narrow(2, 0, dim).view(u, m, heads, dh);
    Tensor value = kv.narrow(2, dim, dim).view(u, m, heads, dh);
    Tensor score = torch.leaky_relu(q.mul(key).sum(3), new Scalar(0.2)); // [U, m, heads]
    Tensor att = Dropout.apply(score.softmax(1), attentionDropout, is_training());
    Tensor agg = att.unsqueeze(3).mul(value).sum(1).reshape(u, dim); // [U, dim]
    Tensor out = mlp.forward(norm.forward(agg.add(memory)));
    return Dropout.apply(out, dropout, is_training()).relu();
  }

  @Override
  protected long bytesPerRead() {
    return 4L * mailboxSize * 2L * dim; // the keys and values, [U, m, 2 dim] floats
  }
}
