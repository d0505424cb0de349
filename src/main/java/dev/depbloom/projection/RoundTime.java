package dev.depbloom.projection;

/**
 * A round's projected time on a device model and where it goes, along the round's critical path:
 * the components add up to {@code seconds}.
 *
 * @param seconds the round, start to end
 * @param compute kernels bound by their FLOPs or bytes
 * @param launch kernels bound by their launch overhead
 * @param hostTraffic host-device copies (memory rows through pageable memory, for DistTGL)
 * @param daemon the memory daemon's serial gathers and applies in host memory (DistTGL)
 * @param link device-to-device transfers: refined micro-batches' writes, replicas, merges, prefill
 *     handoffs
 * @param allReduce the gradient all-reduce
 * @param sample host sampling not hidden behind the previous round
 */
public record RoundTime(
    double seconds,
    double compute,
    double launch,
    double hostTraffic,
    double daemon,
    double link,
    double allReduce,
    double sample) {
  public static final RoundTime ZERO = new RoundTime(0, 0, 0, 0, 0, 0, 0, 0);

  public RoundTime plus(RoundTime o) {
    return new RoundTime(
        seconds + o.seconds,
        compute + o.compute,
        launch + o.launch,
        hostTraffic + o.hostTraffic,
        daemon + o.daemon,
        link + o.link,
        allReduce + o.allReduce,
        sample + o.sample);
  }

  /** A path of kernels only. */
  static RoundTime of(KernelCost k) {
    return new RoundTime(k.seconds(), k.computeSeconds(), k.launchSeconds(), 0, 0, 0, 0, 0);
  }

  static RoundTime hostTraffic(double s) {
    return new RoundTime(s, 0, 0, s, 0, 0, 0, 0);
  }

  static RoundTime daemon(double s) {
    return new RoundTime(s, 0, 0, 0, s, 0, 0, 0);
  }

  static RoundTime link(double s) {
    return new RoundTime(s, 0, 0, 0, 0, s, 0, 0);
  }

  static RoundTime allReduce(double s) {
    return new RoundTime(s, 0, 0, 0, 0, 0, s, 0);
  }

  static RoundTime sample(double s) {
    return new RoundTime(s, 0, 0, 0, 0, 0, 0, s);
  }

  /** The longer of two paths. */
  static RoundTime longer(RoundTime a, RoundTime b) {
    return b.seconds > a.seconds ? b : a;
  }
}
