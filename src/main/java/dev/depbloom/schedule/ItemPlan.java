package dev.depbloom.schedule;

/**
 * One logical device's work item in a round: consecutive events {@code [start, end)} read from and
 * written to memory view {@code view}.
 */
public record ItemPlan(int device, int view, int start, int end) {
  public ItemPlan {
    if (start >= end) {
      throw new IllegalArgumentException("empty work item [" + start + ", " + end + ")");
    }
  }

  public int events() {
    return end - start;
  }
}
