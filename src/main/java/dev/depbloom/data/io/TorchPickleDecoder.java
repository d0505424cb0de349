package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal pickle machine for the {@code data.pkl} that {@code torch.save(tensor)} writes
 * (protocol 2, plus the few protocol-4 opcodes newer Pythons emit). It knows exactly one callable,
 * {@code torch._utils._rebuild_tensor_v2} (and {@code _rebuild_parameter} around it), and nothing
 * is ever executed: other globals stay inert values that only show up in error messages.
 */
final class TorchPickleDecoder {
  /**
   * A tensor view of one storage: element {@code i} of the view is at {@code offset +
   * sum(i*stride)}.
   */
  record TensorLayout(
      String storageKey, String storageType, long offset, long[] size, long[] stride) {}

  private record Global(String module, String name) {
    @Override
    public String toString() {
      return module + "." + name;
    }
  }

  private record PersistentId(Object id) {}

  private record Reduced(Global callable) {
    @Override
    public String toString() {
      return "an object built by " + callable;
    }
  }

  private static final Object MARK = new Object();

  private final ByteBuffer in;
  private final String source;
  private final List<Object> stack = new ArrayList<>();
  private final Map<Long, Object> memo = new HashMap<>();

  private TorchPickleDecoder(byte[] pickle, String source) {
    this.in = ByteBuffer.wrap(pickle).order(ByteOrder.LITTLE_ENDIAN);
    this.source = source;
  }

  /**
   * The layout of the single tensor pickled in {@code pickle}, or an error saying what was found.
   */
  static TensorLayout decode(byte[] pickle, String source) {
    Object result;
    try {
      result = new TorchPickleDecoder(pickle, source).run();
    } catch (BufferUnderflowException | ClassCastException | IndexOutOfBoundsException e) {
      throw new DataFormatException(source, 0, "has a malformed pickle (" + e + ")");
    }
    if (result instanceof TensorLayout layout) {
      return layout;
    }
    String found = result instanceof Map ? "a dict (a state_dict?)" : String.valueOf(result);
    throw new DataFormatException(
        source, 0, "holds " + found + "; expected a single tensor saved with torch.save(tensor)");
  }

  private Object run() {
    while (in.hasRemaining()) {
      int at = in.position();
      int op = in.get() & 0xff;
      switch (op) {
        case 0x80 -> in.get(); // PROTO
        case 0x95 -> in.getLong(); // FRAME
        case '.' -> {
          return pop(); // STOP
        }
        case 'c' -> push(new Global(readLine(), readLine()));
        case 0x93 -> { // STACK_GLOBAL
          String name = (String) pop();
          push(new Global((String) pop(), name));
        }
        case 'q' -> memo.put((long) (in.get() & 0xff), peek());
        case 'r' -> memo.put(Integer.toUnsignedLong(in.getInt()), peek());
        case 0x94 -> memo.put((long) memo.size(), peek()); // MEMOIZE
        case 'h' -> push(memo.get((long) (in.get() & 0xff)));
        case 'j' -> push(memo.get(Integer.toUnsignedLong(in.getInt())));
        case '(' -> push(MARK);
        case ')' -> push(new Object[0]);
        case 't' -> push(popToMark().toArray());
        case 0x85 -> push(new Object[] {pop()});
        case 0x86 -> {
          Object b = pop();
          push(new Object[] {pop(), b});
        }
        case 0x87 -> {
          Object c = pop();
          Object b = pop();
          push(new Object[] {pop(), b, c});
        }
        case '}' -> push(new LinkedHashMap<Object, Object>());
        case ']' -> push(new ArrayList<Object>());
        case 's' -> setItems(List.of(pop2()));
        case 'u' -> setItems(popToMark());
        case 'a' -> appendAll(List.of(pop()));
        case 'e' -> appendAll(popToMark());
        case 'b' -> pop(); // BUILD: the state of an inert object does not matter here
        case 'Q' -> push(new PersistentId(pop()));
        case 'R' -> {
          Object args = pop();
          push(reduce(pop(), (Object[]) args));
        }
        default -> {
          if (!pushLiteral(op)) {
            throw unknownOpcode(op, at);
          }
        }
      }
    }
    throw new DataFormatException(source, 0, "ends without the pickle STOP opcode");
  }

  /**
   * Reads and pushes the value of a literal opcode (a number, a string, None, a boolean); false,
   * reading nothing, for any other opcode.
   */
  private boolean pushLiteral(int op) {
    switch (op) {
      case 'K' -> push((long) (in.get() & 0xff));
      case 'M' -> push((long) (in.getShort() & 0xffff));
      case 'J' -> push((long) in.getInt());
      case 0x8a -> push(readLong1());
      case 'G' -> push(Double.longBitsToDouble(Long.reverseBytes(in.getLong()))); // big-endian
      case 'X' -> push(readString(in.getInt()));
      case 0x8c, 'U' -> push(readString(in.get() & 0xff));
      case 'T' -> push(readString(in.getInt()));
      case 'N' -> push(null);
      case 0x88 -> push(Boolean.TRUE);
      case 0x89 -> push(Boolean.FALSE);
      default -> {
        return false;
      }
    }
    return true;
  }

  private DataFormatException unknownOpcode(int op, int at) {
    return new DataFormatException(
        source,
        0,
        String.format(
            "has pickle opcode 0x%02x at byte %d that a tensor file does not use; expected"
                + " torch.save(tensor) output",
            op, at));
  }

  private Object reduce(Object callable, Object[] args) {
    if (!(callable instanceof Global g)) {
      throw new DataFormatException(source, 0, "calls a non-global in its pickle");
    }
    String name = g.toString();
    if (name.equals("torch._utils._rebuild_tensor_v2")
        || name.equals("torch._utils._rebuild_tensor")) {
      if (!(args[0] instanceof PersistentId pid)
          || !(pid.id() instanceof Object[] ref)
          || ref.length < 3
          || !"storage".equals(ref[0])) {
        throw new DataFormatException(source, 0, "has a tensor without a storage reference");
      }
      return new TensorLayout(
          String.valueOf(ref[2]),
          String.valueOf(ref[1]),
          (Long) args[1],
          longs(args[2]),
          longs(args[3]));
    }
    if (name.equals("torch._utils._rebuild_parameter") && args.length > 0) {
      return args[0];
    }
    if (name.equals("collections.OrderedDict")) {
      return new LinkedHashMap<Object, Object>();
    }
    return new Reduced(g);
  }

  private static long[] longs(Object tuple) {
    Object[] items = (Object[]) tuple;
    long[] out = new long[items.length];
    for (int i = 0; i < items.length; i++) {
      out[i] = (Long) items[i];
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private void setItems(List<Object> keysAndValues) {
    Object target = peek();
    if (target instanceof Map) {
      for (int i = 0; i + 1 < keysAndValues.size(); i += 2) {
        ((Map<Object, Object>) target).put(keysAndValues.get(i), keysAndValues.get(i + 1));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void appendAll(List<Object> items) {
    if (peek() instanceof List) {
      ((List<Object>) peek()).addAll(items);
    }
  }

  private Object[] pop2() {
    Object value = pop();
    return new Object[] {pop(), value};
  }

  private List<Object> popToMark() {
    int mark = stack.lastIndexOf(MARK);
    if (mark < 0) {
      throw new DataFormatException(source, 0, "has a malformed pickle (no MARK)");
    }
    List<Object> items = new ArrayList<>(stack.subList(mark + 1, stack.size()));
    stack.subList(mark, stack.size()).clear();
    return items;
  }

  private void push(Object o) {
    stack.add(o);
  }

  private Object peek() {
    if (stack.isEmpty()) {
      throw new DataFormatException(source, 0, "has a malformed pickle (empty stack)");
    }
    return stack.get(stack.size() - 1);
  }

  private Object pop() {
    Object top = peek();
    stack.remove(stack.size() - 1);
    return top;
  }

  private String readLine() {
    int start = in.position();
    while (in.get() != '\n') {
      // scan to the end of the line
    }
    return new String(in.array(), start, in.position() - start - 1, StandardCharsets.UTF_8);
  }

  private String readString(int length) {
    String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
    in.position(in.position() + length);
    return s;
  }

  private long readLong1() {
    int n = in.get() & 0xff;
    long v = 0;
    for (int i = 0; i < n; i++) {
      v |= (long) (in.get() & 0xff) << (8 * i);
    }
    if (n > 0 && n < 8 && (v & (1L << (8 * n - 1))) != 0) {
      v -= 1L << (8 * n); // sign-extend
    }
    return v;
  }
}
