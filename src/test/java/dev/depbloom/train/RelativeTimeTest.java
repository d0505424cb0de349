package dev.depbloom.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag(Kernels.TRAINS)
class RelativeTimeTest {
  @Test
  void trainingSeesTimesRelativeToTheFirstEvent() {
    EventStream unix =
        TinyStreams.of(
            3,
            new int[] {0, 1, 2},
            new int[] {1, 2, 0},
            new double[] {1.0e9, 1.0e9 + 5, 1.0e9 + 9},
            0);
    TrainingRun run = TinyStreams.tinyRun(unix, "tgn", 0);
    assertArrayEquals(new double[] {0, 5, 9}, run.events().times());
    assertArrayEquals(new int[] {1, 2, 0}, run.events().destinations());
  }

  @Test
  void aStreamThatStartsAtZeroIsUsedAsItIs() {
    EventStream zero = TinyStreams.handBuilt();
    EventStream shifted =
        TinyStreams.of(
            4, zero.sources(), zero.destinations(), new double[] {0, 1, 1, 2, 3, 3, 4, 5}, 0);
    assertSame(shifted, shifted.relativeToFirstEvent());
  }
}
