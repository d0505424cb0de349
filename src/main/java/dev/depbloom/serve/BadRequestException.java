package dev.depbloom.serve;

/**
 * A request the server answers with 400: the message names the line or field and what it expects.
 */
final class BadRequestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BadRequestException(String message) {
    super(message);
  }

  BadRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
