package dev.depbloom.device;

import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.ViewRows;
import dev.depbloom.tensor.Tensors;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.Tensor;

/**
 * The bytes of what processes exchange about memory, exact to the bit: a round's device writes
 * ({@link DeviceWrite}) and a view's final rows ({@link ViewRows}). Node ids and event indices as
 * int32, times as float64, write stamps as int64, rows as float32, little-endian. Decoded values
 * own new tensors in the caller's scope (retained by the value until it is closed).
 */
final class ExchangeCodec {
  private ExchangeCodec() {}

  static byte[] encodeWrites(List<DeviceWrite> writes) {
    List<float[]> memory = new ArrayList<>();
    List<float[]> mail = new ArrayList<>();
    long size = 4;
    for (DeviceWrite d : writes) {
      MemoryWrite w = d.write();
      memory.add(Tensors.toFloats(w.memoryRows()));
      mail.add(Tensors.toFloats(w.mailRows()));
      size += 6 * 4 + 16L * (w.memoryNodes().length + w.mailNodes().length);
      size += 4L * (memory.get(memory.size() - 1).length + mail.get(mail.size() - 1).length);
    }
    ByteBuffer b = buffer(size);
    b.putInt(writes.size());
    for (int i = 0; i < writes.size(); i++) {
      DeviceWrite d = writes.get(i);
      MemoryWrite w = d.write();
      b.putInt(d.device()).putInt(d.view());
      b.putInt(w.memoryNodes().length).putInt((int) w.memoryRows().size(1));
      b.putInt(w.mailNodes().length).putInt((int) w.mailRows().size(1));
      putInts(b, w.memoryNodes());
      putDoubles(b, w.memoryTimes());
      putInts(b, w.memoryEvents());
      b.asFloatBuffer().put(memory.get(i));
      b.position(b.position() + 4 * memory.get(i).length);
      putInts(b, w.mailNodes());
      putDoubles(b, w.mailTimes());
      putInts(b, w.mailEvents());
      b.asFloatBuffer().put(mail.get(i));
      b.position(b.position() + 4 * mail.get(i).length);
    }
    return b.array();
  }

  static List<DeviceWrite> decodeWrites(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int count = b.getInt();
    List<DeviceWrite> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int device = b.getInt();
      int view = b.getInt();
      int memoryRows = b.getInt();
      int dim = b.getInt();
      int mailRows = b.getInt();
      int mailDim = b.getInt();
      int[] memoryNodes = getInts(b, memoryRows);
      double[] memoryTimes = getDoubles(b, memoryRows);
      int[] memoryEvents = getInts(b, memoryRows);
      Tensor memory = Tensors.floats(getFloats(b, memoryRows * dim), memoryRows, dim);
      int[] mailNodes = getInts(b, mailRows);
      double[] mailTimes = getDoubles(b, mailRows);
      int[] mailEvents = getInts(b, mailRows);
      Tensor mail = Tensors.floats(getFloats(b, mailRows * mailDim), mailRows, mailDim);
      out.add(
          new DeviceWrite(
              device,
              view,
              new MemoryWrite(
                  memoryNodes,
                  memoryTimes,
                  memoryEvents,
                  memory,
                  mailNodes,
                  mailTimes,
                  mailEvents,
                  mail)));
    }
    return out;
  }

  static byte[] encodeRows(List<ViewRows> rows) {
    List<float[]> memory = new ArrayList<>();
    List<float[]> mailbox = new ArrayList<>();
    long size = 4;
    for (ViewRows r : rows) {
      memory.add(Tensors.toFloats(r.memory()));
      mailbox.add(Tensors.toFloats(r.mailbox()));
      size += 5 * 4 + 32L * r.nodes().length + 8L * r.mailTimes().length;
      size += 4L * (memory.get(memory.size() - 1).length + mailbox.get(mailbox.size() - 1).length);
    }
    ByteBuffer b = buffer(size);
    b.putInt(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      ViewRows r = rows.get(i);
      b.putInt(r.view()).putInt(r.nodes().length).putInt((int) r.memory().size(1));
      b.putInt((int) r.mailbox().size(1)).putInt((int) r.mailbox().size(2));
      putInts(b, r.nodes());
      putDoubles(b, r.memoryTimes());
      putInts(b, r.nextSlots());
      putDoubles(b, r.mailTimes());
      putLongs(b, r.memoryStamps());
      putLongs(b, r.mailStamps());
      b.asFloatBuffer().put(memory.get(i));
      b.position(b.position() + 4 * memory.get(i).length);
      b.asFloatBuffer().put(mailbox.get(i));
      b.position(b.position() + 4 * mailbox.get(i).length);
    }
    return b.array();
  }

  static List<ViewRows> decodeRows(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int count = b.getInt();
    List<ViewRows> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int view = b.getInt();
      int n = b.getInt();
      int dim = b.getInt();
      int slots = b.getInt();
      int mailDim = b.getInt();
      int[] nodes = getInts(b, n);
      double[] times = getDoubles(b, n);
      int[] nextSlots = getInts(b, n);
      double[] mailTimes = getDoubles(b, n * slots);
      long[] memoryStamps = getLongs(b, n);
      long[] mailStamps = getLongs(b, n);
      Tensor memory = Tensors.floats(getFloats(b, n * dim), n, dim);
      Tensor mailbox = Tensors.floats(getFloats(b, n * slots * mailDim), n, slots, mailDim);
      out.add(
          new ViewRows(
              view, nodes, memory, times, mailbox, mailTimes, nextSlots, memoryStamps, mailStamps));
    }
    return out;
  }

  private static ByteBuffer buffer(long size) {
    if (size > Integer.MAX_VALUE - 64) {
      throw new IllegalStateException(
          "a memory exchange of " + size + " bytes exceeds one buffer (2 GiB)");
    }
    return ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static void putInts(ByteBuffer b, int[] values) {
    b.asIntBuffer().put(values);
    b.position(b.position() + 4 * values.length);
  }

  private static void putDoubles(ByteBuffer b, double[] values) {
    b.asDoubleBuffer().put(values);
    b.position(b.position() + 8 * values.length);
  }

  private static void putLongs(ByteBuffer b, long[] values) {
    b.asLongBuffer().put(values);
    b.position(b.position() + 8 * values.length);
  }

  private static long[] getLongs(ByteBuffer b, int n) {
    long[] out = new long[n];
    b.asLongBuffer().get(out);
    b.position(b.position() + 8 * n);
    return out;
  }

  private static int[] getInts(ByteBuffer b, int n) {
    int[] out = new int[n];
    b.asIntBuffer().get(out);
    b.position(b.position() + 4 * n);
    return out;
  }

  private static double[] getDoubles(ByteBuffer b, int n) {
    double[] out = new double[n];
    b.asDoubleBuffer().get(out);
    b.position(b.position() + 8 * n);
    return out;
  }

  private static float[] getFloats(ByteBuffer b, int n) {
    float[] out = new float[n];
    b.asFloatBuffer().get(out);
    b.position(b.position() + 4 * n);
    return out;
  }
}
