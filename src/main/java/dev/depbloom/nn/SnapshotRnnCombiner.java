package dev.depbloom.nn;

import java.util.List;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.RNNCellImpl;
import org.bytedeco.pytorch.Tensor;

/**
 * DySAT's combination of per-snapshot embeddings as TGL does it: a one-layer tanh {@code nn.RNN}
 * over the snapshots, oldest first, from a zero state; the output is the last hidden state. An
 * unrolled {@code RNNCell} with the same parameters computes exactly that.
 */
public final class SnapshotRnnCombiner extends Module {
  private final RNNCellImpl cell;

  public SnapshotRnnCombiner(int dim) {
    this.cell = register_module("rnn", new RNNCellImpl(dim, dim));
  }

  /** Snapshot embeddings, oldest first, each {@code [R, dim]}, to {@code [R, dim]}. */
  public Tensor forward(List<Tensor> snapshots) {
    Tensor h = snapshots.get(0).new_zeros(snapshots.get(0).size(0), snapshots.get(0).size(1));
    for (Tensor x : snapshots) {
      h = cell.forward(x, h);
    }
    return h;
  }
}
