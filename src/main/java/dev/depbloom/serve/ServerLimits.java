package dev.depbloom.serve;

/**
 * What one request or client may cost the server (docs/serving.md, "Limits"). A request over a
 * count limit is refused with 413 naming the limit and its flag, before any scoring; a body that
 * stalls or trickles is cut off with 408; requests beyond what the model workers and their queue
 * hold get 503. {@code /health} and {@code /metrics} never wait for the model workers.
 *
 * @param maxEvents events one {@code POST /events} may carry ({@code --max-events})
 * @param maxPairs pairs one {@code POST /score} may carry ({@code --max-pairs})
 * @param maxCandidates candidates one {@code POST /rank} may carry ({@code --max-candidates})
 * @param eventBodyBytes bytes a {@code POST /events} body may have
 * @param queryBodyBytes bytes a {@code POST /score} or {@code /rank} body may have
 * @param idleSeconds a connection that sends nothing for this long is closed, whether it is in a
 *     request's head, in its body, or between requests
 * @param bodySeconds a request's body must arrive within this long of its head
 * @param queue requests that may wait for a model worker; more get 503
 * @param connections open connections at most; more wait in the accept queue
 */
public record ServerLimits(
    int maxEvents,
    int maxPairs,
    int maxCandidates,
    int eventBodyBytes,
    int queryBodyBytes,
    int idleSeconds,
    int bodySeconds,
    int queue,
    int connections) {
  /** The defaults: 50,000 events, 10,000 pairs or candidates, 32 and 16 MiB, 10 s, 10 s, 64. */
  public static final ServerLimits DEFAULTS =
      new ServerLimits(50_000, 10_000, 10_000, 32 << 20, 16 << 20, 10, 10, 64, 1_000);

  public ServerLimits {
    if (maxEvents < 1 || maxPairs < 1 || maxCandidates < 1) {
      throw new IllegalArgumentException("request limits must be at least 1");
    }
    if (eventBodyBytes < 1 || queryBodyBytes < 1 || idleSeconds < 1 || bodySeconds < 1) {
      throw new IllegalArgumentException("body limits and timeouts must be positive");
    }
    if (queue < 0 || connections < 1) {
      throw new IllegalArgumentException("queue must be >= 0 and connections >= 1");
    }
  }

  public ServerLimits withCounts(int events, int pairs, int candidates) {
    return new ServerLimits(
        events,
        pairs,
        candidates,
        eventBodyBytes,
        queryBodyBytes,
        idleSeconds,
        bodySeconds,
        queue,
        connections);
  }

  public ServerLimits withTimeouts(int idle, int body) {
    return new ServerLimits(
        maxEvents,
        maxPairs,
        maxCandidates,
        eventBodyBytes,
        queryBodyBytes,
        idle,
        body,
        queue,
        connections);
  }
}
