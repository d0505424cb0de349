package dev.depbloom.device;

import java.util.List;
import org.bytedeco.pytorch.Tensor;

/** The collective of a single process: the devices' gradients summed in device order. */
public final class InProcessCollective implements Collective {
  @Override
  public Tensor[] sum(List<Tensor[]> local, int parameterCount) {
    return sumInOrder(local, parameterCount);
  }

  /** Per parameter, the items' gradients added in list order; null where no item has one. */
  static Tensor[] sumInOrder(List<Tensor[]> local, int parameterCount) {
    Tensor[] total = new Tensor[parameterCount];
    for (Tensor[] item : local) {
      for (int p = 0; p < parameterCount; p++) {
        Tensor g = item[p];
        if (g != null) {
          total[p] = total[p] == null ? g : total[p].add(g);
        }
      }
    }
    return total;
  }
}
