package dev.depbloom.tensor;

/**
 * How a training step uses the cores: {@code workers} Java threads each run a shard of the step
 * (forward and backward of a contiguous part of the batch's events), and every worker's tensor work
 * may use {@code intraOp} libtorch threads (element-wise ops, reductions) and {@code blas} OpenBLAS
 * threads (matrix products). libtorch's and OpenBLAS's pools are separate: {@code
 * torch.set_num_threads} does not size OpenBLAS. On two cores a TGN step measured intra-op 1 + BLAS
 * 2 at 1 worker best among single-worker splits (TENSOR-STACK.md); both pools at 2 oversubscribes
 * and halves speed; 2 workers of 1 + 1 beat all of them because half of a step is element-wise work
 * a single worker runs on one core.
 *
 * @param intraOp libtorch intra-op threads per worker
 * @param blas OpenBLAS threads per worker
 * @param workers threads that run shards of one training step in parallel
 */
public record ThreadBudget(int intraOp, int blas, int workers) {
  public ThreadBudget {
    if (intraOp < 1 || blas < 1 || workers < 1) {
      throw new IllegalArgumentException(
          "thread counts must be positive: " + intraOp + ", " + blas + ", " + workers);
    }
  }

  /** One worker with the given pools. */
  public ThreadBudget(int intraOp, int blas) {
    this(intraOp, blas, 1);
  }

  /** The short form {@code INTRA,BLAS[,WORKERS]} the command line takes. */
  public String spec() {
    return intraOp + "," + blas + (workers > 1 ? "," + workers : "");
  }

  @Override
  public String toString() {
    String pools = "intra-op " + intraOp + " + BLAS " + blas;
    return workers == 1 ? pools : workers + " step workers x (" + pools + ")";
  }
}
