package dev.depbloom.projection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.depbloom.data.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stated GPU (docs/projection.md, "Two inputs, kept apart"): what each unit of recorded work
 * costs on it, every figure with its source. Files are {@code NAME.yml} under {@code
 * dev/depbloom/devices} (shipped: {@code a100-pcie}, {@code a100-nvlink}, {@code rtx4090}, {@code
 * h200}) or any file of the same schema ({@code devices/README.md}). Values here are in SI units:
 * seconds, FLOP/s, bytes/s.
 *
 * @param name the model's name
 * @param description the part, its host link, what a device is
 * @param launchSeconds fixed cost of one kernel (launch and framework dispatch): the one constant a
 *     calibration may fit
 * @param fp32Flops dense FP32 peak, FLOP/s (matrix products run in FP32: PyTorch's default since
 *     1.12, and what TGL and DistTGL run unless TF32 is switched on)
 * @param tf32Flops dense TF32 tensor-core peak, FLOP/s (stated, not used by default)
 * @param deviceBytes device memory bandwidth, bytes read plus written per second
 * @param h2dPinned host-to-device copy from pinned memory, bytes/s
 * @param h2dPageable host-to-device copy from pageable memory, bytes/s
 * @param d2hPinned device-to-host copy into pinned memory, bytes/s
 * @param d2hPageable device-to-host copy into freshly allocated pageable memory ({@code .cpu()},
 *     page faults included), bytes/s
 * @param d2hTouched device-to-host {@code copy_} into pageable memory touched before (a reused
 *     buffer, as DistTGL's trainers write into their shared write buffers), bytes/s
 * @param transferSeconds fixed cost of one synchronous host-device copy
 * @param hostGatherBytes one CPU thread gathering or scattering rows in host memory, bytes/s
 * @param linkSeconds latency of one device-to-device transfer
 * @param linkBytes device-to-device bandwidth, one direction, bytes/s
 * @param allReduceSeconds latency of a tiny all-reduce over the machine's GPUs
 * @param allReduceBusBytes all-reduce bus bandwidth (nccl-tests' busbw), bytes/s
 * @param internodeBytes network bandwidth per machine, bytes/s
 * @param internodeSeconds small-message latency between machines
 * @param sources each parameter's source, by its file key
 */
public record DeviceModel(
    String name,
    String description,
    double launchSeconds,
    double fp32Flops,
    double tf32Flops,
    double deviceBytes,
    double h2dPinned,
    double h2dPageable,
    double d2hPinned,
    double d2hPageable,
    double d2hTouched,
    double transferSeconds,
    double hostGatherBytes,
    double linkSeconds,
    double linkBytes,
    double allReduceSeconds,
    double allReduceBusBytes,
    double internodeBytes,
    double internodeSeconds,
    Map<String, String> sources) {

  /** The file keys in schema order. */
  public static final List<String> KEYS =
      List.of(
          "launch_overhead_us",
          "fp32_tflops",
          "tf32_tflops",
          "device_memory_gbps",
          "h2d_pinned_gbps",
          "h2d_pageable_gbps",
          "d2h_pinned_gbps",
          "d2h_pageable_gbps",
          "d2h_touched_gbps",
          "transfer_latency_us",
          "host_gather_gbps",
          "link_latency_us",
          "link_gbps",
          "allreduce_latency_us",
          "allreduce_bus_gbps",
          "internode_gbps",
          "internode_latency_us");

  /** The models shipped with the project. */
  public static final List<String> SHIPPED = List.of("a100-pcie", "a100-nvlink", "rtx4090", "h200");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  public DeviceModel {
    sources = Map.copyOf(sources);
  }

  /**
   * A shipped model by name, or a model file by path.
   *
   * @throws InputException naming the file and the key when the file is missing or malformed
   */
  public static DeviceModel load(String nameOrPath) {
    if (SHIPPED.contains(nameOrPath)) {
      String resource = "/dev/depbloom/devices/" + nameOrPath + ".yml";
      try (InputStream in = DeviceModel.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("shipped device model missing: " + resource);
        }
        return parse(YAML.readTree(in), nameOrPath + ".yml");
      } catch (IOException e) {
        throw new IllegalStateException("cannot read " + resource, e);
      }
    }
    Path file = Path.of(nameOrPath);
    if (!Files.isRegularFile(file)) {
      throw new InputException(
          nameOrPath
              + ": no such device model (shipped: "
              + String.join(", ", SHIPPED)
              + "; or the path of a file of the schema in dev/depbloom/devices/README.md)");
    }
    try {
      return parse(YAML.readTree(file.toFile()), file.toString());
    } catch (IOException e) {
      throw new InputException(file + ": not a YAML device model: " + e.getMessage());
    }
  }

  /** A model from a parsed file; {@code source} names the file in errors. */
  static DeviceModel parse(JsonNode root, String source) {
    if (root == null || !root.isObject()) {
      throw new InputException(source + ": expected a mapping with name, description, parameters");
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!List.of("name", "description", "parameters").contains(key)) {
        throw new InputException(
            source + ": " + key + ": unknown key (expected name, description, parameters)");
      }
    }
    String name = text(root, "name", source);
    String description = text(root, "description", source);
    JsonNode params = root.get("parameters");
    if (params == null || !params.isObject()) {
      throw new InputException(source + ": parameters: expected a mapping of the 16 parameters");
    }
    List<String> unknown = new ArrayList<>();
    params.fieldNames().forEachRemaining(k -> unknown.add(k));
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw new InputException(
          source
              + ": parameters."
              + unknown.get(0)
              + ": unknown parameter (known: "
              + String.join(", ", KEYS)
              + ")");
    }
    Map<String, Double> v = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    readParameters(params, source, v, sources);
    return new DeviceModel(
        name,
        description,
        v.get("launch_overhead_us") * 1e-6,
        v.get("fp32_tflops") * 1e12,
        v.get("tf32_tflops") * 1e12,
        v.get("device_memory_gbps") * 1e9,
        v.get("h2d_pinned_gbps") * 1e9,
        v.get("h2d_pageable_gbps") * 1e9,
        v.get("d2h_pinned_gbps") * 1e9,
        v.get("d2h_pageable_gbps") * 1e9,
        v.get("d2h_touched_gbps") * 1e9,
        v.get("transfer_latency_us") * 1e-6,
        v.get("host_gather_gbps") * 1e9,
        v.get("link_latency_us") * 1e-6,
        v.get("link_gbps") * 1e9,
        v.get("allreduce_latency_us") * 1e-6,
        v.get("allreduce_bus_gbps") * 1e9,
        v.get("internode_gbps") * 1e9,
        v.get("internode_latency_us") * 1e-6,
        sources);
  }

  /**
   * Checks each of {@link #KEYS} in order and puts its value into {@code values} and its source
   * into {@code sources}.
   */
  private static void readParameters(
      JsonNode params, String source, Map<String, Double> values, Map<String, String> sources) {
    for (String key : KEYS) {
      JsonNode p = params.get(key);
      String where = source + ": parameters." + key;
      if (p == null || !p.isObject()) {
        throw new InputException(where + ": missing (expected {value: NUMBER, source: TEXT})");
      }
      JsonNode value = p.get("value");
      if (value == null || !value.isNumber() || !(value.doubleValue() > 0)) {
        throw new InputException(where + ".value: expected a positive number, got " + value);
      }
      JsonNode cited = p.get("source");
      if (cited == null || !cited.isTextual() || cited.asText().isBlank()) {
        throw new InputException(where + ".source: every figure needs its source");
      }
      values.put(key, value.doubleValue());
      sources.put(key, cited.asText());
    }
  }

  private static String text(JsonNode root, String key, String source) {
    JsonNode v = root.get(key);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new InputException(source + ": " + key + ": expected text");
    }
    return v.asText();
  }

  /** This model with another launch overhead (a calibration's one fitted constant). */
  public DeviceModel withLaunchSeconds(double seconds) {
    return new DeviceModel(
        name,
        description,
        seconds,
        fp32Flops,
        tf32Flops,
        deviceBytes,
        h2dPinned,
        h2dPageable,
        d2hPinned,
        d2hPageable,
        d2hTouched,
        transferSeconds,
        hostGatherBytes,
        linkSeconds,
        linkBytes,
        allReduceSeconds,
        allReduceBusBytes,
        internodeBytes,
        internodeSeconds,
        sources);
  }

  /**
   * One kernel: at least the launch overhead, else the larger of its FLOPs over the FP32 peak and
   * its bytes (read plus written) over the device memory bandwidth.
   */
  public double kernelSeconds(double flops, double bytes) {
    return Math.max(launchSeconds, Math.max(flops / fp32Flops, bytes / deviceBytes));
  }

  /** One synchronous host-to-device copy of {@code bytes}, pinned or pageable. */
  public double hostToDevice(double bytes, boolean pinned) {
    return bytes <= 0 ? 0 : transferSeconds + bytes / (pinned ? h2dPinned : h2dPageable);
  }

  /** One synchronous device-to-host copy of {@code bytes}, pinned or pageable. */
  public double deviceToHost(double bytes, boolean pinned) {
    return bytes <= 0 ? 0 : transferSeconds + bytes / (pinned ? d2hPinned : d2hPageable);
  }

  /**
   * One synchronous device-to-host {@code copy_} of {@code bytes} into pageable memory touched
   * before (a reused buffer).
   */
  public double deviceToTouchedHost(double bytes) {
    return bytes <= 0 ? 0 : transferSeconds + bytes / d2hTouched;
  }

  /** One transfer of {@code bytes} between two devices (0 bytes: nothing sent). */
  public double link(double bytes) {
    return bytes <= 0 ? 0 : linkSeconds + bytes / linkBytes;
  }

  /**
   * An all-reduce of {@code bytes} over {@code devices} GPUs of one machine, by nccl-tests' bus
   * bandwidth: {@code latency + 2 (n - 1) / n * bytes / busbw} (0 on one device).
   */
  public double allReduce(double bytes, int devices) {
    if (devices <= 1) {
      return 0;
    }
    return allReduceSeconds + 2.0 * (devices - 1) / devices * bytes / allReduceBusBytes;
  }

  /** One CPU thread gathering or scattering {@code bytes} of rows in host memory. */
  public double hostGather(double bytes) {
    return bytes / hostGatherBytes;
  }
}
