package dev.depbloom.train;

import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.bytedeco.pytorch.InputArchive;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Optimizer;
import org.bytedeco.pytorch.OutputArchive;
import org.bytedeco.pytorch.Tensor;

/**
 * A libtorch archive of everything a run needs to continue: parameters, optimizer state, and node
 * memory with its time columns. Random state needs no saving: every random stream is derived from
 * the run seed, the epoch and the batch. Written to a temporary file and renamed into place, so a
 * crash never leaves a half-written checkpoint or loses the previous one.
 */
public final class Checkpoint {
  private Checkpoint() {}

  /**
   * Saves atomically to {@code file}. {@code memory} may be null (memory-less models); {@code seed}
   * and {@code epoch} are the random state the next epoch's streams derive from.
   */
  public static void save(
      Path file, TemporalGnn model, Optimizer optimizer, NodeMemory memory, long seed, int epoch) {
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
      if (memory != null) {
        archive.write("memory", memory.memoryTensor());
        archive.write("mailbox", memory.mailboxTensor());
        archive.write("memory_time", Tensors.doubles(memory.lastUpdateTimes()));
        archive.write("mail_time", Tensors.doubles(memory.mailTimeValues()));
        archive.write("mail_slot", Tensors.indices(memory.nextSlots()));
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
      archive.load_from(file.toString());
      Tensor state = new Tensor();
      archive.read("random_state", state);
      return Tensors.toLongs(state);
    }
  }

  /** Loads parameters, and optimizer state and memory when given (non-null). */
  public static void load(Path file, TemporalGnn model, Optimizer optimizer, NodeMemory memory) {
    if (!Files.isRegularFile(file)) {
      throw new dev.depbloom.data.InputException(file + ": checkpoint not found");
    }
    try (StepScope scope = new StepScope()) {
      InputArchive archive = new InputArchive();
      archive.load_from(file.toString());
      InputArchive params = new InputArchive();
      archive.read("model", params);
      model.load(params);
      if (optimizer != null) {
        InputArchive opt = new InputArchive();
        archive.read("optimizer", opt);
        optimizer.load(opt);
      }
      if (memory != null) {
        Tensor m = new Tensor();
        archive.read("memory", m);
        Tensor mb = new Tensor();
        archive.read("mailbox", mb);
        Tensor mt = new Tensor();
        archive.read("memory_time", mt);
        Tensor at = new Tensor();
        archive.read("mail_time", at);
        Tensor slot = new Tensor();
        archive.read("mail_slot", slot);
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
