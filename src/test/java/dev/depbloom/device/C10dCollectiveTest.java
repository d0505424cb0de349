package dev.depbloom.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.InputException;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.memory.ViewRows;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.bytedeco.pytorch.Tensor;
import org.junit.jupiter.api.Test;

/**
 * Two ranks of a c10d collective as two threads of this JVM, joined over loopback through a real
 * TCPStore and Gloo: exact sums, exchanges, and failures that name the rank and the round.
 */
class C10dCollectiveTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static RankEnvironment env(int port, int rank, int worldSize) {
    return RankEnvironment.of(
        Map.of(
            "MASTER_ADDR", "127.0.0.1",
            "MASTER_PORT", String.valueOf(port),
            "RANK", String.valueOf(rank),
            "WORLD_SIZE", String.valueOf(worldSize)));
  }

  /** Runs {@code body} on two connected ranks at once; returns their results in rank order. */
  private static <T> List<T> onTwoRanks(
      C10dCollective.Options options, Function<C10dCollective, T> body) throws Exception {
    return onTwoRanks(options, r -> "same set-up", body);
  }

  private static <T> List<T> onTwoRanks(
      C10dCollective.Options options,
      Function<Integer, String> setup,
      Function<C10dCollective, T> body)
      throws Exception {
    int port = freePort();
    List<CompletableFuture<T>> ranks = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      int rank = r;
      ranks.add(
          CompletableFuture.supplyAsync(
              () -> {
                try (C10dCollective c =
                    C10dCollective.connect(env(port, rank, 2), setup.apply(rank), options)) {
                  return body.apply(c);
                }
              }));
    }
    List<T> out = new ArrayList<>();
    for (CompletableFuture<T> f : ranks) {
      out.add(f.get(60, TimeUnit.SECONDS));
    }
    return out;
  }

  private static C10dCollective.Options options() {
    return C10dCollective.Options.of(
        TIMEOUT,
        message -> {
          throw new AssertionError("no rank may stop: " + message);
        });
  }

  @Test
  void gradientsAreSummedOverRanksAndAParameterNoRankReachedStaysWithoutGradient()
      throws Exception {
    List<float[][]> sums =
        onTwoRanks(
            options(),
            c -> {
              c.parameters(List.of(new long[] {2}, new long[] {1, 1}, new long[] {3}));
              try (StepScope scope = new StepScope()) {
                Tensor[] item =
                    c.rank() == 0
                        ? new Tensor[] {Tensors.floats(new float[] {1, 2}, 2), null, null}
                        : new Tensor[] {
                          Tensors.floats(new float[] {3, 4}, 2),
                          Tensors.floats(new float[] {5}, 1, 1),
                          null
                        };
                Tensor[] sum = c.sum(List.of(item, item), 3);
                assertEquals(List.of(1L, 1L), List.of(sum[1].size(0), sum[1].size(1)));
                assertNull(sum[2]);
                assertEquals(8 * (2 + 1 + 3 + 3), c.bytesSent(Traffic.GRADIENTS) * 2);
                return new float[][] {Tensors.toFloats(sum[0]), Tensors.toFloats(sum[1])};
              }
            });
    for (float[][] s : sums) {
      assertArrayEquals(new float[] {8, 12}, s[0]); // (1+1) + (3+3), (2+2) + (4+4)
      assertArrayEquals(new float[] {10}, s[1]);
    }
  }

  @Test
  void theLossIsSummedInDoublePrecisionAndNumbersAreGatheredInRankOrder() throws Exception {
    List<double[]> got =
        onTwoRanks(
            options(),
            c -> {
              double loss = c.sum(c.rank() == 0 ? 0.1 : 0.2);
              long[] all = c.allGather(new long[] {10 + c.rank(), 20 + c.rank()});
              return new double[] {loss, all[0], all[1], all[2], all[3]};
            });
    for (double[] g : got) {
      assertArrayEquals(new double[] {0.1 + 0.2, 10, 20, 11, 21}, g);
    }
  }

  /** Write stamps of the rows a rank sends (arbitrary: they must arrive as sent). */
  private static final long[] STAMPS = {21, 0};

  private static final long[] MAIL_STAMPS = {23, 41};

  private static MemoryWrite write(int node, double time, float value) {
    return new MemoryWrite(
        new int[] {node},
        new double[] {time},
        new int[] {10 * node},
        Tensors.floats(new float[] {value, -value}, 1, 2),
        new int[] {node, node + 1},
        new double[] {time, time + 0.5},
        new int[] {10 * node, 10 * node + 1},
        Tensors.floats(new float[] {value, 1, 2, value, 3, 4}, 2, 3));
  }

  @Test
  void everyRankGetsEveryRanksWritesInDeviceOrderBitForBit() throws Exception {
    List<List<String>> got =
        onTwoRanks(
            options(),
            c -> {
              try (StepScope scope = new StepScope()) {
                List<DeviceWrite> mine =
                    c.rank() == 0
                        ? List.of(
                            new DeviceWrite(0, 0, write(4, 1.25, 0.1f)),
                            new DeviceWrite(2, 1, write(7, 2.5, Float.MIN_VALUE)))
                        : List.of(new DeviceWrite(1, 0, write(5, 1e-300, -0.0f)));
                List<DeviceWrite> all = c.exchangeWrites(mine);
                List<String> seen = new ArrayList<>();
                for (DeviceWrite w : all) {
                  seen.add(describe(w));
                  if (!mine.contains(w)) {
                    w.write().close();
                  }
                }
                mine.forEach(w -> w.write().close());
                assertTrue(c.bytesSent(Traffic.MEMORY) > 0);
                return seen;
              }
            });
    assertEquals(got.get(0), got.get(1));
    assertEquals(
        List.of(
            "device 0 view 0 memory [4]@[1.25] [0.1, -0.1] mail [4, 5]@[1.25, 1.75]"
                + " [0.1, 1.0, 2.0, 0.1, 3.0, 4.0]",
            "device 1 view 0 memory [5]@[1.0E-300] [-0.0, 0.0] mail [5, 6]@[1.0E-300, 0.5]"
                + " [-0.0, 1.0, 2.0, -0.0, 3.0, 4.0]",
            "device 2 view 1 memory [7]@[2.5] [1.4E-45, -1.4E-45] mail [7, 8]@[2.5, 3.0]"
                + " [1.4E-45, 1.0, 2.0, 1.4E-45, 3.0, 4.0]"),
        got.get(0));
  }

  private static String describe(DeviceWrite d) {
    MemoryWrite w = d.write();
    return "device "
        + d.device()
        + " view "
        + d.view()
        + " memory "
        + java.util.Arrays.toString(w.memoryNodes())
        + "@"
        + java.util.Arrays.toString(w.memoryTimes())
        + " "
        + java.util.Arrays.toString(Tensors.toFloats(w.memoryRows()))
        + " mail "
        + java.util.Arrays.toString(w.mailNodes())
        + "@"
        + java.util.Arrays.toString(w.mailTimes())
        + " "
        + java.util.Arrays.toString(Tensors.toFloats(w.mailRows()));
  }

  @Test
  void aViewsFinalRowsReachTheOtherRankWithTheirRingsAndTimes() throws Exception {
    List<String> got =
        onTwoRanks(
            options(),
            c -> {
              try (StepScope scope = new StepScope();
                  NodeMemory view = new NodeMemory(4, 2, 2, 3)) {
                if (c.rank() == 1) { // rank 1 ran view 1: node 2 got a write and two mails
                  try (MemoryWrite w = write(2, 3.0, 0.5f)) {
                    view.apply(w);
                  }
                  try (MemoryWrite w = write(1, 4.0, 0.25f)) {
                    view.apply(w);
                  }
                }
                List<ViewRows> mine =
                    c.rank() == 1
                        ? List.of(ViewRows.read(1, view, new int[] {1, 2}, STAMPS, MAIL_STAMPS))
                        : List.of();
                List<ViewRows> all = c.exchangeRows(mine);
                assertEquals(1, all.size());
                ViewRows rows = all.get(0);
                String s =
                    rows.view()
                        + " "
                        + java.util.Arrays.toString(rows.nodes())
                        + " "
                        + java.util.Arrays.toString(rows.memoryTimes())
                        + " "
                        + java.util.Arrays.toString(Tensors.toFloats(rows.memory()))
                        + " "
                        + java.util.Arrays.toString(rows.mailTimes())
                        + " "
                        + java.util.Arrays.toString(rows.nextSlots())
                        + " "
                        + java.util.Arrays.toString(Tensors.toFloats(rows.mailbox()))
                        + " "
                        + java.util.Arrays.toString(rows.memoryStamps())
                        + " "
                        + java.util.Arrays.toString(rows.mailStamps());
                all.forEach(ViewRows::close);
                return s;
              }
            });
    assertEquals(got.get(0), got.get(1));
    assertEquals(
        "1 [1, 2] [4.0, 3.0] [0.25, -0.25, 0.5, -0.5] [4.0, 0.0, 3.0, 4.5] [1, 0]"
            + " [0.25, 1.0, 2.0, 0.0, 0.0, 0.0, 0.5, 1.0, 2.0, 0.25, 3.0, 4.0]"
            + " [21, 0] [23, 41]",
        got.get(0));
  }

  @Test
  void aCollectiveThatDoesNotCompleteInTimeNamesTheRoundAndWhereTheOtherRankIs() throws Exception {
    C10dCollective.Options quick = C10dCollective.Options.of(Duration.ofSeconds(3), message -> {});
    List<String> got =
        onTwoRanks(
            quick,
            c -> {
              c.beginRound(2, c.rank() == 0 ? 7 : 6);
              if (c.rank() == 1) {
                sleep(8000); // rank 1 is late: it never joins round 7's loss sum
                return "";
              }
              RankFailureException e = assertThrows(RankFailureException.class, () -> c.sum(1.0));
              return e.getMessage();
            });
    String message = got.get(0);
    assertTrue(
        message.startsWith("epoch 2, round 7: the all-reduce of the loss failed on rank 0 ("),
        message);
    assertTrue(message.endsWith("rank 1: epoch 2, round 6"), message);
  }

  @Test
  void aRankWhoseHeartbeatStopsIsNamedByTheOthers() throws Exception {
    CompletableFuture<String> stopped = new CompletableFuture<>();
    C10dCollective.Options watched =
        new C10dCollective.Options(
            TIMEOUT, Duration.ofMillis(100), Duration.ofSeconds(1), stopped::complete);
    onTwoRanks(
        watched,
        c -> {
          c.beginRound(1, 3);
          if (c.rank() == 1) {
            sleep(500); // its heartbeat reports round 3, then ends without saying it is done
            c.close();
          }
          sleep(3000);
          return null;
        });
    String message = stopped.get(10, TimeUnit.SECONDS);
    assertTrue(
        message.startsWith("rank 1 stopped responding, last at epoch 1, round 3 (no heartbeat"),
        message);
  }

  @Test
  void ranksWithDifferentSetUpsFailBeforeTrainingNamingTheDifference() throws Exception {
    ExecutionException e =
        assertThrows(
            ExecutionException.class,
            () ->
                onTwoRanks(
                    options(),
                    r ->
                        "data fingerprint: 1234\nschedule:\n  name: disttgl\n  devices: " + (2 + r),
                    c -> null));
    assertTrue(e.getCause() instanceof InputException, e.toString());
    assertEquals(
        "rank 1's set-up differs from rank 0's: schedule.devices: 2 vs 3 (every rank must get"
            + " the same train arguments and data)",
        e.getCause().getMessage());
  }

  @Test
  void anUnreachableMasterFailsAfterTheTimeoutNamingIt() throws Exception {
    int port = freePort();
    long t0 = System.nanoTime();
    InputException e =
        assertThrows(
            InputException.class,
            () ->
                C10dCollective.connect(
                    env(port, 1, 2),
                    "",
                    C10dCollective.Options.of(
                        Duration.ofSeconds(2),
                        m -> {
                          throw new AssertionError(m);
                        })));
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    assertTrue(seconds < 20, "took " + seconds + " s");
    assertTrue(
        e.getMessage()
            .startsWith(
                "rank 1 cannot reach the master 127.0.0.1:"
                    + port
                    + " within 2 s (MASTER_ADDR, MASTER_PORT: is rank 0 running there?)"),
        e.getMessage());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
