package dev.depbloom.model.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigReaderTest {
  private static String error(String yaml) {
    return assertThrows(
            ConfigException.class, () -> ConfigReader.parse(yaml, "c.yml", "m", Map.of()))
        .getMessage();
  }

  @Test
  void tglsOwnFileFormatLoadsWithEverySectionAListOfOne() {
    ModelConfig c =
        ConfigReader.parse(
            "sampling:\n  - layer: 1\n    neighbor: [10]\n    strategy: 'recent'\n    prop_time: False\n"
                + "    history: 1\n    duration: 0\n    num_thread: 32\n"
                + "memory:\n  - type: 'node'\n    dim_time: 100\n    deliver_to: 'self'\n"
                + "    mail_combine: 'last'\n    memory_update: 'gru'\n    mailbox_size: 1\n"
                + "    combine_node_feature: True\n    dim_out: 100\n"
                + "gnn:\n  - arch: 'transformer_attention'\n    use_src_emb: False\n"
                + "    use_dst_emb: False\n    layer: 1\n    att_head: 2\n    dim_time: 100\n"
                + "    dim_out: 100\n"
                + "train:\n  - epoch: 100\n    batch_size: 600\n    lr: 0.0001\n    dropout: 0.2\n"
                + "    att_dropout: 0.2\n    all_on_gpu: True\n",
            "TGN.yml",
            "tgn",
            Map.of());
    assertEquals(List.of(10), c.sampling().neighbors());
    assertEquals(MemoryConfig.Updater.GRU, c.memory().updater());
    assertEquals(100, c.train().epochs());
    assertEquals(1e-4, c.train().learningRate());
  }

  @Test
  void theFiveShippedModelsAreTheirTglConfigurations() {
    assertEquals(MemoryConfig.Updater.RNN, ModelZoo.config("jodie", Map.of()).memory().updater());
    assertEquals(
        GnnConfig.TimeTransform.JODIE, ModelZoo.config("jodie", Map.of()).gnn().timeTransform());
    assertEquals(10, ModelZoo.config("apan", Map.of()).memory().mailboxSize());
    assertEquals(
        MemoryConfig.Delivery.NEIGHBORS, ModelZoo.config("apan", Map.of()).memory().deliverTo());
    assertEquals(List.of(10, 10), ModelZoo.config("tgat", Map.of()).sampling().neighbors());
    assertEquals(false, ModelZoo.config("tgat", Map.of()).memory().enabled());
    assertEquals(3, ModelZoo.config("dysat", Map.of()).sampling().history());
    assertEquals(0, ModelZoo.config("dysat", Map.of()).gnn().dimTime());
    ModelConfig wide = ModelZoo.config("tgn-wide", Map.of());
    assertEquals(172, wide.memory().dim());
    assertEquals(172, wide.gnn().dimOut());
    assertEquals(List.of(8), wide.sampling().neighbors());
  }

  @Test
  void resolvedConfigReadsBackToTheSameRecord() {
    for (String model : ModelZoo.MODELS) {
      ModelConfig c = ModelZoo.config(model, Map.of("train.lr", "0.002"));
      ModelConfig back = ConfigReader.parse(ConfigWriter.toYaml(c), "config.yml", model, Map.of());
      assertEquals(c, back, model);
    }
  }

  @Test
  void theUpdatersTimeDeltaIsTglsReadTimeUnlessSetToTheMails() {
    for (String model : ModelZoo.MODELS) {
      assertEquals(
          MemoryConfig.TimeDelta.READ, ModelZoo.config(model, Map.of()).memory().timeDelta());
    }
    ModelConfig c = ModelZoo.config("jodie", Map.of("memory.time_delta", "mail"));
    assertEquals(MemoryConfig.TimeDelta.MAIL, c.memory().timeDelta());
    assertEquals(2 * 100 + 172 + 1, c.memory().mailDim(172)); // the delta is one more column
    assertEquals(2 * 100 + 172, ModelZoo.config("jodie", Map.of()).memory().mailDim(172));
    assertEquals(c, ConfigReader.parse(ConfigWriter.toYaml(c), "config.yml", "jodie", Map.of()));
  }

  @Test
  void overridesByPathReplaceValuesBeforeValidation() {
    ModelConfig c =
        ModelZoo.config("tgn", Map.of("memory.dim_out", "32", "sampling.neighbor", "[5]"));
    assertEquals(32, c.memory().dim());
    assertEquals(List.of(5), c.sampling().neighbors());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "memory: {mailbox_sise: 1}|c.yml: memory.mailbox_sise: unknown key",
        "trian: {epoch: 1}|c.yml: trian: unknown section",
        "train: {epoch: -1}|c.yml: train.epoch: expected a positive integer, got -1",
        "train: {lr: 0}|c.yml: train.lr: expected a positive number, got 0.0",
        "train: {batch_size: lots}|c.yml: train.batch_size: expected an integer, got 'lots'",
        "train: {dropout: 1.5}|c.yml: train.dropout: expected a number in [0.0, 0.999], got 1.5",
        "sampling: {strategy: newest}|c.yml: sampling.strategy: expected one of [recent, uniform]",
        "sampling: {layer: 2, neighbor: [10, 10, 10]}|c.yml: sampling.neighbor: has 3 fanouts but layer is 2",
        "memory: {memory_update: gru, mailbox_size: 4}|c.yml: memory.mailbox_size: the gru updater reads one mail",
        "gnn: {att_head: 3}|c.yml: gnn.att_head: 3 heads do not divide dim_out 100",
        "gnn: {layer: 2}|c.yml: gnn.layer is 2 but sampling has 1 layers",
        "sampling: {history: 3, duration: 0}|c.yml: sampling.duration: must be positive when history > 1",
        "memory: {memory_update: transformer, time_delta: mail}|c.yml: memory.time_delta: 'mail' is for the gru and rnn updaters",
        "memory: {time_delta: event}|c.yml: memory.time_delta: expected one of [read, mail]",
      })
  void mistakesNameTheKeyAndWhatWasExpected(String yaml, String expectedStart) {
    String message = error(yaml);
    assertEquals(
        expectedStart,
        message.substring(0, Math.min(message.length(), expectedStart.length())),
        message);
  }

  @Test
  void invalidYamlSaysWhereTheParserStopped() {
    assertEquals(true, error("train: [epoch: 1\n").startsWith("c.yml: not valid YAML"));
  }

  @Test
  void anOverrideOutsideTheFourSectionsIsAnError() {
    ConfigException e =
        assertThrows(
            ConfigException.class, () -> ModelZoo.config("tgn", Map.of("optimizer.lr", "1")));
    assertEquals(
        "--set optimizer.lr: expected section.key with section one of sampling, memory, gnn, train, schedule",
        e.getMessage());
  }

  @Test
  void anUnknownModelNamesTheKnownOnes() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> ModelZoo.config("tgnn", Map.of()));
    assertEquals(
        "--model tgnn: unknown model (known: [jodie, tgn, apan, tgat, dysat, tgn-wide])",
        e.getMessage());
  }

  @Test
  void propTimeFalseWithSnapshotsIsRejectedNamingTheKey() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () -> ModelZoo.config("dysat", Map.of("sampling.prop_time", "false")));
    assertTrue(e.getMessage().contains("sampling.prop_time is false"), e.getMessage());
  }

  @Test
  void snapshotsWithoutPropTimeQueryEveryLayerAtTheRootsTime() {
    ModelConfig c =
        ConfigReader.parse(
            "sampling:\n  - layer: 2\n    neighbor: [10, 10]\n    strategy: 'uniform'\n"
                + "    history: 3\n    duration: 100\n"
                + "memory:\n  - type: 'none'\n    dim_out: 0\n"
                + "gnn:\n  - arch: 'transformer_attention'\n    layer: 2\n    att_head: 2\n"
                + "    dim_time: 0\n    dim_out: 100\n    combine: 'rnn'\n"
                + "train:\n  - epoch: 1\n",
            "snapshots.yml",
            "snapshots",
            Map.of());
    assertTrue(c.sampling().propTime());
  }
}
