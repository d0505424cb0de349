package dev.depbloom.cli;

import dev.depbloom.data.InputException;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.train.ProgressReporter;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.Trainer;
import dev.depbloom.train.TrainingRun;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code depbloom evaluate DIR}: tests a saved run's best epoch again. */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Scores a saved run's best checkpoint on the test events under both protocols: on the"
          + " memory its validation left behind (continued), and after a memory reset and a replay"
          + " of the training and validation events (TGL's). Prints AP, AUC, MRR and new-node AP"
          + " of each; the same figures train printed.",
      ""
    })
final class EvaluateCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DIR", description = "Output folder of a finished training run.")
  Path dir;

  @Option(
      names = "--data",
      paramLabel = "PATH",
      description = "The run's data set, if it has moved (it must be the same events).")
  String data;

  @Option(names = "--quiet", description = "No progress output on standard error.")
  boolean quiet;

  @Mixin JsonOption output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    RunDirectory run = RunDirectory.open(dir);
    RunDirectory.ResumeState state = run.readState();
    if (state.bestEpoch() == 0) {
      throw new InputException(dir + ": the run has no completed epoch to evaluate");
    }
    TrainingRun spec = RunSetup.fromDirectory(run, data);
    TestMetrics test;
    try (Trainer trainer = new Trainer(spec)) {
      if (!quiet) {
        trainer.addListener(new ProgressReporter(System.err, 0, System.console() != null));
      }
      test = trainer.test(run, state.bestEpoch());
    }
    Map<String, Object> m = Summaries.test(test);
    m.put("bestEpoch", state.bestEpoch());
    PrintWriter out = this.spec.commandLine().getOut();
    out.print(output.json ? Summaries.json(m) + "\n" : Summaries.table(m));
    out.flush();
    return 0;
  }
}
