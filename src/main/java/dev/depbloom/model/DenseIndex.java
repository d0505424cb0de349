package dev.depbloom.model;

import dev.depbloom.data.RandomStreams;
import java.util.Arrays;

/**
 * Assigns dense indices {@code 0, 1, 2, ...} to keys in order of first appearance: an int key, or
 * an (int, double) pair such as (node, read time). Open addressing over primitive arrays; no
 * boxing.
 */
final class DenseIndex {
  private int[] slots; // dense index + 1, 0 = empty
  private int[] keyInt; // by dense index
  private long[] keyBits; // by dense index (double bits of the second key part)
  private int size;
  private int mask;

  DenseIndex(int expected) {
    int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
    slots = new int[cap];
    mask = cap - 1;
    keyInt = new int[Math.max(4, expected)];
    keyBits = new long[keyInt.length];
  }

  /** Dense index of {@code key}, added if new. */
  int indexOf(int key) {
    return indexOf(key, 0L);
  }

  /** Dense index of the pair {@code (key, value)}, added if new. */
  int indexOf(int key, double value) {
    return indexOf(key, Double.doubleToLongBits(value == 0.0 ? 0.0 : value));
  }

  private int indexOf(int key, long bits) {
    int h = (int) RandomStreams.mix(key * 0x9e3779b97f4a7c15L ^ bits) & mask;
    while (true) {
      int s = slots[h];
      if (s == 0) {
        return add(h, key, bits);
      }
      if (keyInt[s - 1] == key && keyBits[s - 1] == bits) {
        return s - 1;
      }
      h = (h + 1) & mask;
    }
  }

  private int add(int slot, int key, long bits) {
    if (size == keyInt.length) {
      keyInt = Arrays.copyOf(keyInt, size * 2);
      keyBits = Arrays.copyOf(keyBits, size * 2);
    }
    keyInt[size] = key;
    keyBits[size] = bits;
    slots[slot] = ++size;
    if (size * 2 > slots.length) {
      rehash();
    }
    return size - 1;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    mask = slots.length - 1;
    for (int i = 0; i < size; i++) {
      int h = (int) RandomStreams.mix(keyInt[i] * 0x9e3779b97f4a7c15L ^ keyBits[i]) & mask;
      while (slots[h] != 0) {
        h = (h + 1) & mask;
      }
      slots[h] = i + 1;
    }
  }

  int size() {
    return size;
  }

  /** The int part of the keys, by dense index. */
  int[] keys() {
    return Arrays.copyOf(keyInt, size);
  }

  /** The double part of the keys, by dense index. */
  double[] values() {
    double[] out = new double[size];
    for (int i = 0; i < size; i++) {
      out[i] = Double.longBitsToDouble(keyBits[i]);
    }
    return out;
  }
}
