package dev.depbloom.data.synthetic;

import dev.depbloom.data.RandomStreams;
import java.util.SplittableRandom;

/**
 * Which community every node is in, and the destination nodes of each community with an alias table
 * over their activity. Destinations are all nodes, or the items of a bipartite graph.
 */
final class CommunityLayout {
  private final int[] community; // [N]
  private final int[] members; // [D], destination nodes grouped by community
  private final int[] memberStart; // [C + 1]
  private final AliasTable memberTable; // segment c over members of community c, by activity
  private final AliasTable communityTable; // one segment over communities, by member activity
  private final int[] nonEmpty; // communities with at least one destination, ascending

  private CommunityLayout(
      int[] community,
      int[] members,
      int[] memberStart,
      AliasTable memberTable,
      AliasTable communityTable,
      int[] nonEmpty) {
    this.community = community;
    this.members = members;
    this.memberStart = memberStart;
    this.memberTable = memberTable;
    this.communityTable = communityTable;
    this.nonEmpty = nonEmpty;
  }

  /** Assigns nodes to communities uniformly at random and indexes the destinations. */
  static CommunityLayout of(SyntheticGraphConfig config, double[] activity) {
    int n = config.nodes();
    int c = config.communities();
    SplittableRandom random =
        RandomStreams.stream(config.seed(), RandomStreams.key("synthetic.community"));
    int[] community = new int[n];
    for (int v = 0; v < n; v++) {
      community[v] = random.nextInt(c);
    }
    int firstDestination = config.bipartite() ? config.sourceNodes() : 0;
    int[] memberStart = new int[c + 1];
    for (int v = firstDestination; v < n; v++) {
      memberStart[community[v] + 1]++;
    }
    for (int k = 0; k < c; k++) {
      memberStart[k + 1] += memberStart[k];
    }
    int[] members = new int[n - firstDestination];
    int[] next = memberStart.clone();
    for (int v = firstDestination; v < n; v++) {
      members[next[community[v]]++] = v;
    }
    double[] memberWeight = new double[members.length];
    double[] communityWeight = new double[c];
    int nonEmptyCount = 0;
    for (int k = 0; k < c; k++) {
      for (int j = memberStart[k]; j < memberStart[k + 1]; j++) {
        memberWeight[j] = activity[members[j]];
        communityWeight[k] += memberWeight[j];
      }
      nonEmptyCount += memberStart[k + 1] > memberStart[k] ? 1 : 0;
    }
    int[] nonEmpty = new int[nonEmptyCount];
    for (int k = 0, i = 0; k < c; k++) {
      if (memberStart[k + 1] > memberStart[k]) {
        nonEmpty[i++] = k;
      }
    }
    return new CommunityLayout(
        community,
        members,
        memberStart,
        new AliasTable(memberWeight, memberStart),
        AliasTable.of(communityWeight),
        nonEmpty);
  }

  int[] communities() {
    return community;
  }

  /** Destinations in community {@code c}. */
  int size(int c) {
    return memberStart[c + 1] - memberStart[c];
  }

  /** A community by the activity of its destinations; never one without destinations. */
  int sampleCommunity(SplittableRandom random) {
    return communityTable.sample(0, random);
  }

  /** A destination of community {@code c}, by activity. */
  int sampleMember(int c, SplittableRandom random) {
    return members[memberTable.sample(c, random)];
  }

  int uniformMember(int c, SplittableRandom random) {
    return members[memberStart[c] + random.nextInt(size(c))];
  }

  /** A uniformly chosen community with destinations other than {@code own}, or {@code own}. */
  int uniformNonEmptyCommunityOtherThan(int own, SplittableRandom random) {
    int candidates = nonEmpty.length;
    int i = random.nextInt(candidates);
    if (nonEmpty[i] != own) {
      return nonEmpty[i];
    }
    return candidates == 1 ? own : nonEmpty[(i + 1 + random.nextInt(candidates - 1)) % candidates];
  }
}
