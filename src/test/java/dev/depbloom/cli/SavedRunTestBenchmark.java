package dev.depbloom.cli;

import dev.depbloom.eval.TestMetrics;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.Trainer;
import dev.depbloom.train.TrainingRun;
import java.nio.file.Path;

/**
 * Wall seconds of a saved run's test pass (both protocols), and of its stages, repeated in one JVM:
 * the first pass pays for the JIT and for fresh memory as the test at the end of a training run
 * does; the later ones show the pass's steady cost, without the run-to-run spread of separate
 * processes. Not a unit test: speed is measured here, never asserted. With the launcher's glibc
 * tunables it runs as {@code depbloom evaluate} does:
 *
 * <pre>
 * mvn -q -B -DskipTests test-compile
 * GLIBC_TUNABLES="$(sed -n 's/^tunables="\(.*\)"$/\1/p' depbloom)" java \
 *     -cp "target/classes:target/test-classes:target/lib/*" \
 *     dev.depbloom.cli.SavedRunTestBenchmark RUN_DIR [REPEATS]
 * </pre>
 */
public final class SavedRunTestBenchmark {
  private SavedRunTestBenchmark() {}

  public static void main(String[] args) {
    Main.nativeMemoryLimitsOff(); // as depbloom runs
    RunDirectory dir = RunDirectory.open(Path.of(args[0]));
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int best = dir.readState().bestEpoch();
    TrainingRun spec = RunSetup.fromDirectory(dir, null);
    try (Trainer trainer = new Trainer(spec)) {
      for (int r = 0; r < repeats; r++) {
        TestMetrics m = trainer.test(dir, best);
        System.out.printf("pass %d: %.3f s %s%n", r, m.seconds(), m.stageSeconds());
      }
    }
  }
}
