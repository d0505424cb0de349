package dev.depbloom.cli;

import dev.depbloom.data.InputException;
import dev.depbloom.device.C10dCollective;
import dev.depbloom.device.Collective;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.device.RankEnvironment;
import dev.depbloom.device.RankFailureException;
import dev.depbloom.train.TrainingRun;
import java.io.PrintStream;
import java.time.Duration;

/**
 * Joins a {@code train} process to the other ranks of its run when torchrun's environment says it
 * is one of several ({@link RankEnvironment}); a lone process gets the in-process collective. The
 * ranks compare their set-up — data fingerprint, seed, the epoch they resume after, the resolved
 * config — before training, and a rank that stops answering stops the others with its name.
 */
final class Rendezvous {
  private Rendezvous() {}

  /** The environment of this process ({@link RankEnvironment#SINGLE} without one). */
  static RankEnvironment environment() {
    return RankEnvironment.of(System.getenv());
  }

  /** The cores this process may use: the machine's, shared by the ranks on it. */
  static int cores(RankEnvironment env) {
    return Math.max(1, Runtime.getRuntime().availableProcessors() / env.localWorldSize());
  }

  /**
   * The collective of this process: in-process for one, else connected to the others.
   *
   * @param resumedAfter the epoch training continues after (0 for a new run)
   * @param timeout rendezvous and collective timeout
   */
  static Collective join(RankEnvironment env, TrainingRun run, int resumedAfter, Duration timeout) {
    if (!env.distributed()) {
      return new InProcessCollective();
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new InputException(
          "--collective-timeout "
              + timeout.toSeconds()
              + ": expected a positive number of seconds");
    }
    String setup =
        "data fingerprint: "
            + RunSetup.fingerprint(run.events())
            + "\nseed: "
            + run.seed()
            + "\nresumes after epoch: "
            + resumedAfter
            + "\n"
            + run.config().toYaml();
    return C10dCollective.connect(env, setup, C10dCollective.Options.of(timeout, Rendezvous::stop));
  }

  /** Another rank stopped while this one computes: say so in one line and exit at once. */
  private static void stop(String message) {
    PrintStream err = System.err;
    err.println("depbloom: error: " + message);
    err.flush();
    Runtime.getRuntime().halt(1);
  }

  /** Tells the other ranks why this one fails, unless it fails because of one of them. */
  static void reportFailure(Collective collective, RuntimeException e) {
    if (collective instanceof C10dCollective c && !(e instanceof RankFailureException)) {
      String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      c.reportFailure(m.strip().lines().findFirst().orElse(m));
    }
  }

  /** A one-line description of this process's place, for the start line. */
  static String describe(RankEnvironment env, Collective collective) {
    if (!env.distributed()) {
      return "";
    }
    String device =
        collective instanceof C10dCollective c
            ? c.device().device() + ", " + c.device().backend().name().toLowerCase()
            : "cpu";
    return String.format(
        "rank %d of %d (local rank %d, node %d of %d; %s; master %s): ",
        env.rank(),
        env.worldSize(),
        env.localRank(),
        env.nodeRank(),
        env.nodes(),
        device,
        env.master());
  }
}
