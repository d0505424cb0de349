package dev.depbloom.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code depbloom bench}: the benchmarks, one subcommand each. A new benchmark is a new class in
 * {@code subcommands}.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Measures the speed of one component on real data. Figures depend on the machine; the"
          + " README says where and how they were taken."
    },
    subcommands = {
      SamplerBenchCommand.class,
      TrainBenchCommand.class,
      SchedulesBenchCommand.class,
      CalibrateBenchCommand.class,
      ServeBenchCommand.class
    })
final class BenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
