package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileSettingsTest {
  /** 4,000 / 12,000 / 40,000 moved to the nearest multiple of G * B, half-way cases upwards. */
  @Test
  void defaultWindowsAreTheNearestMultiplesOfAllDevicesBatches() {
    assertEquals(List.of(4_800, 14_400, 38_400), ProfileSettings.defaultWindows(8, 600));
    assertEquals(List.of(3_600, 12_000, 39_600), ProfileSettings.defaultWindows(2, 600));
    assertEquals(List.of(4_200, 12_000, 40_200), ProfileSettings.defaultWindows(1, 600));
    assertEquals(List.of(4_000, 12_000, 40_000), ProfileSettings.defaultWindows(4, 100));
    assertEquals(ProfileSettings.defaultWindows(8, 600), ProfileSettings.of(8, 600).windows());
  }

  /** At least one multiple; equal candidates are kept once. */
  @Test
  void largeDeviceBatchesKeepOneWindowOfOneMultiple() {
    assertEquals(List.of(38_400), ProfileSettings.defaultWindows(64, 600));
    assertEquals(List.of(9_600, 38_400), ProfileSettings.defaultWindows(16, 600));
  }
}
