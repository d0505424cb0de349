package dev.depbloom.device;

import dev.depbloom.data.InputException;
import dev.depbloom.tensor.C10dBackends;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.Store;

/** How the ranks of a c10d run meet: the store at the master, and every rank's set-up checked. */
final class C10dRendezvous {
  private C10dRendezvous() {}

  /**
   * The rendezvous store at the master: rank 0 serves it ({@code server}), the others connect.
   *
   * @throws InputException naming MASTER_PORT or MASTER_ADDR when it cannot be served or reached
   */
  static Store openStore(RankEnvironment env, Duration timeout, boolean server) {
    try {
      return C10dBackends.store(env.masterAddress(), env.masterPort(), server, timeout);
    } catch (RuntimeException e) {
      if (server) {
        throw new InputException(
            "rank 0 cannot serve the rendezvous store on port "
                + env.masterPort()
                + " (MASTER_PORT): "
                + C10dCollective.firstLine(e));
      }
      throw new InputException(
          "rank "
              + env.rank()
              + " cannot reach the master "
              + env.master()
              + " within "
              + timeout.toSeconds()
              + " s (MASTER_ADDR, MASTER_PORT: is rank 0 running there?): "
              + C10dCollective.firstLine(e));
    }
  }

  /**
   * Every rank's set-up against rank 0's, through the store.
   *
   * @throws InputException naming the ranks that did not join, or the first differing line
   */
  static void checkSetups(RankEnvironment env, Store store, String setup, Duration timeout) {
    C10dBackends.set(store, C10dCollective.SETUP + env.rank(), setup);
    List<String> keys = new ArrayList<>();
    for (int r = 0; r < env.worldSize(); r++) {
      keys.add(C10dCollective.SETUP + r);
    }
    try {
      C10dBackends.await(store, keys, timeout);
    } catch (RuntimeException e) {
      List<Integer> missing = new ArrayList<>();
      for (int r = 0; r < env.worldSize(); r++) {
        if (!C10dBackends.exists(store, List.of(C10dCollective.SETUP + r))) {
          missing.add(r);
        }
      }
      throw new InputException(
          "rank(s) "
              + join(missing)
              + " did not join the run at "
              + env.master()
              + " within "
              + timeout.toSeconds()
              + " s (WORLD_SIZE="
              + env.worldSize()
              + ")");
    }
    String reference = C10dBackends.get(store, C10dCollective.SETUP + 0);
    for (int r = 1; r < env.worldSize(); r++) {
      String other = r == env.rank() ? setup : C10dBackends.get(store, C10dCollective.SETUP + r);
      String difference = SetupDifference.between(reference, other);
      if (difference != null) {
        throw new InputException(
            "rank "
                + r
                + "'s set-up differs from rank 0's: "
                + difference
                + " (every rank must get the same train arguments and data)");
      }
    }
  }

  private static String join(List<Integer> ranks) {
    StringBuilder s = new StringBuilder();
    for (int r : ranks) {
      s.append(s.length() == 0 ? "" : ", ").append(r);
    }
    return s.toString();
  }
}
