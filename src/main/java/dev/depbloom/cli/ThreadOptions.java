package dev.depbloom.cli;

import picocli.CommandLine.Option;

/**
 * {@code --threads}: the tensor thread budget of commands that train ({@link
 * RunSetup#threadBudget}).
 */
final class ThreadOptions {
  @Option(
      names = "--threads",
      paramLabel = "INTRA,BLAS[,WORKERS]",
      description =
          "Tensor threads: libtorch intra-op and OpenBLAS threads per step worker, and the step"
              + " workers that train shards of each batch in parallel; e.g. 1,2 is one worker,"
              + " 1,1,2 two. Default: 1,1,N on N cores (--workers W: 1,1,W), the same on every"
              + " run, and the figures do not depend on N. INTRA or BLAS above 1 makes them"
              + " depend on those counts (the run's first line says so). auto: measured at start"
              + " (a step-shaped workload under each candidate, under a second), which may pick"
              + " another budget on a busy machine, and then other figures.")
  String spec;
}
