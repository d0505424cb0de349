package dev.depbloom.cli;

import dev.depbloom.data.InputException;
import dev.depbloom.device.RankFailureException;
import dev.depbloom.step.TrainingDivergedException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code depbloom} command line. Input mistakes ({@link InputException}) print one message and
 * exit with status 2; usage errors also exit with 2 (picocli's convention); a multi-process run
 * whose other rank died or hung ({@link RankFailureException}) prints one message and exits with 1;
 * a diverged run ({@link TrainingDivergedException}) prints one message and exits with 3; bugs keep
 * their stack trace and exit with 1.
 */
@Command(
    name = "depbloom",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Dependency-aware training of temporal graph neural networks (JODIE, TGN, APAN, TGAT, DySAT)"
          + " for link prediction on continuous-time dynamic graphs.",
      ""
    },
    subcommands = {
      TrainCommand.class,
      EvaluateCommand.class,
      ServeCommand.class,
      InspectCommand.class,
      ProfileCommand.class,
      ConvertCommand.class,
      GenerateCommand.class,
      BenchCommand.class,
      LaunchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  public static final int EXIT_INPUT_ERROR = 2;

  /** Another rank of a multi-process run died or hung, or a collective timed out. */
  public static final int EXIT_RANK_FAILURE = 1;

  /** A NaN or infinite training loss or score, or a pass that ranks nothing, stopped the run. */
  public static final int EXIT_DIVERGED = 3;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    nativeMemoryLimitsOff();
    System.exit(run(args));
  }

  /**
   * Turns off JavaCPP's limits on native memory ({@code org.bytedeco.javacpp.maxBytes} and {@code
   * maxPhysicalBytes}, unless given on the command line), as the test suite runs: every tensor here
   * lives in a {@code StepScope} or is retained and released by its owner, so the limits' remedy,
   * calling the garbage collector, never frees anything, and checking them cost a reading of the
   * process's resident size on every allocation: 4% of the samples of JODIE's test pass, whose test
   * then took 3.2-3.5 s in three runs against 2.7-3.2 s in five without the checks (training
   * unchanged). Must run before the first JavaCPP class loads: it reads them once.
   */
  static void nativeMemoryLimitsOff() {
    for (String key :
        new String[] {"org.bytedeco.javacpp.maxBytes", "org.bytedeco.javacpp.maxPhysicalBytes"}) {
      if (System.getProperty(key) == null) {
        System.setProperty(key, "0");
      }
    }
  }

  /** Runs the command line and returns its exit status (tests call this). */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  /** The configured command line, with the input-error handler installed. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine cmd = ex.getCommandLine();
          cmd.getErr().println("depbloom: error: " + ex.getMessage());
          cmd.getErr()
              .println(
                  "Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
          cmd.getErr().flush();
          return EXIT_INPUT_ERROR;
        });
    cl.setExecutionExceptionHandler(
        (ex, cmd, parseResult) -> {
          if (ex instanceof InputException) {
            cmd.getErr().println("depbloom: error: " + ex.getMessage());
            cmd.getErr().flush();
            return EXIT_INPUT_ERROR;
          }
          if (ex instanceof RankFailureException) {
            cmd.getErr().println("depbloom: error: " + ex.getMessage());
            cmd.getErr().flush();
            return EXIT_RANK_FAILURE;
          }
          if (ex instanceof TrainingDivergedException) {
            cmd.getErr().println("depbloom: error: " + ex.getMessage());
            cmd.getErr().flush();
            return EXIT_DIVERGED;
          }
          throw ex;
        });
    return cl;
  }
}
