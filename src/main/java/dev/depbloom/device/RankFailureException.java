package dev.depbloom.device;

/**
 * A multi-process run cannot go on: another rank died or hangs, or a collective did not complete in
 * time. The message is one line that names the rank and, when known, the epoch and round; the
 * command line prints it without a stack trace and exits with status 1.
 */
public final class RankFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RankFailureException(String message) {
    super(message);
  }

  public RankFailureException(String message, Throwable cause) {
    super(message, cause);
  }
}
