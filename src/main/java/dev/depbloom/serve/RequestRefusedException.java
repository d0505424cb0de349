package dev.depbloom.serve;

/**
 * A request the server refuses with a status other than 400: over a limit (413), a body too slow
 * (408), no worker free (503). The message names the limit and the flag that sets it.
 */
final class RequestRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  RequestRefusedException(int status, String message) {
    super(message);
    this.status = status;
  }

  int status() {
    return status;
  }
}
