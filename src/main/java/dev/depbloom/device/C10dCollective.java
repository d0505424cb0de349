package dev.depbloom.device;

import dev.depbloom.data.InputException;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.ViewRows;
import dev.depbloom.tensor.C10dBackends;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.bytedeco.pytorch.Backend;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * The collective of a multi-process run over torch.distributed (c10d): Gloo on the CPU, NCCL in the
 * GPU build ({@link RankDevice} chooses), joined through torchrun's rendezvous ({@link
 * RankEnvironment}: rank 0 serves a {@code TCPStore} at {@code MASTER_ADDR:MASTER_PORT}).
 *
 * <ul>
 *   <li><b>Gradients</b>: this process's items summed in device order, then one flat all-reduce per
 *       round: every parameter's gradient (zeros where this process has none) followed by a
 *       presence count per parameter, so that a parameter no process has a gradient for stays
 *       without one (the optimizer skips it) and every rank sees the same pattern.
 *   <li><b>Memory</b>: all-gathers of variable size (sizes first, then each rank's bytes padded to
 *       the largest) of the round's writes ({@link #exchangeWrites}) or a window's final rows
 *       ({@link #exchangeRows}), encoded exactly ({@link ExchangeCodec}).
 *   <li><b>Faults</b>: every collective times out; a failure names the epoch and round ({@link
 *       #beginRound}) and the rank that stopped, found through heartbeats in the store ({@link
 *       RankWatchdog}), which also stop this process when another rank stops while no collective is
 *       waiting.
 *   <li><b>Bytes</b> sent are counted per {@link Traffic} kind as a ring algorithm sends them.
 * </ul>
 *
 * <p>Start-up ({@link #connect}) compares every rank's set-up (config, data fingerprint, seed)
 * through the store before any process group is built, so mismatched ranks fail at once.
 */
public final class C10dCollective implements Collective {
  static final String SETUP = "depbloom/setup/";

  private final RankEnvironment env;
  private final RankDevice device;
  private final Duration timeout;
  private final Duration heartbeat;
  private final Store store;
  private final Backend group;
  private final RankWatchdog watchdog;
  private final long[] sent = new long[Traffic.values().length];
  private List<long[]> shapes;
  private volatile String where = "start-up";

  /**
   * How long collectives and the rendezvous may take, how long a rank may go without a heartbeat,
   * and what happens when one does (the command line prints the message and exits).
   */
  public record Options(
      Duration timeout, Duration heartbeat, Duration stall, Consumer<String> onStall) {
    /** Heartbeats every second, a rank taken for stopped after {@code min(30 s, timeout)}. */
    public static Options of(Duration timeout, Consumer<String> onStall) {
      Duration stall =
          timeout.compareTo(Duration.ofSeconds(30)) < 0 ? timeout : Duration.ofSeconds(30);
      return new Options(timeout, Duration.ofMillis(500), stall, onStall);
    }
  }

  private C10dCollective(
      RankEnvironment env,
      RankDevice device,
      Options options,
      Store store,
      Backend group,
      Store watchdogStore) {
    this.env = env;
    this.device = device;
    this.timeout = options.timeout();
    this.heartbeat = options.heartbeat();
    this.store = store;
    this.group = group;
    this.watchdog =
        new RankWatchdog(
            watchdogStore,
            env.rank(),
            env.worldSize(),
            env.master(),
            options.heartbeat(),
            options.stall(),
            () -> where,
            options.onStall());
  }

  /**
   * Joins the run: connects to (rank 0: serves) the store, checks that every rank's {@code setup}
   * text equals rank 0's, builds the process group and starts the heartbeats.
   *
   * @throws InputException when the master cannot be reached, a rank does not join in time, or the
   *     ranks' set-ups differ (naming the first differing line)
   */
  public static C10dCollective connect(RankEnvironment env, String setup, Options options) {
    RankDevice device = RankDevice.forLocalRank(env.localRank());
    Store store = C10dRendezvous.openStore(env, options.timeout(), env.rank() == 0);
    C10dRendezvous.checkSetups(env, store, setup, options.timeout());
    Backend group;
    try {
      group =
          device.backend() == RankDevice.Backend.NCCL
              ? C10dBackends.nccl(store, env.rank(), env.worldSize(), options.timeout())
              : C10dBackends.gloo(
                  store,
                  env.rank(),
                  env.worldSize(),
                  env.networkInterface(),
                  env.loopback() ? "127.0.0.1" : null,
                  options.timeout());
    } catch (RuntimeException e) {
      throw new RankFailureException(
          "rank "
              + env.rank()
              + " could not join the "
              + device.backend().name().toLowerCase()
              + " process group of "
              + env.worldSize()
              + " ranks: "
              + firstLine(e),
          e);
    }
    Store watchdogStore = C10dRendezvous.openStore(env, options.timeout(), false);
    return new C10dCollective(env, device, options, store, group, watchdogStore);
  }

  @Override
  public int rank() {
    return env.rank();
  }

  @Override
  public int worldSize() {
    return env.worldSize();
  }

  /** The device this rank's collective buffers live on. */
  public RankDevice device() {
    return device;
  }

  @Override
  public void parameters(List<long[]> parameterShapes) {
    this.shapes = List.copyOf(parameterShapes);
  }

  @Override
  public void beginRound(int epoch, int round) {
    where = "epoch " + epoch + ", round " + round;
  }

  @Override
  public Tensor[] sum(List<Tensor[]> local, int parameterCount) {
    if (shapes == null || shapes.size() != parameterCount) {
      throw new IllegalStateException(
          "the collective needs the " + parameterCount + " parameter shapes before a sum");
    }
    Tensor[] mine = InProcessCollective.sumInOrder(local, parameterCount);
    // the flat buffer is built where the gradients are (the replica's device): zeros and the
    // presence flags are made beside them
    Tensor where = null;
    for (Tensor g : mine) {
      if (g != null) {
        where = g;
        break;
      }
    }
    List<Tensor> parts = new ArrayList<>(parameterCount + 1);
    float[] present = new float[parameterCount];
    long[] sizes = new long[parameterCount];
    for (int p = 0; p < parameterCount; p++) {
      sizes[p] = numel(shapes.get(p));
      if (mine[p] != null) {
        present[p] = 1;
        parts.add(mine[p].detach().to(torch.ScalarType.Float).reshape(-1));
      } else {
        parts.add(beside(where, torch.zeros(sizes[p])));
      }
    }
    parts.add(beside(where, Tensors.floats(present, parameterCount)));
    Tensor flat = torch.cat(new TensorVector(parts.toArray(new Tensor[0])), 0);
    Tensor summed = allReduce("the all-reduce of gradients", flat, Traffic.GRADIENTS);
    float[] counts =
        Tensors.toFloats(summed.narrow(0, summed.size(0) - parameterCount, parameterCount));
    Tensor[] out = new Tensor[parameterCount];
    long offset = 0;
    for (int p = 0; p < parameterCount; p++) {
      if (counts[p] > 0) {
        // a copy, not a view of the buffer: the optimizer detaches gradients in place
        out[p] = summed.narrow(0, offset, sizes[p]).view(shapes.get(p)).clone();
      }
      offset += sizes[p];
    }
    return out;
  }

  /**
   * Host tensor {@code t} on the device of {@code where} (itself when that is the host or null).
   */
  private static Tensor beside(Tensor where, Tensor t) {
    return where == null || where.is_cpu() ? t : t.to(where.device(), t.scalar_type());
  }

  @Override
  public double sum(double local) {
    try (StepScope scope = new StepScope()) {
      Tensor t = Tensors.doubles(new double[] {local});
      return Tensors.toDoubles(allReduce("the all-reduce of the loss", t, Traffic.LOSS))[0];
    }
  }

  /**
   * Sums {@code t} over the ranks on the backend's device; the result is where {@code t} was (a
   * replica on a GPU gets its summed gradients there).
   */
  private Tensor allReduce(String what, Tensor t, Traffic kind) {
    Tensor onDevice = C10dBackends.onDevice(t, device.device());
    run(what, () -> C10dBackends.allReduce(group, onDevice, timeout));
    long bytes = t.numel() * t.element_size();
    sent[kind.ordinal()] += 2 * (env.worldSize() - 1) * bytes / env.worldSize();
    return t.is_cpu() ? C10dBackends.onDevice(onDevice, "cpu") : onDevice;
  }

  @Override
  public List<DeviceWrite> exchangeWrites(List<DeviceWrite> local) {
    List<byte[]> all = gather("the exchange of memory writes", ExchangeCodec.encodeWrites(local));
    List<DeviceWrite> out = new ArrayList<>(local);
    try (StepScope scope = new StepScope()) {
      for (int r = 0; r < all.size(); r++) {
        if (r != env.rank()) {
          out.addAll(ExchangeCodec.decodeWrites(all.get(r)));
        }
      }
    }
    out.sort(Comparator.comparingInt(DeviceWrite::device));
    return out;
  }

  @Override
  public List<ViewRows> exchangeRows(List<ViewRows> local) {
    List<byte[]> all =
        gather("the exchange of window-end memory rows", ExchangeCodec.encodeRows(local));
    List<ViewRows> out = new ArrayList<>();
    try (StepScope scope = new StepScope()) {
      for (int r = 0; r < all.size(); r++) {
        if (r == env.rank()) {
          out.addAll(local);
        } else {
          out.addAll(ExchangeCodec.decodeRows(all.get(r)));
        }
      }
    }
    return out;
  }

  @Override
  public long[] allGather(long[] local) {
    return allGather("an all-gather of " + local.length + " numbers", local, Traffic.CONTROL);
  }

  private long[] allGather(String what, long[] local, Traffic kind) {
    try (StepScope scope = new StepScope()) {
      Tensor in = C10dBackends.onDevice(Tensors.longs(local), device.device());
      Tensor out =
          C10dBackends.onDevice(
              Tensors.longs(new long[local.length * env.worldSize()]), device.device());
      run(what, () -> C10dBackends.allGather(group, out, in, timeout));
      sent[kind.ordinal()] += 8L * local.length * (env.worldSize() - 1);
      return Tensors.toLongs(C10dBackends.onDevice(out, "cpu"));
    }
  }

  /** Every rank's bytes in rank order: the sizes first, then the bytes padded to the largest. */
  private List<byte[]> gather(String what, byte[] mine) {
    long[] sizes = allGather(what + " (sizes)", new long[] {mine.length}, Traffic.CONTROL);
    long max = 0;
    for (long s : sizes) {
      max = Math.max(max, s);
    }
    List<byte[]> out = new ArrayList<>(sizes.length);
    if (max == 0) {
      for (int r = 0; r < sizes.length; r++) {
        out.add(new byte[0]);
      }
      return out;
    }
    int width = (int) max;
    try (StepScope scope = new StepScope()) {
      Tensor in = C10dBackends.onDevice(C10dBackends.bytes(mine, width), device.device());
      Tensor all =
          C10dBackends.onDevice(
              C10dBackends.bytes(new byte[0], width * env.worldSize()), device.device());
      run(what, () -> C10dBackends.allGather(group, all, in, timeout));
      sent[Traffic.MEMORY.ordinal()] += (long) width * (env.worldSize() - 1);
      Tensor onCpu = C10dBackends.onDevice(all, "cpu");
      for (int r = 0; r < sizes.length; r++) {
        out.add(C10dBackends.toBytes(onCpu, (long) r * width, (int) sizes[r]));
      }
    }
    return out;
  }

  @Override
  public long bytesSent(Traffic kind) {
    return sent[kind.ordinal()];
  }

  @Override
  public void finish() {
    run(
        "the end-of-training barrier",
        () -> {
          watchdog.markDone(store);
          C10dBackends.barrier(group, timeout);
        });
    watchdog.close();
  }

  /** Tells the other ranks why this one fails, so that they name the cause (best effort). */
  public void reportFailure(String message) {
    watchdog.markFailed(store, message);
  }

  /** Runs a collective; a failure is reported naming where this rank was and who stopped. */
  private void run(String what, Runnable collective) {
    try {
      collective.run();
    } catch (RuntimeException e) {
      String who = watchdog.explain(heartbeat.multipliedBy(6));
      String message =
          where + ": " + what + " failed on rank " + env.rank() + " (" + firstLine(e) + "); " + who;
      watchdog.markFailed(store, message);
      throw new RankFailureException(message, e);
    }
  }

  @Override
  public void close() {
    watchdog.close();
  }

  private static long numel(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return n;
  }

  /** The first line of an exception's message, without the binding's source paths. */
  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    m = m.strip().lines().findFirst().orElse(m);
    return m.replaceAll("\\[[^\\]]*/[^\\]]*\\.(cc|cpp|h|hpp):\\d+\\] ", "");
  }
}
