package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The launcher turns JavaCPP's native-memory limits off unless the user set them ({@link
 * Main#nativeMemoryLimitsOff}).
 */
class NativeMemoryLimitsTest {
  private static final String MAX_BYTES = "org.bytedeco.javacpp.maxBytes";
  private static final String MAX_PHYSICAL = "org.bytedeco.javacpp.maxPhysicalBytes";

  @Test
  void unsetLimitsBecomeZeroAndAUsersValueStays() {
    String bytes = System.getProperty(MAX_BYTES);
    String physical = System.getProperty(MAX_PHYSICAL);
    try {
      System.clearProperty(MAX_BYTES);
      System.setProperty(MAX_PHYSICAL, "8g");
      Main.nativeMemoryLimitsOff();
      assertEquals("0", System.getProperty(MAX_BYTES));
      assertEquals("8g", System.getProperty(MAX_PHYSICAL));
    } finally {
      restore(MAX_BYTES, bytes);
      restore(MAX_PHYSICAL, physical);
    }
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }
}
