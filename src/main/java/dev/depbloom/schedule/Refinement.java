package dev.depbloom.schedule;

import dev.depbloom.step.ReadThrough;
import java.util.function.Function;

/**
 * How the items of one memory view in a round read each other's memory writes: not at all ({@link
 * #NONE}: every item reads the view as the last commit left it), or as consecutive micro-batches of
 * one large batch that read through the earlier ones' writes (DepBloom's intra-batch memory
 * refinement, {@code schedule.depbloom.IntraBatchRefinement}). A refined item is never split into
 * shards.
 */
public interface Refinement {
  /** Items read their views as committed. */
  Refinement NONE = round -> item -> ReadThrough.NONE;

  /**
   * The links of round {@code round}'s items: for each of its items, what it reads through ({@link
   * ReadThrough#NONE} for an item that reads its view as committed). Call it once per planning of
   * the round, and the result once per item, in round order.
   */
  Function<ItemPlan, ReadThrough> links(RoundPlan round);
}
