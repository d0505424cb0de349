package dev.depbloom.device;

import dev.depbloom.data.InputException;
import java.util.Map;

/**
 * Where this process stands in a multi-process run, from torchrun's environment variables: {@code
 * MASTER_ADDR} and {@code MASTER_PORT} (the store rank 0 serves), {@code RANK} and {@code
 * WORLD_SIZE}, {@code LOCAL_RANK} and {@code LOCAL_WORLD_SIZE} (ranks on this machine), and the
 * machine's place among {@code NNODES} machines as {@code NODE_RANK} (torchrun calls it {@code
 * GROUP_RANK}). Any launcher that sets them starts a run: {@code depbloom launch}, torchrun-style
 * scripts, SLURM or Kubernetes wrappers. {@code GLOO_SOCKET_IFNAME} picks the network interface as
 * in PyTorch.
 *
 * @param masterAddress host of rank 0's store
 * @param masterPort its port
 * @param rank this process, {@code 0 <= rank < worldSize}
 * @param worldSize processes in the run
 * @param localRank this process among the ones of its machine
 * @param localWorldSize processes on this machine
 * @param nodeRank this machine among {@code nodes}
 * @param nodes machines in the run
 * @param networkInterface the interface Gloo binds to, or null (torch's choice)
 */
public record RankEnvironment(
    String masterAddress,
    int masterPort,
    int rank,
    int worldSize,
    int localRank,
    int localWorldSize,
    int nodeRank,
    int nodes,
    String networkInterface) {

  /** A single process: no store, nothing exchanged. */
  public static final RankEnvironment SINGLE =
      new RankEnvironment("127.0.0.1", 0, 0, 1, 0, 1, 0, 1, null);

  public boolean distributed() {
    return worldSize > 1;
  }

  /** Whether the master address names this machine's loopback interface. */
  public boolean loopback() {
    return masterAddress.equals("localhost") || masterAddress.startsWith("127.");
  }

  /**
   * The environment of a process; {@link #SINGLE} when {@code WORLD_SIZE} is unset or 1.
   *
   * @throws InputException naming the variable when one is malformed or contradicts another
   */
  public static RankEnvironment of(Map<String, String> env) {
    int worldSize = number(env, "WORLD_SIZE", 1);
    if (worldSize < 1) {
      throw new InputException("WORLD_SIZE=" + worldSize + ": expected a positive process count");
    }
    if (worldSize == 1) {
      return SINGLE;
    }
    int rank = required(env, "RANK");
    check(rank >= 0 && rank < worldSize, "RANK", rank, "0 <= RANK < WORLD_SIZE=" + worldSize);
    int nodes;
    int localWorldSize;
    if (env.containsKey("NNODES") || !env.containsKey("LOCAL_WORLD_SIZE")) {
      nodes = number(env, "NNODES", 1);
      check(nodes >= 1 && worldSize % nodes == 0, "NNODES", nodes, "a divisor of WORLD_SIZE");
      localWorldSize = number(env, "LOCAL_WORLD_SIZE", worldSize / nodes);
    } else {
      localWorldSize = number(env, "LOCAL_WORLD_SIZE", worldSize);
      nodes = localWorldSize >= 1 ? worldSize / localWorldSize : 0;
    }
    check(
        localWorldSize >= 1 && localWorldSize * nodes == worldSize,
        "LOCAL_WORLD_SIZE",
        localWorldSize,
        "WORLD_SIZE=" + worldSize + " / NNODES=" + nodes);
    int localRank = number(env, "LOCAL_RANK", rank % localWorldSize);
    check(
        localRank >= 0 && localRank < localWorldSize,
        "LOCAL_RANK",
        localRank,
        "0 <= LOCAL_RANK < LOCAL_WORLD_SIZE=" + localWorldSize);
    int nodeRank = number(env, "NODE_RANK", number(env, "GROUP_RANK", rank / localWorldSize));
    check(nodeRank >= 0 && nodeRank < nodes, "NODE_RANK", nodeRank, "0 <= NODE_RANK < " + nodes);
    String address = env.getOrDefault("MASTER_ADDR", "127.0.0.1").trim();
    if (address.isEmpty()) {
      throw new InputException("MASTER_ADDR is empty: expected the host of rank 0");
    }
    int port = required(env, "MASTER_PORT");
    check(port > 0 && port < 65536, "MASTER_PORT", port, "a TCP port 1 .. 65535");
    String nic = env.get("GLOO_SOCKET_IFNAME");
    return new RankEnvironment(
        address,
        port,
        rank,
        worldSize,
        localRank,
        localWorldSize,
        nodeRank,
        nodes,
        nic == null || nic.isBlank() ? null : nic.trim());
  }

  /** {@code MASTER_ADDR:MASTER_PORT}. */
  public String master() {
    return masterAddress + ":" + masterPort;
  }

  private static int required(Map<String, String> env, String name) {
    if (!env.containsKey(name)) {
      throw new InputException(
          name + " is not set: a run of WORLD_SIZE > 1 processes needs it (torchrun's variables)");
    }
    return number(env, name, 0);
  }

  private static int number(Map<String, String> env, String name, int otherwise) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return otherwise;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new InputException(name + "=" + v + ": expected an integer");
    }
  }

  private static void check(boolean ok, String name, int value, String expected) {
    if (!ok) {
      throw new InputException(name + "=" + value + ": expected " + expected);
    }
  }
}
