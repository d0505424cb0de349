package dev.depbloom.partition;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The partitioners a DepBloom window can be cut with, by the name a config gives them. */
public enum PartitionerKind {
  /** Consecutive slices of the window ({@link ContiguousPartitioner}). */
  CONTIGUOUS,
  /** Balanced by event count, minimising cross-chain events ({@link TopologyPartitioner}). */
  TOPOLOGY;

  /** The name in configs, e.g. {@code contiguous}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A new partitioner of this kind. */
  public Partitioner create() {
    return this == CONTIGUOUS ? new ContiguousPartitioner() : new TopologyPartitioner();
  }

  /** Every kind's label, in declaration order. */
  public static List<String> labels() {
    return Arrays.stream(values()).map(PartitionerKind::label).toList();
  }

  /**
   * The kind named {@code label}.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static PartitionerKind of(String label) {
    for (PartitionerKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown partitioner " + label);
  }
}
