package dev.depbloom.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.InputException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** torchrun's environment variables, as any launcher sets them. */
class RankEnvironmentTest {
  private static Map<String, String> torchrun() {
    Map<String, String> env = new HashMap<>();
    env.put("MASTER_ADDR", "10.0.0.1");
    env.put("MASTER_PORT", "29500");
    env.put("WORLD_SIZE", "4");
    env.put("RANK", "3");
    env.put("LOCAL_RANK", "1");
    env.put("LOCAL_WORLD_SIZE", "2");
    env.put("GROUP_RANK", "1");
    return env;
  }

  @Test
  void torchrunsVariablesPlaceTheProcessAmongMachines() {
    RankEnvironment e = RankEnvironment.of(torchrun());
    assertEquals(new RankEnvironment("10.0.0.1", 29500, 3, 4, 1, 2, 1, 2, null), e);
    assertTrue(e.distributed());
    assertFalse(e.loopback());
    assertEquals("10.0.0.1:29500", e.master());
  }

  @Test
  void nnodesAndNodeRankAreTakenWhereGivenAndLocalValuesDerivedWhereNot() {
    Map<String, String> env = new HashMap<>();
    env.put("MASTER_PORT", "1234");
    env.put("WORLD_SIZE", "4");
    env.put("RANK", "2");
    env.put("NNODES", "2");
    env.put("GLOO_SOCKET_IFNAME", "eth1");
    RankEnvironment e = RankEnvironment.of(env);
    assertEquals(new RankEnvironment("127.0.0.1", 1234, 2, 4, 0, 2, 1, 2, "eth1"), e);
    assertTrue(e.loopback());
  }

  @Test
  void withoutAWorldSizeOfSeveralTheProcessRunsAlone() {
    assertEquals(RankEnvironment.SINGLE, RankEnvironment.of(Map.of()));
    assertEquals(RankEnvironment.SINGLE, RankEnvironment.of(Map.of("WORLD_SIZE", "1")));
    assertFalse(RankEnvironment.SINGLE.distributed());
  }

  @Test
  void malformedOrContradictoryVariablesAreNamed() {
    Map<String, String> env = torchrun();
    env.put("RANK", "4");
    assertEquals("RANK=4: expected 0 <= RANK < WORLD_SIZE=4", message(env));
    env = torchrun();
    env.remove("MASTER_PORT");
    assertEquals(
        "MASTER_PORT is not set: a run of WORLD_SIZE > 1 processes needs it (torchrun's"
            + " variables)",
        message(env));
    env = torchrun();
    env.put("LOCAL_RANK", "one");
    assertEquals("LOCAL_RANK=one: expected an integer", message(env));
    env = torchrun();
    env.put("NNODES", "3");
    assertEquals("NNODES=3: expected a divisor of WORLD_SIZE", message(env));
    env = torchrun();
    env.put("MASTER_PORT", "70000");
    assertEquals("MASTER_PORT=70000: expected a TCP port 1 .. 65535", message(env));
  }

  private static String message(Map<String, String> env) {
    return assertThrows(InputException.class, () -> RankEnvironment.of(env)).getMessage();
  }
}
