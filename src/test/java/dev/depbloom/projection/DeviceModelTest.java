package dev.depbloom.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device model files: every figure with its source, clear errors, and the cost rules. */
class DeviceModelTest {
  @TempDir Path dir;

  @Test
  void everyShippedModelLoadsWithASourceForEveryParameter() {
    for (String name : DeviceModel.SHIPPED) {
      DeviceModel m = DeviceModel.load(name);
      assertEquals(name, m.name());
      assertEquals(DeviceModel.KEYS.size(), m.sources().size(), name);
      m.sources().values().forEach(s -> assertTrue(!s.isBlank(), name));
    }
  }

  /** A100 PCIe as shipped (19.5 TFLOP/s FP32, 1,250 GB/s) with a launch overhead of 8 us. */
  @Test
  void aKernelCostsItsLaunchItsFlopsOrItsBytesWhicheverIsLargest() {
    DeviceModel a100 = DeviceModel.load("a100-pcie").withLaunchSeconds(8e-6);
    assertEquals(8e-6, a100.kernelSeconds(1_000, 1_000), 1e-12); // launch-bound
    assertEquals(1e-3, a100.kernelSeconds(19.5e9, 1_000), 1e-12); // compute-bound: 19.5 GFLOP
    assertEquals(2e-3, a100.kernelSeconds(1_000, 2.5e9), 1e-12); // memory-bound: 2.5 GB
  }

  /** 8 GPUs, 1 MB: 42 us + 2 * 7/8 * 1e6 / 20e9 s on A100 PCIe; nothing on one device. */
  @Test
  void anAllReduceFollowsTheBusBandwidthDefinition() {
    DeviceModel a100 = DeviceModel.load("a100-pcie");
    assertEquals(42e-6 + 1.75 * 1e6 / 20e9, a100.allReduce(1e6, 8), 1e-12);
    assertEquals(0, a100.allReduce(1e6, 1));
  }

  @Test
  void aMissingParameterIsNamedWithItsFile() throws IOException {
    String text =
        Files.readString(resource("h200")).replaceAll("(?m)^  link_gbps:\\n.*\\n.*\\n", "");
    Path file = Files.writeString(dir.resolve("mine.yml"), text);
    InputException e = assertThrows(InputException.class, () -> DeviceModel.load(file.toString()));
    assertEquals(
        file + ": parameters.link_gbps: missing (expected {value: NUMBER, source: TEXT})",
        e.getMessage());
  }

  @Test
  void anUnknownParameterAFigureWithoutSourceAndANonPositiveValueAreRefused() throws IOException {
    String text = Files.readString(resource("h200"));
    Path unknown = Files.writeString(dir.resolve("u.yml"), text + "  nvlink_speed: {value: 1}\n");
    assertTrue(
        assertThrows(InputException.class, () -> DeviceModel.load(unknown.toString()))
            .getMessage()
            .startsWith(unknown + ": parameters.nvlink_speed: unknown parameter"));
    Path zero =
        Files.writeString(
            dir.resolve("z.yml"), text.replaceFirst("(?m)^    value: .*$", "    value: 0"));
    assertEquals(
        zero + ": parameters.launch_overhead_us.value: expected a positive number, got 0",
        assertThrows(InputException.class, () -> DeviceModel.load(zero.toString())).getMessage());
    Path uncited =
        Files.writeString(
            dir.resolve("c.yml"), text.replaceFirst("(?m)^    source: .*$", "    source: \"\""));
    assertEquals(
        uncited + ": parameters.launch_overhead_us.source: every figure needs its source",
        assertThrows(InputException.class, () -> DeviceModel.load(uncited.toString()))
            .getMessage());
  }

  @Test
  void anUnknownNameSaysWhatIsShipped() {
    InputException e = assertThrows(InputException.class, () -> DeviceModel.load("v100"));
    assertTrue(e.getMessage().startsWith("v100: no such device model (shipped: a100-pcie,"));
  }

  private static Path resource(String name) {
    return Path.of("src/main/resources/dev/depbloom/devices/" + name + ".yml");
  }
}
