package dev.depbloom.nn;

import org.bytedeco.pytorch.RNNCellImpl;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;

/**
 * JODIE's memory updater: {@code memory' = RNNCell_tanh([mail || timeEnc(delta)], memory)} with
 * {@code nn.RNNCell}'s parameters and initialisation; projections deduplicated per distinct node as
 * in {@link GruMemoryUpdater}. The delta is the time since the memory's update (TGL's), or the one
 * the mail carries ({@link MemoryUpdater#timeDeltas}). Without gradient the tanh is {@link
 * SigmoidTanh}'s.
 */
public final class RnnMemoryUpdater extends MemoryUpdater {
  private final int mailDim; // the mail's content, without a time-delta column
  private final boolean deltaInMail; // mails carry their time delta as one more column
  private final TimeEncoder time; // null when dimTime == 0
  private final RNNCellImpl cell; // input mailDim + dimTime, hidden dim, tanh

  /** An updater encoding the time since the memory's update (TGL's). */
  public RnnMemoryUpdater(int mailDim, int dim, int dimTime) {
    this(mailDim, dim, dimTime, false);
  }

  /**
   * @param mailDim width of the mail's content
   * @param deltaInMail mails carry the interval to encode as one more column
   */
  public RnnMemoryUpdater(int mailDim, int dim, int dimTime, boolean deltaInMail) {
    this.mailDim = mailDim;
    this.deltaInMail = deltaInMail;
    this.time = dimTime > 0 ? register_module("time", new TimeEncoder(dimTime)) : null;
    this.cell = register_module("rnn", new RNNCellImpl(mailDim + dimTime, dim));
  }

  /** The RNN cell holding the parameters, for tests. */
  public RNNCellImpl cell() {
    return cell;
  }

  @Override
  protected Tensor[] perNode(MemoryReads reads) {
    Tensor mail = mailContent(reads, mailDim, deltaInMail); // [D, mailDim]
    Tensor perNode =
        torch
            .linear(
                mail, cell.weight_ih().narrow(1, 0, mailDim), new TensorOptional(cell.bias_ih()))
            .add(
                torch.linear(
                    reads.memory(),
                    cell.weight_hh(),
                    new TensorOptional(cell.bias_hh()))); // [D, dim]
    return new Tensor[] {perNode};
  }

  @Override
  protected Tensor perRead(Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece) {
    return SigmoidTanh.inPlace(preActivation(nodes, reads, parts, piece)); // [U, dim]
  }

  @Override
  protected void perReadInto(
      Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece, Tensor into) {
    SigmoidTanh.into(into, preActivation(nodes, reads, parts, piece));
  }

  /** The cell's input before its tanh, {@code [U, dim]}: the node's part plus the time part. */
  private Tensor preActivation(Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece) {
    Tensor pre = nodes[0].index_select(0, reads.readNode()); // [U, dim]
    if (time != null) {
      Tensor weightIh = cell.weight_ih();
      pre =
          plusTimePart(
              pre,
              parts,
              piece,
              timeDeltas(reads, mailDim, deltaInMail),
              d ->
                  torch.linear(
                      time.encode(d),
                      weightIh.narrow(1, mailDim, time.dim()),
                      new TensorOptional()));
    }
    return pre;
  }

  @Override
  protected long bytesPerRead() {
    return 4L * cell.weight_hh().size(0); // [U, dim] floats
  }
}
