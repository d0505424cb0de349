package dev.depbloom.cli;

import dev.depbloom.data.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code depbloom launch}: starts this machine's ranks of a multi-process run as JVMs of the same
 * Java and class path, with torchrun's environment variables set, prefixes every line they print
 * with their rank, and returns the first non-zero exit status.
 */
@Command(
    name = "launch",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a command as several processes joined by torch.distributed (Gloo on the CPU, NCCL in"
          + " the GPU build): --nproc ranks on this machine, each a JVM with MASTER_ADDR,"
          + " MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, NNODES and NODE_RANK"
          + " set, as torchrun sets them. Every line a rank prints is prefixed with [rank R];"
          + " rank 0 alone writes the run folder. The exit status is the first non-zero status"
          + " of a rank; after one fails, the others get --grace seconds to stop before they"
          + " are killed.",
      "",
      "Across machines, start it on every machine with the same --nnodes, --master (rank 0's"
          + " machine, reachable from all) and its own --node-rank.",
      "",
      "  depbloom launch --nproc 2 -- train --schedule disttgl --devices 2",
      "  depbloom launch --nproc 2 --nnodes 2 --node-rank 0 --master 10.0.0.1:29500 -- train ...",
      ""
    })
final class LaunchCommand implements Callable<Integer> {
  @Option(
      names = "--nproc",
      paramLabel = "N",
      required = true,
      description = "Ranks to start on this machine.")
  int nproc;

  @Option(
      names = "--nnodes",
      paramLabel = "M",
      defaultValue = "1",
      description = "Machines in the run, each starting --nproc ranks (default 1).")
  int nnodes;

  @Option(
      names = "--node-rank",
      paramLabel = "R",
      defaultValue = "0",
      description = "This machine among them, 0 .. M-1; machine 0 runs rank 0 (default 0).")
  int nodeRank;

  @Option(
      names = "--master",
      paramLabel = "ADDR:PORT",
      description =
          "Where rank 0 serves the rendezvous store; needed with --nnodes > 1 (default on one"
              + " machine: 127.0.0.1 and a free port).")
  String master;

  @Option(
      names = "--grace",
      paramLabel = "SECONDS",
      defaultValue = "90",
      description =
          "After a rank fails, how long the others may take to stop on their own, naming it,"
              + " before they are killed (default 90).")
  long grace;

  @Parameters(
      paramLabel = "-- COMMAND",
      arity = "1..*",
      description = "The command every rank runs, after --, e.g. -- train --devices 2 ...")
  List<String> command;

  @Override
  public Integer call() throws Exception {
    check();
    String[] hostPort = masterAddress();
    int worldSize = nproc * nnodes;
    PrintStream err = System.err;
    err.printf(
        "depbloom launch: ranks %d..%d of %d on this machine (node %d of %d), master %s:%s%n",
        nodeRank * nproc,
        nodeRank * nproc + nproc - 1,
        worldSize,
        nodeRank,
        nnodes,
        hostPort[0],
        hostPort[1]);
    List<Process> ranks = new ArrayList<>();
    List<Thread> pumps = new ArrayList<>();
    Thread cleanup = new Thread(() -> stopAll(ranks, 5));
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      for (int local = 0; local < nproc; local++) {
        int rank = nodeRank * nproc + local;
        Process p = start(rank, local, worldSize, hostPort);
        ranks.add(p);
        err.printf("depbloom launch: rank %d: pid %d%n", rank, p.pid());
        pumps.add(pump(p.getInputStream(), System.out, rank));
        pumps.add(pump(p.getErrorStream(), System.err, rank));
      }
      int status = awaitAll(ranks, err);
      for (Thread t : pumps) {
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
      return status;
    } finally {
      stopAll(ranks, 5);
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs
      }
    }
  }

  private void check() {
    if (nproc < 1) {
      throw new InputException("--nproc " + nproc + ": expected a positive number of ranks");
    }
    if (nnodes < 1) {
      throw new InputException("--nnodes " + nnodes + ": expected a positive number of machines");
    }
    if (nodeRank < 0 || nodeRank >= nnodes) {
      throw new InputException(
          "--node-rank "
              + nodeRank
              + ": expected 0 .. "
              + (nnodes - 1)
              + " (--nnodes "
              + nnodes
              + ")");
    }
    if (nnodes > 1 && master == null) {
      throw new InputException(
          "--master ADDR:PORT is needed with --nnodes "
              + nnodes
              + ": rank 0's machine, reachable from every machine");
    }
    if (grace < 1) {
      throw new InputException("--grace " + grace + ": expected a positive number of seconds");
    }
    if (!command.get(0).equals("train")) {
      throw new InputException(
          "launch runs `train` (got `"
              + command.get(0)
              + "`): e.g. depbloom launch --nproc 2 -- train --devices 2");
    }
  }

  /** {@code [host, port]} of rank 0's store. */
  private String[] masterAddress() throws IOException {
    if (master == null) {
      try (ServerSocket s = new ServerSocket(0)) {
        return new String[] {"127.0.0.1", String.valueOf(s.getLocalPort())};
      }
    }
    int colon = master.lastIndexOf(':');
    if (colon <= 0 || colon == master.length() - 1) {
      throw new InputException("--master " + master + ": expected ADDR:PORT, e.g. 10.0.0.1:29500");
    }
    String port = master.substring(colon + 1);
    try {
      int p = Integer.parseInt(port);
      if (p < 1 || p > 65535) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new InputException("--master " + master + ": expected a TCP port 1 .. 65535");
    }
    return new String[] {master.substring(0, colon), port};
  }

  /** One rank: a JVM like this one (Java, options, class path) running {@code command}. */
  private Process start(int rank, int localRank, int worldSize, String[] hostPort)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !a.startsWith("-Xrunjdwp")) {
        cmd.add(a);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(command);
    ProcessBuilder b = new ProcessBuilder(cmd);
    Map<String, String> env = b.environment();
    env.put("MASTER_ADDR", hostPort[0]);
    env.put("MASTER_PORT", hostPort[1]);
    env.put("WORLD_SIZE", String.valueOf(worldSize));
    env.put("RANK", String.valueOf(rank));
    env.put("LOCAL_RANK", String.valueOf(localRank));
    env.put("LOCAL_WORLD_SIZE", String.valueOf(nproc));
    env.put("NNODES", String.valueOf(nnodes));
    env.put("NODE_RANK", String.valueOf(nodeRank));
    env.put("GROUP_RANK", String.valueOf(nodeRank));
    env.putIfAbsent("TORCH_CPP_LOG_LEVEL", "ERROR"); // c10d's retry warnings carry C++ traces
    return b.start();
  }

  /** Copies a rank's output line by line, each prefixed with its rank. */
  private static Thread pump(InputStream in, PrintStream to, int rank) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  to.println("[rank " + rank + "] " + line);
                }
                to.flush();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            "depbloom-launch-output-" + rank);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Waits for every rank; returns the first non-zero status (0 if none). After a failure the others
   * get {@link #grace} seconds to stop on their own (they name the failed rank), then are killed.
   */
  private int awaitAll(List<Process> ranks, PrintStream err) throws InterruptedException {
    BlockingQueue<Integer> exited = new LinkedBlockingQueue<>();
    for (int i = 0; i < ranks.size(); i++) {
      int local = i;
      ranks.get(i).onExit().thenRun(() -> exited.add(local));
    }
    int first = 0;
    long deadline = Long.MAX_VALUE;
    for (int done = 0; done < ranks.size(); done++) {
      Integer local =
          deadline == Long.MAX_VALUE
              ? exited.take()
              : exited.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (local == null) {
        for (int i = 0; i < ranks.size(); i++) {
          if (ranks.get(i).isAlive()) {
            err.printf(
                "depbloom launch: rank %d did not stop within %d s of the failure; killing it%n",
                nodeRank * nproc + i, grace);
          }
        }
        stopAll(ranks, 5);
        break;
      }
      int status = ranks.get(local).exitValue();
      if (status != 0) {
        err.printf(
            "depbloom launch: rank %d exited with status %d%s%n",
            nodeRank * nproc + local,
            status,
            status > 128 ? " (signal " + (status - 128) + ")" : "");
        if (first == 0) {
          first = status;
          deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(grace);
        }
      }
    }
    return first;
  }

  /** Stops every live rank: politely, then after {@code seconds} forcibly. */
  private static void stopAll(List<Process> ranks, long seconds) {
    for (Process p : List.copyOf(ranks)) {
      if (p.isAlive()) {
        p.destroy();
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    for (Process p : List.copyOf(ranks)) {
      try {
        if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          p.destroyForcibly().waitFor(seconds, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
