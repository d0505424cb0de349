package dev.depbloom.api;

import java.util.List;

/**
 * The top candidates of {@link TemporalLinkPredictor#rank}, best first (ties in candidate order).
 *
 * @param version the memory version read
 * @param top at most k candidates with their probabilities
 */
public record Ranking(long version, List<RankedNode> top) {
  public Ranking {
    top = List.copyOf(top);
  }
}
