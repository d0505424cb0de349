package dev.depbloom.tensor;

import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.AllgatherOptions;
import org.bytedeco.pytorch.AllreduceOptions;
import org.bytedeco.pytorch.Backend;
import org.bytedeco.pytorch.BarrierOptions;
import org.bytedeco.pytorch.ByteVector;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.GlooDeviceVector;
import org.bytedeco.pytorch.ProcessGroupGloo;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.StringVector;
import org.bytedeco.pytorch.TCPStore;
import org.bytedeco.pytorch.TCPStoreOptions;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.Work;
import org.bytedeco.pytorch.global.torch;
import org.bytedeco.pytorch.global.torch.ScalarType;

/**
 * torch.distributed (c10d) through the binding, with the JavaCPP types kept in this package: the
 * {@code TCPStore} of a rendezvous, Gloo process groups (NCCL ones in the GPU build, {@link
 * #nccl}), collectives that wait with a timeout, and byte buffers as tensors. Every blocking call
 * takes a timeout and fails with the binding's exception when it passes; nothing here waits
 * forever.
 */
public final class C10dBackends {
  /** The class that builds NCCL process groups; compiled only by the {@code gpu} profile. */
  static final String NCCL_FACTORY = "dev.depbloom.tensor.NcclProcessGroups";

  private C10dBackends() {}

  /**
   * A client of the store at {@code host:port}, or the store itself ({@code server}, rank 0).
   * Connecting retries until {@code timeout}; every later operation times out after it too.
   * libtorch's log level follows {@code TORCH_CPP_LOG_LEVEL} (as in PyTorch, which reads it at
   * start; a JVM must ask), so c10d's warnings can be turned down.
   */
  public static TCPStore store(String host, int port, boolean server, Duration timeout) {
    torch.initLogging();
    TCPStoreOptions o = new TCPStoreOptions();
    o.port((short) port);
    o.isServer(server);
    o.waitWorkers(false);
    o.timeout(new Milliseconds(timeout.toMillis()));
    return new TCPStore(host, o);
  }

  /**
   * A Gloo process group over {@code store}, its transport bound to network interface {@code
   * networkInterface} when given (torch's {@code GLOO_SOCKET_IFNAME}), else to the address {@code
   * hostname} resolves to, else to this machine's host name. Joining waits for every rank.
   */
  public static Backend gloo(
      Store store,
      int rank,
      int worldSize,
      String networkInterface,
      String hostname,
      Duration timeout) {
    ProcessGroupGloo.Options options =
        new ProcessGroupGloo.Options(new Milliseconds(timeout.toMillis()));
    GlooDeviceVector devices = new GlooDeviceVector();
    if (networkInterface != null) {
      devices.push_back(ProcessGroupGloo.createDeviceForInterface(networkInterface));
    } else if (hostname != null) {
      devices.push_back(ProcessGroupGloo.createDeviceForHostname(hostname));
    } else {
      devices.push_back(ProcessGroupGloo.createDefaultDevice());
    }
    options.devices(devices);
    return new ProcessGroupGloo(store, rank, worldSize, options);
  }

  /**
   * An NCCL process group: only in the GPU build ({@code mvn -Pgpu package}), whose natives hold
   * NCCL; the CPU build has no such class and never loads CUDA.
   *
   * @throws UnsupportedOperationException in the CPU build
   */
  public static Backend nccl(Store store, int rank, int worldSize, Duration timeout) {
    Class<?> factory;
    try {
      factory = Class.forName(NCCL_FACTORY);
    } catch (ClassNotFoundException e) {
      throw new UnsupportedOperationException(
          "NCCL needs the GPU build (mvn -Pgpu package); this build has Gloo only");
    }
    try {
      return (Backend)
          factory
              .getMethod("create", Store.class, int.class, int.class, Duration.class)
              .invoke(null, store, rank, worldSize, timeout);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build an NCCL process group", e);
    }
  }

  /** Sums {@code t} in place over all ranks; throws when it does not complete within timeout. */
  public static void allReduce(Backend group, Tensor t, Duration timeout) {
    AllreduceOptions o = new AllreduceOptions();
    o.timeout(new Milliseconds(timeout.toMillis()));
    await(group.allreduce(new TensorVector(t), o), timeout);
  }

  /** Every rank's {@code in} (same size on all ranks) in rank order, in {@code out}. */
  public static void allGather(Backend group, Tensor out, Tensor in, Duration timeout) {
    AllgatherOptions o = new AllgatherOptions();
    o.timeout(new Milliseconds(timeout.toMillis()));
    await(group._allgather_base(out, in, o), timeout);
  }

  /** Returns once every rank has called it. */
  public static void barrier(Backend group, Duration timeout) {
    BarrierOptions o = new BarrierOptions();
    o.timeout(new Milliseconds(timeout.toMillis()));
    await(group.barrier(o), timeout);
  }

  private static void await(Work work, Duration timeout) {
    if (!work._wait(new Milliseconds(timeout.toMillis()))) {
      throw new IllegalStateException("timed out after " + timeout.toMillis() + " ms");
    }
  }

  /**
   * {@code t} on libtorch device {@code device}, for the backend's buffers: itself when it is there
   * already (a host tensor asked for {@code cpu}, say), else a copy.
   */
  public static Tensor onDevice(Tensor t, String device) {
    return device.equals("cpu") ? Tensors.host(t) : t.to(new Device(device), t.scalar_type());
  }

  /** A uint8 tensor {@code [length]} holding {@code data[0 .. length)} (zeros past the array). */
  public static Tensor bytes(byte[] data, int length) {
    Tensor t = torch.zeros(new long[] {length}, new TensorOptions(ScalarType.Byte));
    int n = Math.min(length, data.length);
    if (n > 0) {
      t.data_ptr_byte().put(data, 0, n);
    }
    return t;
  }

  /** {@code length} bytes of a uint8 tensor from {@code offset}. */
  public static byte[] toBytes(Tensor t, long offset, int length) {
    byte[] out = new byte[length];
    if (length > 0) {
      t.contiguous().data_ptr_byte().position(offset).get(out, 0, length);
    }
    return out;
  }

  /** Sets {@code key} to the UTF-8 bytes of {@code value}. */
  public static void set(Store store, String key, String value) {
    store.set(key, new ByteVector(value.getBytes(StandardCharsets.UTF_8)));
  }

  /** The value of {@code key}; blocks (up to the store's timeout) until it exists. */
  public static String get(Store store, String key) {
    return new String(store.get(key).get(), StandardCharsets.UTF_8);
  }

  /** Adds {@code delta} to the counter {@code key} (created at 0) and returns its new value. */
  public static long add(Store store, String key, long delta) {
    return store.add(key, delta);
  }

  /** Whether every key exists now (does not wait). */
  public static boolean exists(Store store, List<String> keys) {
    return store.check(new StringVector(keys.toArray(new String[0])));
  }

  /** Waits until every key exists; throws when {@code timeout} passes first. */
  public static void await(Store store, List<String> keys, Duration timeout) {
    store._wait(
        new StringVector(keys.toArray(new String[0])), new Milliseconds(timeout.toMillis()));
  }
}
