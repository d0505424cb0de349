package dev.depbloom.serve;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request's body without holding a thread while it waits: each read takes what has arrived
 * and asks to be called again when more does ({@link Content.Source#demand}). A body over its limit
 * is refused with 413 as soon as it is; one that stalls for the idle timeout, or is not complete
 * within the body deadline, with 408.
 */
final class RequestBody implements Runnable {
  private final Request request;
  private final int limit;
  private final long deadline; // System.nanoTime() by which the body must be complete
  private final int bodySeconds;
  private final Consumer<byte[]> done;
  private final Consumer<RuntimeException> refused;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private RequestBody(
      Request request,
      int limit,
      int bodySeconds,
      Consumer<byte[]> done,
      Consumer<RuntimeException> refused) {
    this.request = request;
    this.limit = limit;
    this.bodySeconds = bodySeconds;
    this.deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(bodySeconds);
    this.done = done;
    this.refused = refused;
  }

  /**
   * Reads the body of {@code request}, at most {@code limit} bytes within {@code bodySeconds}, then
   * hands it to {@code done}, or a refusal to {@code refused}; exactly one of them is called once.
   */
  static void read(
      Request request,
      int limit,
      int bodySeconds,
      Consumer<byte[]> done,
      Consumer<RuntimeException> refused) {
    long declared = request.getLength();
    if (declared > limit) {
      refused.accept(tooLarge(limit));
      return;
    }
    new RequestBody(request, limit, bodySeconds, done, refused).run();
  }

  @Override
  public void run() {
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        Throwable x = chunk.getFailure();
        refused.accept(
            x instanceof TimeoutException
                ? new RequestRefusedException(
                    408, "the request body stalled (nothing arrived within the idle timeout)")
                : new BadRequestException("unreadable request body: " + x.getMessage()));
        return;
      }
      ByteBuffer b = chunk.getByteBuffer();
      boolean last = chunk.isLast();
      if (bytes.size() + b.remaining() > limit) {
        chunk.release();
        refused.accept(tooLarge(limit));
        return;
      }
      byte[] part = new byte[b.remaining()];
      b.get(part);
      bytes.writeBytes(part);
      chunk.release();
      if (last) {
        done.accept(bytes.toByteArray());
        return;
      }
      if (System.nanoTime() > deadline) {
        refused.accept(
            new RequestRefusedException(
                408,
                "the request body did not arrive within "
                    + bodySeconds
                    + " s of its head; send it at once"));
        return;
      }
    }
  }

  private static RequestRefusedException tooLarge(int limit) {
    return new RequestRefusedException(
        413,
        "request body over "
            + Endpoints.count(limit >> 20)
            + " MiB, the limit for this endpoint; send it in parts");
  }
}
