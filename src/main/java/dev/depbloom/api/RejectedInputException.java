package dev.depbloom.api;

/**
 * Input the predictor refuses, before it changes anything: names the item (an event, a query or a
 * candidate list), its position in the call and the field, and says what was expected. A server
 * answers it with 400.
 */
public class RejectedInputException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String item;
  private final int index;
  private final String field;
  private final String problem;

  /**
   * @param item what was refused: {@code "event"}, {@code "query"} or {@code "request"}
   * @param index its position in the call, from 0 ({@code -1}: the call as a whole)
   * @param field the field at fault ({@code src}, {@code dst}, {@code time}, {@code features},
   *     {@code candidates}, {@code k})
   * @param problem what was wrong and what was expected
   */
  public RejectedInputException(String item, int index, String field, String problem) {
    super((index < 0 ? item : item + " " + index) + ": \"" + field + "\": " + problem);
    this.item = item;
    this.index = index;
    this.field = field;
    this.problem = problem;
  }

  public String item() {
    return item;
  }

  /** Position of the refused item in the call, from 0; -1 for the call as a whole. */
  public int index() {
    return index;
  }

  public String field() {
    return field;
  }

  public String problem() {
    return problem;
  }
}
