package dev.depbloom.model.config;

import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Writes a resolved {@link ModelConfig} as TGL-style YAML with every key explicit, so a run's
 * {@code config.yml} documents what ran and reads back ({@link ConfigReader}) to the same record.
 * The {@code schedule} section, the file's last, is appended by the schedule layer.
 */
public final class ConfigWriter {
  private ConfigWriter() {}

  public static String toYaml(ModelConfig c) {
    StringBuilder y = new StringBuilder();
    y.append("# resolved configuration of model '").append(c.name()).append("'\n");
    SamplingConfig s = c.sampling();
    y.append("sampling:\n");
    if (!s.enabled()) {
      y.append("  - no_sample: true\n");
      y.append("    history: ").append(s.history()).append('\n');
    } else {
      y.append("  - layer: ").append(s.layers()).append('\n');
      y.append("    neighbor: [")
          .append(s.neighbors().stream().map(String::valueOf).collect(Collectors.joining(", ")))
          .append("]\n");
      y.append("    strategy: ").append(lower(s.strategy())).append('\n');
      y.append("    prop_time: ").append(s.propTime()).append('\n');
      y.append("    history: ").append(s.history()).append('\n');
      y.append("    duration: ").append(number(s.duration())).append('\n');
    }
    MemoryConfig m = c.memory();
    y.append("memory:\n");
    if (!m.enabled()) {
      y.append("  - type: none\n");
    } else {
      y.append("  - type: node\n");
      y.append("    dim_out: ").append(m.dim()).append('\n');
      y.append("    dim_time: ").append(m.dimTime()).append('\n');
      y.append("    deliver_to: ").append(lower(m.deliverTo())).append('\n');
      y.append("    mail_combine: last\n");
      y.append("    memory_update: ").append(lower(m.updater())).append('\n');
      y.append("    mailbox_size: ").append(m.mailboxSize()).append('\n');
      y.append("    combine_node_feature: ").append(m.combineNodeFeature()).append('\n');
      y.append("    attention_head: ").append(m.attentionHeads()).append('\n');
      y.append("    time_delta: ").append(lower(m.timeDelta())).append('\n');
    }
    GnnConfig g = c.gnn();
    y.append("gnn:\n");
    y.append("  - arch: ").append(lower(g.arch())).append('\n');
    y.append("    layer: ").append(g.layers()).append('\n');
    y.append("    att_head: ").append(g.attentionHeads()).append('\n');
    y.append("    dim_time: ").append(g.dimTime()).append('\n');
    y.append("    dim_out: ").append(g.dimOut()).append('\n');
    y.append("    time_transform: ").append(lower(g.timeTransform())).append('\n');
    y.append("    combine: ").append(lower(g.combine())).append('\n');
    TrainConfig t = c.train();
    y.append("train:\n");
    y.append("  - epoch: ").append(t.epochs()).append('\n');
    y.append("    batch_size: ").append(t.batchSize()).append('\n');
    y.append("    lr: ").append(number(t.learningRate())).append('\n');
    y.append("    dropout: ").append(number(t.dropout())).append('\n');
    y.append("    att_dropout: ").append(number(t.attentionDropout())).append('\n');
    y.append("    eval_negatives: ").append(t.evalNegatives()).append('\n');
    return y.toString();
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
  }
}
