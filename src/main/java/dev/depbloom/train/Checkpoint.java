package dev.depbloom.train;

import dev.depbloom.data.InputException;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.DeviceOptional;
import org.bytedeco.pytorch.InputArchive;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Optimizer;
import org.bytedeco.pytorch.OutputArchive;
import org.bytedeco.pytorch.Tensor;

/**
 * A libtorch archive of everything a run needs to continue: parameters, optimizer state, and every
 * memory view (view 0 under {@code memory}, {@code mailbox}, ...; view v > 0 with the suffix {@code
 * _v}) with its time columns. Random state needs no saving: every random stream is derived from the
 * run seed, the epoch and the batch. Written to a temporary file and renamed into place, so a crash
 * never leaves a half-written checkpoint or loses the previous one.
 */
public final class Checkpoint {
  private Checkpoint() {}

  /**
   * Saves atomically to {@code file}. {@code views} is empty for memory-less models; {@code seed}
   * and {@code epoch} are the random state the next epoch's streams derive from.
   */
  public static void save(
      Path file,
      TemporalGnn model,
      Optimizer optimizer,
      List<NodeMemory> views,
      long seed,
      int epoch) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (StepScope scope = new StepScope()) {
      OutputArchive archive = new OutputArchive();
      OutputArchive params = new OutputArchive();
      model.save(params);
      archive.write("model", params);
      OutputArchive opt = new OutputArchive();
      optimizer.save(opt);
      archive.write("optimizer", opt);
      archive.write("random_state", Tensors.longs(new long[] {seed, epoch}));
      for (int v = 0; v < views.size(); v++) {
        NodeMemory memory = views.get(v);
        String suffix = suffix(v);
        archive.write("memory" + suffix, memory.memoryTensor());
        archive.write("mailbox" + suffix, memory.mailboxTensor());
        archive.write("memory_time" + suffix, Tensors.doubles(memory.lastUpdateTimes()));
        archive.write("mail_time" + suffix, Tensors.doubles(memory.mailTimeValues()));
        archive.write("mail_slot" + suffix, Tensors.indices(memory.nextSlots()));
      }
      archive.save_to(tmp.toString());
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint " + file, e);
    }
  }

  /** The (seed, epoch) random state stored in a checkpoint. */
  public static long[] randomState(Path file) {
    try (StepScope scope = new StepScope()) {
      InputArchive archive = new InputArchive();
      // onto the host, so that a checkpoint written on a GPU reads anywhere
      archive.load_from(file.toString(), new DeviceOptional(new Device("cpu")));
      Tensor state = new Tensor();
      archive.read("random_state", state);
      return Tensors.toLongs(state);
    }
  }

  private static String suffix(int view) {
    return view == 0 ? "" : "_" + view;
  }

  /** Loads parameters, optimizer state when given (non-null), and the given memory views. */
  public static void load(
      Path file, TemporalGnn model, Optimizer optimizer, List<NodeMemory> views) {
    if (!Files.isRegularFile(file)) {
      throw new InputException(file + ": checkpoint not found");
    }
    try (StepScope scope = new StepScope()) {
      InputArchive archive = new InputArchive();
      // tensors load onto the model's device (a checkpoint written on a GPU loads on the host, and
      // back); memory rows are copied into host memory below either way
      archive.load_from(file.toString(), new DeviceOptional(model.parameters().get(0).device()));
      InputArchive params = new InputArchive();
      archive.read("model", params);
      model.load(params);
      if (optimizer != null) {
        InputArchive opt = new InputArchive();
        archive.read("optimizer", opt);
        optimizer.load(opt);
      }
      for (int v = 0; v < views.size(); v++) {
        NodeMemory memory = views.get(v);
        String suffix = suffix(v);
        Tensor m = new Tensor();
        archive.read("memory" + suffix, m);
        Tensor mb = new Tensor();
        archive.read("mailbox" + suffix, mb);
        Tensor mt = new Tensor();
        archive.read("memory_time" + suffix, mt);
        Tensor at = new Tensor();
        archive.read("mail_time" + suffix, at);
        Tensor slot = new Tensor();
        archive.read("mail_slot" + suffix, slot);
        try (NoGradGuard g = new NoGradGuard()) {
          memory.memoryTensor().copy_(m);
          memory.mailboxTensor().copy_(mb);
        }
        long[] slots = Tensors.toLongs(slot);
        int[] ints = new int[slots.length];
        for (int i = 0; i < ints.length; i++) {
          ints[i] = (int) slots[i];
        }
        memory.restoreTimes(Tensors.toDoubles(mt), Tensors.toDoubles(at), ints);
      }
    }
  }
}
