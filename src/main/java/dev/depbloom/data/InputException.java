package dev.depbloom.data;

/**
 * A mistake in what the user gave us (a data file, a config key, a flag value), as opposed to a
 * bug. The message names the source and what was expected; the command line prints it without a
 * stack trace and exits with status 2.
 */
public class InputException extends RuntimeException {
  public InputException(String message) {
    super(message);
  }

  public InputException(String message, Throwable cause) {
    super(message, cause);
  }
}
