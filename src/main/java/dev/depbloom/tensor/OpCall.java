package dev.depbloom.tensor;

/**
 * One operator call as the recorder saw it: the shapes and element sizes of its inputs (taken when
 * it starts) and the element counts and sizes of its tensor outputs (taken when it ends), plus the
 * cost its rule puts on it. Mutable and reused frame by frame; never leaves the recorder.
 */
final class OpCall {
  String name;
  OpCostRules.Rule rule;
  boolean kernelInside; // a kernel ran (and was kept) inside this call
  int mark; // where this call's children start in the pending events

  int inputs;
  long[][] shapes = new long[8][]; // [inputs][dims]; empty for a non-tensor
  int[] inElement = new int[8]; // bytes per element; 0: not a tensor

  int outputs;
  long[] outNumel = new long[4];
  int[] outElement = new int[4];

  long flops;
  long bytesRead;
  long bytesWritten;

  void startInputs(int n) {
    if (shapes.length < n) {
      shapes = new long[n][];
      inElement = new int[n];
    }
    inputs = n;
  }

  void startOutputs(int n) {
    if (outNumel.length < n) {
      outNumel = new long[n];
      outElement = new int[n];
    }
    outputs = n;
  }

  boolean isTensor(int i) {
    return i < inputs && inElement[i] > 0;
  }

  /** Extent {@code d} of input {@code i} (negative {@code d} counts from the last). */
  long size(int i, int d) {
    long[] s = shapes[i];
    return s[d < 0 ? s.length + d : d];
  }

  int dim(int i) {
    return shapes[i].length;
  }

  long numel(int i) {
    if (!isTensor(i)) {
      return 0;
    }
    long n = 1;
    for (long s : shapes[i]) {
      n *= s;
    }
    return n;
  }

  long inputBytes(int i) {
    return numel(i) * inElement[i];
  }

  /** Bytes of all tensor inputs, at their logical (possibly broadcast) sizes. */
  long inputBytes() {
    long b = 0;
    for (int i = 0; i < inputs; i++) {
      b += inputBytes(i);
    }
    return b;
  }

  long outputNumel() {
    long n = 0;
    for (int i = 0; i < outputs; i++) {
      n += outNumel[i];
    }
    return n;
  }

  long outputBytes() {
    long b = 0;
    for (int i = 0; i < outputs; i++) {
      b += outNumel[i] * outElement[i];
    }
    return b;
  }

  /** Element size of the first output, or of the first tensor input when there is no output. */
  int outputElement() {
    if (outputs > 0) {
      return outElement[0];
    }
    return inputs > 0 ? inElement[0] : 0;
  }

  void price(long flops, long bytesRead, long bytesWritten) {
    this.flops = flops;
    this.bytesRead = bytesRead;
    this.bytesWritten = bytesWritten;
  }
}
