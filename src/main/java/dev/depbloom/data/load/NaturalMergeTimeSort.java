package dev.depbloom.data.load;

import java.util.Arrays;

/**
 * A stable sort of event indices by time on primitive arrays: natural runs of the input (short ones
 * extended by insertion sort to {@value #MIN_RUN} rows) merged pairwise, as TimSort does without
 * galloping. Nearly sorted streams (the usual case) cost a few linear passes.
 */
final class NaturalMergeTimeSort {
  static final int MIN_RUN = 32;

  private NaturalMergeTimeSort() {}

  /**
   * The stable order of {@code time[0..n)}: position {@code i} of the result holds the index of the
   * row that sorts to position {@code i}; equal times keep their input order.
   */
  static int[] stableOrder(double[] time, int n) {
    int[] order = new int[n];
    Arrays.setAll(order, i -> i);
    int[] bounds = runBounds(time, order, n);
    int runs = bounds.length - 1;
    int[] scratch = new int[n];
    while (runs > 1) {
      int merged = 0;
      for (int r = 0; r < runs; r += 2) {
        int lo = bounds[r];
        int mid = bounds[Math.min(r + 1, runs)];
        int hi = bounds[Math.min(r + 2, runs)];
        merge(time, order, scratch, lo, mid, hi);
        bounds[merged++] = lo;
      }
      bounds[merged] = n;
      runs = merged;
      int[] swap = order;
      order = scratch;
      scratch = swap;
    }
    return order;
  }

  /** Finds the runs, sorting short ones in place; returns their start positions and {@code n}. */
  private static int[] runBounds(double[] time, int[] order, int n) {
    int[] bounds = new int[n / MIN_RUN + 2];
    int runs = 0;
    int start = 0;
    while (start < n) {
      int end = start + 1;
      while (end < n && time[end] >= time[end - 1]) {
        end++;
      }
      if (end - start < MIN_RUN && end < n) {
        end = Math.min(n, start + MIN_RUN);
        insertionSort(time, order, start, end);
        while (end < n && time[end] >= time[order[end - 1]]) {
          end++;
        }
      }
      if (runs == bounds.length - 1) {
        bounds = Arrays.copyOf(bounds, bounds.length * 2);
      }
      bounds[runs++] = start;
      start = end;
    }
    bounds[runs] = n;
    return Arrays.copyOf(bounds, runs + 1);
  }

  private static void insertionSort(double[] time, int[] order, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      int row = order[i];
      double t = time[row];
      int j = i - 1;
      while (j >= from && time[order[j]] > t) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = row;
    }
  }

  /**
   * Merges {@code src[lo, mid)} and {@code src[mid, hi)} into {@code dst[lo, hi)}, left first on
   * ties.
   */
  private static void merge(double[] time, int[] src, int[] dst, int lo, int mid, int hi) {
    int a = lo;
    int b = mid;
    int k = lo;
    while (a < mid && b < hi) {
      dst[k++] = time[src[b]] < time[src[a]] ? src[b++] : src[a++];
    }
    System.arraycopy(src, a, dst, k, mid - a);
    k += mid - a;
    System.arraycopy(src, b, dst, k, hi - b);
  }
}
