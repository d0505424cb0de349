package dev.depbloom.tensor;

/**
 * Records the tensor operations a thread runs, as the work a device would do for them: kernels,
 * FLOPs, bytes read and written per operator ({@link OpWork}). The recorded work is one input of a
 * projection onto GPU device models (docs/projection.md, "Two inputs, kept apart"): it comes from
 * the run itself, not from a count per model.
 *
 * <pre>{@code
 * OpWork work;
 * try (OpRecording r = OpRecorder.startOnThisThread()) {
 *   ... forward, torch.grad, ...
 *   work = r.work(); // every operator call that has ended
 * }
 * }</pre>
 *
 * <p><b>What is seen.</b> Every operator call that goes through libtorch's dispatcher on the
 * recording thread, with its input shapes and dtypes and its outputs: forward operators, and the
 * backward operators the autograd engine runs for {@code torch.grad}/{@code backward} (on the CPU
 * it runs them on the calling thread). Calls on other threads are not seen (the callback is
 * thread-local; several workers record independently). Work done without the dispatcher (data put
 * into a tensor through its pointer, {@link Tensors#floats}) is not seen.
 *
 * <p><b>How it is counted.</b> Nested calls are folded so that each kernel counts once ({@link
 * OpFolding}); each operator is priced by its rule ({@link OpCostRules}); an operator without a
 * rule counts as one kernel with 0 FLOPs and its inputs read and outputs written, and is listed in
 * {@link OpWork#unruled()} so that a rule can be added.
 *
 * <p><b>Cost.</b> Off (no recording on the thread), libtorch builds no RecordFunction and nothing
 * here runs: a 4x4 add took the same time before and after a recording. On, each call crosses into
 * Java twice, and a kernel's shapes cost four more native calls that return objects JavaCPP tracks
 * for the garbage collector. Measured here (2 cores, loaded; CPU time of the thread): about 9 us
 * per kernel call, 0.6 us per view call ({@code OpRecorderOverheadBenchmark}); a TGN training item
 * on Wikipedia at batch 600 (1,110 calls, 219 kernels) took 4.7-5.4 ms more CPU time, 6-7% of its
 * 73-75 ms ({@code RecordedWorkBenchmark}). With {@code -Dorg.bytedeco.javacpp.nopointergc=true} a
 * kernel call costs about 3.4 us. Times taken while recording include that cost.
 *
 * <p>The mechanism and its limits are described on {@link RecordFunctionObserver}.
 */
public final class OpRecorder {
  private OpRecorder() {}

  /**
   * Starts recording the operators this thread runs, until the returned recording is closed (on
   * this thread). Nested in an open recording of this thread, its work also counts in that one.
   */
  public static OpRecording startOnThisThread() {
    return RecordFunctionObserver.start();
  }

  /** Whether a recording is open on this thread. */
  public static boolean recordingOnThisThread() {
    return RecordFunctionObserver.recordingOnThisThread();
  }

  /**
   * Operator calls whose callback ran on a thread without a recording: libtorch carries
   * thread-local callbacks into tasks it launches on other threads ({@code at::launch}); such calls
   * are not attributed to any recording, and this counts them (0 in this project's CPU training).
   */
  public static long unattributedCalls() {
    return RecordFunctionObserver.otherThreadCalls();
  }
}
