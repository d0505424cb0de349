package dev.depbloom.nn;

import org.bytedeco.pytorch.GRUCellImpl;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;

/**
 * TGN's memory updater: {@code memory' = GRUCell([mail || timeEnc(delta)], memory)}, with {@code
 * nn.GRUCell}'s parameters and initialisation. The delta is the time since the memory's update
 * (TGL's), or the one the mail carries ({@link MemoryUpdater#timeDeltas}).
 *
 * <p>Computed without repeating work: the mail and memory projections run once per distinct node
 * and are gathered to the reads; only the time part is computed per read. This is the same function
 * as the concatenated GRUCell (tested against it), with fewer products when nodes are read at
 * several times. Without gradient the candidate's tanh is {@link SigmoidTanh}'s.
 */
public final class GruMemoryUpdater extends MemoryUpdater {
  private final int mailDim; // the mail's content, without a time-delta column
  private final boolean deltaInMail; // mails carry their time delta as one more column
  private final TimeEncoder time; // null when dimTime == 0
  private final GRUCellImpl cell; // input mailDim + dimTime, hidden dim

  /** An updater encoding the time since the memory's update (TGL's). */
  public GruMemoryUpdater(int mailDim, int dim, int dimTime) {
    this(mailDim, dim, dimTime, false);
  }

  /**
   * @param mailDim width of the mail's content
   * @param deltaInMail mails carry the interval to encode as one more column
   */
  public GruMemoryUpdater(int mailDim, int dim, int dimTime, boolean deltaInMail) {
    this.mailDim = mailDim;
    this.deltaInMail = deltaInMail;
    this.time = dimTime > 0 ? register_module("time", new TimeEncoder(dimTime)) : null;
    this.cell = register_module("gru", new GRUCellImpl(mailDim + dimTime, dim));
  }

  /** The GRU cell holding the parameters, for tests. */
  public GRUCellImpl cell() {
    return cell;
  }

  /** The time encoder, or null. */
  public TimeEncoder time() {
    return time;
  }

  @Override
  protected Tensor[] perNode(MemoryReads reads) {
    Tensor mail = mailContent(reads, mailDim, deltaInMail); // [D, mailDim]
    Tensor gi =
        torch.linear(
            mail, cell.weight_ih().narrow(1, 0, mailDim), new TensorOptional(cell.bias_ih()));
    Tensor gh = torch.linear(reads.memory(), cell.weight_hh(), new TensorOptional(cell.bias_hh()));
    return new Tensor[] {gi, gh}; // [D, 3 dim] each
  }

  @Override
  protected Tensor perRead(Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece) {
    Tensor[] terms = terms(nodes, reads, parts, piece);
    return terms[0].add(terms[1]); // (1 - z) * n + z * h
  }

  @Override
  protected void perReadInto(
      Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece, Tensor into) {
    Tensor[] terms = terms(nodes, reads, parts, piece);
    torch.add_out(into, terms[0], terms[1]);
  }

  /** The two terms of the new memory, {@code n} and {@code z * (h - n)}, each {@code [U, dim]}. */
  private Tensor[] terms(Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece) {
    Tensor gi = nodes[0].index_select(0, reads.readNode()); // [U, 3 dim]
    if (time != null) {
      Tensor weightIh = cell.weight_ih(); // [3 dim, mailDim + dimTime]
      gi =
          plusTimePart(
              gi,
              parts,
              piece,
              timeDeltas(reads, mailDim, deltaInMail),
              d ->
                  torch.linear(
                      time.encode(d), // [U, dimTime]
                      weightIh.narrow(1, mailDim, time.dim()),
                      new TensorOptional()));
    }
    Tensor h = reads.memory().index_select(0, reads.readNode()); // [U, dim]
    Tensor gh = nodes[1].index_select(0, reads.readNode()); // [U, 3 dim]
    Tensor[] i = gi.chunk(3, 1).get();
    Tensor[] hh = gh.chunk(3, 1).get();
    Tensor r = i[0].add(hh[0]).sigmoid();
    Tensor z = i[1].add(hh[1]).sigmoid();
    Tensor n = SigmoidTanh.inPlace(i[2].add(r.mul(hh[2])));
    return new Tensor[] {n, z.mul(h.sub(n))};
  }

  @Override
  protected long bytesPerRead() {
    return 4L * cell.weight_ih().size(0); // gi, gh: [U, 3 dim] floats
  }
}
