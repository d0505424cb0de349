package dev.depbloom.api;

/**
 * A query the model scored as not a number (its inputs reach values where the model overflows):
 * refused with the reason rather than answered with NaN. A server answers it with 422.
 */
public final class UnscorableQueryException extends RejectedInputException {
  private static final long serialVersionUID = 1L;

  UnscorableQueryException(String item, int index, float score) {
    super(
        item,
        index,
        "score",
        "the model computes "
            + score
            + " for this pair, not a probability (the memory or features it reads hold values the"
            + " model overflows on); it is not answered");
  }
}
