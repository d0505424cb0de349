package dev.depbloom.step;

import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.tensor.Tensors;
import java.util.zip.CRC32C;
import org.bytedeco.pytorch.Adam;
import org.bytedeco.pytorch.AdamOptions;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;

/**
 * A model replica and its optimizer state (docs/schedules.md, "Rounds, replicas, workers and the
 * memory store"). Every replica of a run is built from the same seed and receives the same summed
 * gradient each round, so all replicas stay identical; {@link #checksum()} lets processes compare
 * theirs. Inside one process the logical devices share one replica: they compute gradients with
 * {@code torch.grad} (which never touches the parameters' {@code .grad}), so concurrent items do
 * not interfere, and one optimizer step per round updates it.
 */
public final class Replica implements AutoCloseable {
  private final RankDevice device;
  private final TemporalGnn model;
  private final Adam optimizer;
  private final TensorVector parameters; // the model's, in a fixed order

  /**
   * A replica on the host.
   *
   * @param learningRate Adam's learning rate as the schedule resolves it (e.g. scaled by devices)
   */
  public Replica(
      ModelConfig config, int nodeFeatureDim, int edgeFeatureDim, double learningRate, long seed) {
    this(config, nodeFeatureDim, edgeFeatureDim, learningRate, seed, RankDevice.CPU);
  }

  /**
   * A replica initialised on the host (so every device starts from the same values) and moved to
   * {@code device} before its optimizer is made.
   */
  public Replica(
      ModelConfig config,
      int nodeFeatureDim,
      int edgeFeatureDim,
      double learningRate,
      long seed,
      RankDevice device) {
    TensorRuntime.seed(seed);
    this.device = device;
    this.model = new TemporalGnn(config, nodeFeatureDim, edgeFeatureDim);
    if (!device.host()) {
      model.to(new Device(device.device()), false);
    }
    this.parameters = model.parameters();
    this.optimizer = new Adam(parameters, new AdamOptions(learningRate));
  }

  public TemporalGnn model() {
    return model;
  }

  /** Where the parameters live, and where batches must be placed. */
  public RankDevice device() {
    return device;
  }

  public Adam optimizer() {
    return optimizer;
  }

  /** The parameters, in the order gradients are given to {@link #step}. */
  public TensorVector parameters() {
    return parameters;
  }

  public int parameterCount() {
    return (int) parameters.size();
  }

  /**
   * One optimizer step with the given gradient per parameter (null: none this round), each placed
   * beside its parameter first (a rank that computed no gradient receives the others' sum on the
   * host).
   */
  public void step(Tensor[] gradients) {
    optimizer.zero_grad();
    for (int i = 0; i < gradients.length; i++) {
      if (gradients[i] != null) {
        parameters.get(i).mutable_grad().put(device.place(gradients[i]));
      }
    }
    optimizer.step();
  }

  /** CRC32C of every parameter's float bits, in parameter order: equal replicas, equal sums. */
  public String checksum() {
    CRC32C crc = new CRC32C();
    try (StepScope scope = new StepScope()) {
      for (int i = 0; i < parameters.size(); i++) {
        for (float v : Tensors.toFloats(parameters.get(i).detach().contiguous().view(-1))) {
          int bits = Float.floatToRawIntBits(v);
          crc.update(bits);
          crc.update(bits >>> 8);
          crc.update(bits >>> 16);
          crc.update(bits >>> 24);
        }
      }
    }
    return String.format("%08x", crc.getValue());
  }

  @Override
  public void close() {
    optimizer.close();
    model.close();
  }
}
