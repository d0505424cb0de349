package dev.depbloom.data;

/**
 * A chronological train / validation / test split by event index: train {@code [0, trainEnd)},
 * validation {@code [trainEnd, valEnd)}, test {@code [valEnd, eventCount)}.
 */
public record Split(int trainEnd, int valEnd, int eventCount) {
  public Split {
    if (trainEnd < 0 || valEnd < trainEnd || eventCount < valEnd) {
      throw new IllegalArgumentException(
          "split bounds out of order: " + trainEnd + ", " + valEnd + ", " + eventCount);
    }
  }

  /** TGL's {@code ext_roll} labels where the stream has them, otherwise 70/15/15 by event index. */
  public static Split of(EventStream events) {
    byte[] labels = events.splitLabels();
    if (labels == null) {
      return chronological(events.eventCount(), 0.70, 0.85);
    }
    int trainEnd = 0;
    while (trainEnd < labels.length && labels[trainEnd] == 0) {
      trainEnd++;
    }
    int valEnd = trainEnd;
    while (valEnd < labels.length && labels[valEnd] == 1) {
      valEnd++;
    }
    return new Split(trainEnd, valEnd, labels.length);
  }

  /**
   * Cut points as fractions of the events, computed as TGL and the reference do: {@code (int) (E *
   * fraction)}; the default is {@code 0.70, 0.85}.
   */
  public static Split chronological(
      int eventCount, double trainEndFraction, double valEndFraction) {
    int trainEnd = (int) (eventCount * trainEndFraction);
    int valEnd = (int) (eventCount * valEndFraction);
    return new Split(trainEnd, Math.min(valEnd, eventCount), eventCount);
  }

  public int trainCount() {
    return trainEnd;
  }

  public int valCount() {
    return valEnd - trainEnd;
  }

  public int testCount() {
    return eventCount - valEnd;
  }

  /**
   * Per node: true if it is an endpoint of some training event. Others are new (inductive) nodes.
   */
  public boolean[] seenInTraining(EventStream events) {
    boolean[] seen = new boolean[events.nodeCount()];
    int[] src = events.sources();
    int[] dst = events.destinations();
    for (int i = 0; i < trainEnd; i++) {
      seen[src[i]] = true;
      seen[dst[i]] = true;
    }
    return seen;
  }
}
