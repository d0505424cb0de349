package dev.depbloom.tensor;

/**
 * How many threads libtorch's intra-op pool and OpenBLAS's pool may use. They are separate pools:
 * {@code torch.set_num_threads} does not size OpenBLAS. On two cores the best measured split for a
 * TGN step was intra-op 1 + BLAS 2 (TENSOR-STACK.md); both at 2 oversubscribes and halves speed.
 *
 * @param intraOp libtorch intra-op threads (element-wise ops, reductions)
 * @param blas OpenBLAS threads (matrix products)
 */
public record ThreadBudget(int intraOp, int blas) {
  public ThreadBudget {
    if (intraOp < 1 || blas < 1) {
      throw new IllegalArgumentException(
          "thread counts must be positive: " + intraOp + ", " + blas);
    }
  }

  @Override
  public String toString() {
    return "intra-op " + intraOp + " + BLAS " + blas;
  }
}
