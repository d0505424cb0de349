package dev.depbloom.train;

import dev.depbloom.device.Collective;
import dev.depbloom.device.Traffic;
import dev.depbloom.schedule.Schedule;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the processes of a run tell each other after an epoch: the bytes each sent, its parameter
 * checksum (equal on every rank, or the run stops), and the stage times of the logical devices it
 * ran. For one process there is nothing to gather.
 */
final class RankReport {
  private final Collective collective;
  private final Schedule schedule;

  RankReport(Collective collective, Schedule schedule) {
    this.collective = collective;
    this.schedule = schedule;
  }

  /** Bytes this process has sent so far, by {@link Traffic} kind. */
  record BytesSent(Map<Traffic, Long> byKind) {
    long of(Traffic kind) {
      return byKind.get(kind);
    }

    /** What was sent since {@code before}. */
    BytesSent since(BytesSent before) {
      Map<Traffic, Long> out = new EnumMap<>(Traffic.class);
      byKind.forEach((k, v) -> out.put(k, v - before.of(k)));
      return new BytesSent(out);
    }
  }

  BytesSent bytesSent() {
    Map<Traffic, Long> out = new EnumMap<>(Traffic.class);
    for (Traffic t : Traffic.values()) {
      out.put(t, collective.bytesSent(t));
    }
    return new BytesSent(out);
  }

  /**
   * Every rank's bytes of the epoch and parameter checksum (none for one process).
   *
   * @throws IllegalStateException when the ranks' parameters differ
   */
  List<RankMetrics> rankMetrics(int epoch, BytesSent sent, String checksum) {
    if (collective.worldSize() == 1) {
      return List.of();
    }
    long memory = sent.of(Traffic.MEMORY);
    long gradients = sent.of(Traffic.GRADIENTS);
    long other = sent.of(Traffic.LOSS) + sent.of(Traffic.CONTROL);
    long[] all =
        collective.allGather(new long[] {gradients, memory, other, Long.parseLong(checksum, 16)});
    List<RankMetrics> ranks = new ArrayList<>();
    for (int r = 0; r < collective.worldSize(); r++) {
      String crc = String.format("%08x", all[4 * r + 3]);
      ranks.add(new RankMetrics(r, all[4 * r], all[4 * r + 1], all[4 * r + 2], crc));
      if (!crc.equals(checksum)) {
        throw new IllegalStateException(
            "the parameters of rank "
                + r
                + " differ from rank "
                + collective.rank()
                + "'s after epoch "
                + epoch
                + ": checksum "
                + crc
                + " vs "
                + checksum);
      }
    }
    return ranks;
  }

  /**
   * Each logical device's stage seconds as measured by the process that ran it (this process's
   * timers hold zeros for the devices of other ranks).
   */
  List<Map<String, Double>> deviceTimesOfAllRanks(List<Map<String, Double>> local) {
    int w = collective.worldSize();
    if (w == 1) {
      return local;
    }
    List<String> keys = List.copyOf(local.get(0).keySet());
    long[] mine = new long[local.size() * keys.size()];
    for (int d = 0; d < local.size(); d++) {
      for (int k = 0; k < keys.size(); k++) {
        mine[d * keys.size() + k] = Double.doubleToRawLongBits(local.get(d).get(keys.get(k)));
      }
    }
    long[] all = collective.allGather(mine);
    List<Map<String, Double>> out = new ArrayList<>();
    for (int d = 0; d < local.size(); d++) {
      int from = schedule.rankOf(d, w) * mine.length + d * keys.size();
      Map<String, Double> m = new LinkedHashMap<>();
      for (int k = 0; k < keys.size(); k++) {
        m.put(keys.get(k), Double.longBitsToDouble(all[from + k]));
      }
      out.add(m);
    }
    return out;
  }
}
