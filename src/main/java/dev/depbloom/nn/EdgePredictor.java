package dev.depbloom.nn;

import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * TGL's edge scorer {@code out(relu(srcFc(h_src) + dstFc(h_dst)))}. Embeddings are laid out {@code
 * [src (B) | dst (B) | neg_1 (B) | ... | neg_k (B)]}; negative j of event i is row {@code (2 + j) B
 * + i}.
 */
public final class EdgePredictor extends Module {
  private final LinearImpl srcFc;
  private final LinearImpl dstFc;
  private final LinearImpl outFc;

  public EdgePredictor(int dim) {
    this.srcFc = register_module("src_fc", new LinearImpl(dim, dim));
    this.dstFc = register_module("dst_fc", new LinearImpl(dim, dim));
    this.outFc = register_module("out_fc", new LinearImpl(dim, 1));
  }

  /** Logits of the positive edges {@code [B]} and of the negatives {@code [k B]}. */
  public Scores forward(Tensor h, long eventCount) {
    long b = eventCount;
    long negatives = h.size(0) / b - 2;
    // dstFc's bias joins the B source rows instead of the (1 + k) B destination rows: its product
    // is then a plain mm, without the pass that copies the bias into every output row first
    Tensor src = srcFc.forward(h.narrow(0, 0, b)).add(dstFc.bias()); // [B, dim]
    Tensor dst = torch.mm(h.narrow(0, b, b * (1 + negatives)), dstFc.weight().t()); // [(1+k)B, dim]
    Tensor pos = outFc.forward(src.add(dst.narrow(0, 0, b)).relu_()).view(-1);
    if (negatives == 0) { // pairs scored alone (serving): no negative rows to view
      return new Scores(pos, pos.narrow(0, 0, 0));
    }
    // the k negatives of an event share its source row: broadcast it rather than copy it k times;
    // without gradient in place, into the product's own rows
    Tensor negDst = dst.narrow(0, b, b * negatives).view(negatives, b, -1);
    Tensor sum = GradMode.is_enabled() ? negDst.add(src) : negDst.add_(src);
    Tensor neg = outFc.forward(sum.relu_().view(b * negatives, -1)).view(-1); // [k B]
    return new Scores(pos, neg);
  }

  /** Positive and negative logits. */
  public record Scores(Tensor positive, Tensor negative) {}
}
