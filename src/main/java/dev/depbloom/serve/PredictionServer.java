package dev.depbloom.serve;

import dev.depbloom.api.RejectedInputException;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.serve.Endpoints.Endpoint;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * HTTP with JSON in front of a {@link TemporalLinkPredictor}: {@code POST /events}, {@code POST
 * /score}, {@code POST /rank}, {@code POST /snapshot}, {@code GET /health}, {@code GET /metrics}
 * (Prometheus text); docs/serving.md gives the requests and answers. A refused request gets 400
 * with one line naming the line or the field, and changes nothing.
 *
 * <p><b>Slow and greedy clients.</b> The server is Jetty's core server: it parses a request's head
 * without holding a thread, so half-sent requests cost a connection, not a worker, and a connection
 * silent for {@link ServerLimits#idleSeconds()} is closed. Bodies are read the same way ({@link
 * RequestBody}). Model work (events, scores, ranks, snapshots) runs on a bounded pool of model
 * workers with a bounded queue (more: 503); {@code /health} and {@code /metrics} are answered on
 * the server's own threads and never wait for them. Counts per request are limited (413).
 *
 * <p>{@link #close()} shuts down gracefully: it stops accepting requests (503), lets those in
 * flight finish (up to {@link Options#drainSeconds()}), then writes a snapshot when one is
 * configured. The predictor stays open; its owner closes it.
 */
public final class PredictionServer implements AutoCloseable {
  /**
   * @param host the address to listen on ({@code 127.0.0.1}: this machine only)
   * @param port the port (0: any free one, see {@link #port()})
   * @param threads model workers: requests that score or observe at once
   * @param snapshot where {@code POST /snapshot}, the periodic snapshots and a graceful shutdown
   *     write the state, or null
   * @param drainSeconds how long a shutdown waits for requests in flight
   * @param limits what one request or client may cost
   * @param snapshotSeconds a snapshot every this many seconds when the state changed (0: none)
   */
  public record Options(
      String host,
      int port,
      int threads,
      Path snapshot,
      int drainSeconds,
      ServerLimits limits,
      int snapshotSeconds) {
    public Options {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1: " + threads);
      }
      if (snapshotSeconds < 0) {
        throw new IllegalArgumentException("snapshot interval must be >= 0: " + snapshotSeconds);
      }
    }

    /** The default limits, no periodic snapshots. */
    public Options(String host, int port, int threads, Path snapshot, int drainSeconds) {
      this(host, port, threads, snapshot, drainSeconds, ServerLimits.DEFAULTS, 0);
    }
  }

  private final TemporalLinkPredictor predictor;
  private final Options options;
  private final Server jetty;
  private final ServerConnector connector;
  private final ThreadPoolExecutor workers;
  private final ScheduledExecutorService snapshots; // null: no periodic snapshots
  private final ServerMetrics metrics = new ServerMetrics();
  private final Endpoints endpoints;
  private final Object flight = new Object(); // guards inFlight and closing
  private int inFlight; // requests being answered
  private boolean closing; // new requests get 503
  private boolean closed;
  private long snapshotVersion = -1; // the version the last periodic snapshot wrote

  private PredictionServer(TemporalLinkPredictor predictor, Options options) {
    this.predictor = predictor;
    this.options = options;
    this.endpoints = new Endpoints(predictor, options.limits(), options.snapshot(), metrics);
    ServerLimits limits = options.limits();
    QueuedThreadPool http = new QueuedThreadPool(32, 4);
    http.setName("depbloom-http");
    http.setDaemon(true);
    this.jetty = new Server(http);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendDateHeader(false);
    config.setRequestHeaderSize(16 << 10);
    this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(config));
    connector.setHost(options.host());
    connector.setPort(options.port());
    connector.setIdleTimeout(TimeUnit.SECONDS.toMillis(limits.idleSeconds()));
    jetty.addConnector(connector);
    jetty.addBean(new NetworkConnectionLimit(limits.connections(), connector));
    jetty.setErrorHandler(this::protocolError);
    jetty.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            PredictionServer.this.handle(request, response, callback);
            return true;
          }
        });
    AtomicInteger n = new AtomicInteger();
    BlockingQueue<Runnable> queue =
        limits.queue() == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(limits.queue());
    this.workers =
        new ThreadPoolExecutor(
            options.threads(),
            options.threads(),
            0,
            TimeUnit.MILLISECONDS,
            queue,
            r -> {
              Thread t = new Thread(r, "depbloom-model-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.snapshots =
        options.snapshotSeconds() > 0 && options.snapshot() != null
            ? Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "depbloom-snapshots");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /** Starts serving {@code predictor}; an address it cannot listen on is an error that says so. */
  public static PredictionServer start(TemporalLinkPredictor predictor, Options options) {
    PredictionServer server = new PredictionServer(predictor, options);
    try {
      server.jetty.start();
    } catch (Exception e) {
      server.workers.shutdownNow();
      if (server.snapshots != null) {
        server.snapshots.shutdownNow();
      }
      throw new IllegalStateException("cannot listen there: " + e.getMessage(), e);
    }
    if (server.snapshots != null) {
      long every = options.snapshotSeconds();
      server.snapshots.scheduleWithFixedDelay(
          server::periodicSnapshot, every, every, TimeUnit.SECONDS);
    }
    return server;
  }

  /** The port the server listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  /** {@code http://host:port}. */
  public URI uri() {
    return URI.create("http://" + options.host() + ":" + port());
  }

  private void handle(Request request, Response response, Callback callback) {
    long t0 = System.nanoTime();
    String path = Request.getPathInContext(request);
    Endpoint e = Endpoint.of(path);
    String name = e == null ? "other" : path;
    boolean head = "HEAD".equals(request.getMethod());
    synchronized (flight) {
      if (closing) {
        send(response, callback, Answer.error(503, "shutting down"), name, t0, head);
        return;
      }
      inFlight++;
    }
    Callback finished = counted(callback);
    if (e == null) {
      send(
          response,
          finished,
          Answer.error(404, "no endpoint " + path + " (" + Endpoints.paths() + ")"),
          name,
          t0,
          head);
    } else if (!e.takes(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, e.method.equals("GET") ? "GET, HEAD" : e.method);
      send(response, finished, Answer.error(405, path + " takes " + e.method), name, t0, head);
    } else if (!e.model) {
      send(response, finished, answer(e, new byte[0], false), name, t0, head);
    } else {
      boolean score = "true".equals(Request.extractQueryParameters(request).getValue("score"));
      RequestBody.read(
          request,
          endpoints.bodyLimit(e),
          options.limits().bodySeconds(),
          body -> {
            try {
              submit(() -> send(response, finished, answer(e, body, score), name, t0, false));
            } catch (RequestRefusedException busy) {
              send(response, finished, refused(busy), name, t0, false);
            }
          },
          refusal -> send(response, finished, refused(refusal), name, t0, false));
    }
  }

  /** Runs model work on a model worker; none free and the queue full: 503 at once. */
  private void submit(Runnable work) {
    try {
      workers.execute(work);
    } catch (RejectedExecutionException x) {
      throw new RequestRefusedException(
          503,
          "the model workers are busy ("
              + workers.getActiveCount()
              + " running, "
              + workers.getQueue().size()
              + " waiting); retry shortly");
    }
  }

  private Answer answer(Endpoint e, byte[] body, boolean score) {
    try {
      return endpoints.answer(e, body, score);
    } catch (RuntimeException | Error x) {
      return refused(x);
    }
  }

  /** The answer to a refusal or a failure: a status and one line, never a stack trace. */
  private static Answer refused(Throwable x) {
    if (x instanceof BadRequestException || x instanceof RejectedInputException) {
      return Answer.error(400, x.getMessage());
    }
    if (x instanceof RequestRefusedException r) {
      return Answer.error(r.status(), r.getMessage());
    }
    if (x instanceof OutOfMemoryError) {
      return Answer.error(503, "out of memory answering this request; send a smaller one");
    }
    String what = x.getClass().getSimpleName();
    String message = x.getMessage() == null ? "" : x.getMessage().lines().findFirst().orElse("");
    // a native failure's message is its whole C++ trace: its first line says what failed
    return Answer.error(500, "internal error: " + what + (message.isEmpty() ? "" : ": " + message));
  }

  /**
   * Records the request, then sends its answer (a {@code HEAD} gets the headers only): a client
   * that has its answer finds the request in the next scrape.
   */
  private void send(
      Response response, Callback callback, Answer answer, String endpoint, long t0, boolean head) {
    metrics.record(endpoint, answer.status(), (System.nanoTime() - t0) / 1e9);
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.type());
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.body().length);
    response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(answer.body()), callback);
  }

  /** Jetty's own refusals (a malformed request line, a head too large): JSON like ours. */
  private boolean protocolError(Request request, Response response, Callback callback) {
    Object status = request.getAttribute(ErrorHandler.ERROR_STATUS);
    Object message = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
    int code = status instanceof Integer i ? i : 400;
    String text = message == null ? "malformed HTTP request" : message.toString();
    send(
        response, callback, Answer.error(code, "HTTP: " + text), "other", System.nanoTime(), false);
    return true;
  }

  /** {@code callback}, then the request leaves the in-flight count, however it ended. */
  private Callback counted(Callback callback) {
    return new Callback() {
      @Override
      public void succeeded() {
        try {
          callback.succeeded();
        } finally {
          finished();
        }
      }

      @Override
      public void failed(Throwable x) {
        try {
          callback.failed(x);
        } finally {
          finished();
        }
      }
    };
  }

  private void finished() {
    synchronized (flight) {
      inFlight--;
      flight.notifyAll();
    }
  }

  private void periodicSnapshot() {
    try {
      long version = predictor.version();
      if (version != snapshotVersion) {
        snapshotVersion = predictor.snapshot(options.snapshot());
      }
    } catch (RuntimeException e) {
      System.err.println("depbloom: warning: periodic snapshot not written: " + e.getMessage());
    }
  }

  /**
   * Stops accepting requests, lets those in flight finish, then writes the snapshot (if one is
   * configured). Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (snapshots != null) {
      // not shutdownNow: an interrupt would close the journal's channel mid-write; a periodic
      // snapshot under way finishes (the final one below waits for it on the writer lock anyway)
      snapshots.shutdown();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.drainSeconds());
    synchronized (flight) {
      closing = true;
      try {
        for (long left = deadline - System.nanoTime();
            inFlight > 0 && left > 0;
            left = deadline - System.nanoTime()) {
          TimeUnit.NANOSECONDS.timedWait(flight, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      jetty.stop();
    } catch (Exception e) {
      System.err.println("depbloom: warning: the HTTP server did not stop cleanly: " + e);
    }
    workers.shutdown();
    if (options.snapshot() != null) {
      predictor.snapshot(options.snapshot());
    }
  }
}
