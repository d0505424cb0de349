package dev.depbloom.serve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** An answer to a request: status, content type, body. */
record Answer(int status, String type, byte[] body) {
  static Answer json(int status, Object value) {
    try {
      return new Answer(status, "application/json", JsonRequests.JSON.writeValueAsBytes(value));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code {"error": message}}: one line in the project's words, never a stack trace. */
  static Answer error(int status, String message) {
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("error", message);
    return json(status, o);
  }
}
