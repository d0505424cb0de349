package dev.depbloom.tensor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.pytorch.ArchiveWriter;
import org.bytedeco.pytorch.IValue;
import org.bytedeco.pytorch.IValueVector;
import org.bytedeco.pytorch.LongVector;
import org.bytedeco.pytorch.RecordFunction;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * Observes every operator call of one thread through libtorch's RecordFunction callbacks ({@code
 * at::addThreadLocalCallback}), the mechanism libtorch's own profiler uses: the dispatcher calls a
 * start callback before each operator (and the autograd engine before each backward node, which on
 * the CPU runs on the thread that called backward) and an end callback after it, on the calling
 * thread, only while the thread has a callback registered; with none, the dispatcher does not build
 * a RecordFunction at all.
 *
 * <p>The binding maps {@code addThreadLocalCallback} and {@code RecordFunction} but not {@code
 * RecordFunctionCallback} (a struct of two plain function pointers and flags) nor a
 * function-pointer type of the callbacks' signatures. So the struct is written into native memory
 * field by field (layout of libtorch 2.10's {@code ATen/record_function.h}), and the callbacks are
 * JavaCPP callbacks of the binding's {@link ArchiveWriter} ({@code size_t(const void*, size_t)}),
 * whose calling convention on x86-64 matches both: the start callback returns {@code
 * std::unique_ptr<ObserverContext>} through a hidden pointer in the first argument register (it
 * writes null there and returns that pointer), the {@code RecordFunction&} comes second; the end
 * callback gets {@code (RecordFunction&, ObserverContext*)}. Input shapes and dtypes come from
 * libtorch's profiler helpers {@code inputSizes} and {@code inputTypes} (the binding's own {@code
 * RecordFunction.inputs()} trips a debug-only assertion: its JNI code was compiled without {@code
 * NDEBUG}, libtorch with it); outputs come from {@code RecordFunction.outputs()}.
 */
final class RecordFunctionObserver {
  private static final int NUM_SCOPES = 10; // at::RecordScope::NUM_SCOPES in libtorch 2.10
  private static final int CALLBACK_BYTES = 40; // sizeof(at::RecordFunctionCallback)
  private static final Map<String, Integer> DTYPE_BYTES =
      Map.ofEntries(
          Map.entry("float", 4),
          Map.entry("double", 8),
          Map.entry("long int", 8),
          Map.entry("int", 4),
          Map.entry("short int", 2),
          Map.entry("signed char", 1),
          Map.entry("unsigned char", 1),
          Map.entry("bool", 1),
          Map.entry("c10::Half", 2),
          Map.entry("c10::BFloat16", 2),
          Map.entry("c10::complex<float>", 8),
          Map.entry("c10::complex<double>", 16));

  private static final ThreadLocal<ThreadState> CURRENT = new ThreadLocal<>();
  private static final AtomicLong OTHER_THREAD_CALLS = new AtomicLong();
  // the callbacks' Java objects (JavaCPP calls into them: kept reachable, never freed) and their
  // raw C function pointers; set once, under the class's lock
  private static final Pointer[] CALLBACKS = new Pointer[2];
  private static long startFunction;
  private static long endFunction;

  private RecordFunctionObserver() {}

  /** Starts a recording on this thread, nested in the thread's current one if there is one. */
  static OpRecording start() {
    ThreadState state = CURRENT.get();
    if (state == null) {
      state = new ThreadState();
      state.handle = register();
      CURRENT.set(state);
    }
    OpRecording r = new OpRecording(state, Thread.currentThread());
    state.recordings.push(r);
    return r;
  }

  static boolean recordingOnThisThread() {
    return CURRENT.get() != null;
  }

  /** Calls observed on threads without a recording (callbacks carried to another thread). */
  static long otherThreadCalls() {
    return OTHER_THREAD_CALLS.get();
  }

  /**
   * Ends {@code r}, the innermost recording of this thread: seals its work and adds it to the outer
   * one; the outermost also unregisters the thread's callback. Throws if a call could not be
   * recorded.
   */
  static void finish(OpRecording r, ThreadState state) {
    if (state.recordings.peek() != r) {
      throw new IllegalStateException("op recordings must be closed innermost first");
    }
    r.seal();
    state.recordings.pop();
    OpRecording outer = state.recordings.peek();
    if (outer != null) {
      outer.tally().add(r.tally());
    } else {
      CURRENT.remove();
      torch.removeCallback(state.handle);
      state.view.restore();
    }
    if (state.failure != null) {
      throw new IllegalStateException("recording operators failed", state.failure);
    }
  }

  /** Registers this thread's callback: FUNCTION scope only, with inputs and outputs. */
  private static long register() {
    ensureCallbacks();
    try (PointerScope scope = new PointerScope()) {
      BytePointer cb = new BytePointer(CALLBACK_BYTES);
      cb.fill(0);
      new LongPointer(cb).put(0, startFunction).put(1, endFunction); // start_, end_
      new DoublePointer(cb).put(2, 1.0); // sampling_prob_
      cb.put(24, (byte) 1); // scopes_[RecordScope::FUNCTION]; other scopes stay off
      cb.put(24 + NUM_SCOPES, (byte) 1); // needs_inputs_
      cb.put(24 + NUM_SCOPES + 1, (byte) 1); // needs_outputs_
      return torch.addThreadLocalCallback(cb); // copies the struct
    }
  }

  private static synchronized void ensureCallbacks() {
    if (startFunction != 0) {
      return;
    }
    if (torch.RecordScope.NUM_SCOPES.value != NUM_SCOPES) {
      throw new IllegalStateException(
          "libtorch's RecordScope has "
              + torch.RecordScope.NUM_SCOPES.value
              + " scopes; the recorder knows the layout of 2.10's ("
              + NUM_SCOPES
              + ")");
    }
    // Callbacks live as long as the process: never in a caller's scope, never freed.
    try (PointerScope scope = new PointerScope()) {
      StartCallback start = new StartCallback();
      EndCallback end = new EndCallback();
      start.retainReference();
      end.retainReference();
      CALLBACKS[0] = start;
      CALLBACKS[1] = end;
      // A JavaCPP function pointer's address holds the C function pointer.
      startFunction = new LongPointer(start).get(0);
      endFunction = new LongPointer(end).get(0);
    }
  }

  /**
   * {@code std::unique_ptr<ObserverContext> start(const RecordFunction&)}, hidden return pointer.
   */
  private static final class StartCallback extends ArchiveWriter {
    @Override
    public long call(Pointer result, long recordFunction) {
      new LongPointer(result).put(0, 0L); // no ObserverContext
      ThreadState state = CURRENT.get();
      if (state == null) {
        OTHER_THREAD_CALLS.incrementAndGet();
      } else {
        state.start(recordFunction);
      }
      return result.address();
    }
  }

  /** {@code void end(const RecordFunction&, ObserverContext*)}. */
  private static final class EndCallback extends ArchiveWriter {
    @Override
    public long call(Pointer recordFunction, long context) {
      ThreadState state = CURRENT.get();
      if (state != null) {
        state.end(recordFunction.address());
      }
      return 0;
    }
  }

  /** A RecordFunction handle pointed at each call's RecordFunction in turn. */
  private static final class RecordFunctionView extends RecordFunction {
    private final long own;

    RecordFunctionView() {
      super(0L); // an empty array: the binding has no constructor that allocates nothing
      own = address;
    }

    RecordFunctionView at(long recordFunction) {
      address = recordFunction;
      return this;
    }

    void restore() {
      address = own;
      releaseReference();
    }
  }

  /** One thread's calls in flight, its kernels not yet settled, and its open recordings. */
  static final class ThreadState {
    long handle; // of the thread's callback in libtorch
    final RecordFunctionView view;
    final Deque<OpRecording> recordings = new ArrayDeque<>();
    final OpFolding folding = new OpFolding();
    Throwable failure;

    ThreadState() {
      try (PointerScope scope = new PointerScope()) {
        this.view = new RecordFunctionView();
        view.retainReference();
      }
    }

    void start(long recordFunction) {
      if (folding.insideSettledCall()) { // a kernel's or view's insides are never counted
        folding.pushIgnored();
        return;
      }
      // the call is pushed whatever fails, so that starts and ends stay paired
      String name = "?";
      OpCostRules.Rule rule = OpCostRules.VIEW;
      try {
        name = view.at(recordFunction).name().getString();
        rule = OpCostRules.of(name);
      } catch (Throwable e) {
        fail(e);
      }
      OpCall c = folding.push(name, rule);
      if (rule.needsShapes()) {
        try {
          captureInputs(c);
        } catch (Throwable e) {
          fail(e);
          c.rule = OpCostRules.VIEW;
        }
      }
    }

    void end(long recordFunction) {
      if (folding.depth() == 0) {
        fail(new IllegalStateException("an operator ended that was not seen starting"));
        return;
      }
      OpCall c = folding.top();
      if (c.rule.needsShapes()) {
        try {
          captureOutputs(view.at(recordFunction), c);
        } catch (Throwable e) {
          fail(e);
          c.rule = OpCostRules.VIEW;
        }
      }
      try {
        folding.pop(recordings.peek().tally());
      } catch (Throwable e) {
        fail(e);
      }
    }

    /**
     * Shapes and dtypes of the inputs, each list fetched as one string ({@code [[600, 100], []]},
     * {@code ["float", "Scalar"]}): a few native calls per operator instead of several per input.
     */
    private void captureInputs(OpCall c) {
      try (PointerScope scope = new PointerScope()) {
        LongVector sizes = torch.inputSizes(view); // an array of vectors, one per input
        if (sizes == null) {
          c.startInputs(0);
          return;
        }
        String shapes = torch.shapesToStr(sizes).getString();
        String types = torch.strListToStr(torch.inputTypes(view)).getString();
        InputShapes.parse(shapes, types, DTYPE_BYTES, c);
      }
    }

    private static void captureOutputs(RecordFunction rf, OpCall c) {
      try (PointerScope scope = new PointerScope()) {
        IValueVector out = rf.outputs();
        int n = (int) out.size();
        c.startOutputs(n);
        for (int i = 0; i < n; i++) {
          IValue v = out.get(i);
          Tensor t = v.isTensor() ? v.toTensor() : null;
          boolean defined = t != null && t.defined();
          c.outNumel[i] = defined ? t.numel() : 0;
          c.outElement[i] = defined ? (int) t.element_size() : 0;
        }
      }
    }

    private void fail(Throwable e) {
      if (failure == null) {
        failure = e;
      }
    }
  }
}
