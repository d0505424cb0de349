package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.step.TrainingSession;
import java.util.Arrays;

/**
 * The negatives of a test batch, scored in one pass: roots {@code [src | dst | neg_0 | neg_1 ..
 * neg_k]}.
 *
 * <ul>
 *   <li>{@code neg_0}, the AP/AUC negative: one per event, drawn exactly as validation draws its
 *       negative (uniform over the pool, so it may equal the destination): TGL's convention, so
 *       that test AP stays comparable with TGL's and with validation AP;
 *   <li>{@code neg_1 .. neg_k}, the ranking negatives for MRR: uniform over the pool without the
 *       event's destination (TGB's convention), so a ranking never ties the positive with itself.
 * </ul>
 */
public final class TestNegatives {
  private static final long RANKING = RandomStreams.key("ranking-negatives");
  private final EventStream events;
  private final NegativeSampler sampler;

  /** Negatives from the destination set of a bipartite stream, from all nodes otherwise. */
  public TestNegatives(EventStream events, long seed) {
    this.events = events;
    this.sampler = NegativeSampler.forStream(events, events.bipartite(), seed);
  }

  /**
   * The batch of events {@code [start, end)} with {@code 1 + ranking} negatives per event; {@code
   * keys} name its random stream. The AP negatives are those {@link TrainingSession#batch} draws
   * with one negative per event under the same keys.
   */
  public Batch batch(int index, int start, int end, int ranking, long... keys) {
    int[] negatives = sampler.sample(end - start, keys);
    if (ranking > 0) {
      int[] destinations = Arrays.copyOfRange(events.destinations(), start, end);
      long[] rankingKeys = Arrays.copyOf(keys, keys.length + 1);
      rankingKeys[keys.length] = RANKING;
      int[] rank = sampler.sampleExcludingDestinations(destinations, ranking, rankingKeys);
      int[] both = Arrays.copyOf(negatives, negatives.length + rank.length);
      System.arraycopy(rank, 0, both, negatives.length, rank.length);
      negatives = both;
    }
    return Batch.of(events, index, start, end, negatives);
  }
}
