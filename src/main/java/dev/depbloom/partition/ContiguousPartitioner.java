package dev.depbloom.partition;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * The naive partitioner: chain {@code c} of a window of {@code W} events is the consecutive slice
 * {@code [from + floor(c W / P), from + floor((c + 1) W / P))}, so chain sizes differ by at most
 * one event. It ignores the topology; node owners follow by {@link WindowPartition}'s majority
 * rule. As the design measured (docs/architecture.md, "The dependency profile"), on social, e-mail
 * and Q&amp;A graphs it loses fewer dependencies than topology-aware partitioning, because a node's
 * events tend to be close in time.
 */
public final class ContiguousPartitioner implements Partitioner {
  @Override
  public WindowPartition partition(EventStream events, int from, int to, int chains) {
    Partitioner.checkWindow(events, from, to, chains);
    int size = to - from;
    int[] eventChain = new int[size];
    for (int c = 0; c < chains; c++) {
      int start = (int) ((long) c * size / chains);
      int end = (int) ((long) (c + 1) * size / chains);
      Arrays.fill(eventChain, start, end, c);
    }
    return WindowPartition.ofEventChains(events, from, to, chains, eventChain);
  }

  @Override
  public String name() {
    return "contiguous";
  }
}
