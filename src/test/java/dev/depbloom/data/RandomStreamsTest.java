package dev.depbloom.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RandomStreamsTest {
  @Test
  void extendAddsOneKeyToADerivedSeed() {
    long derived = RandomStreams.derive(42, 7, 8);
    assertEquals(RandomStreams.derive(42, 7, 8, 9), RandomStreams.extend(derived, 9));
    assertEquals(RandomStreams.derive(42, 7, 8, -1), RandomStreams.extend(derived, -1));
  }
}
