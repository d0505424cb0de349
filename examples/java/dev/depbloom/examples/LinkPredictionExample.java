package dev.depbloom.examples;

import dev.depbloom.api.Interaction;
import dev.depbloom.api.RankedNode;
import dev.depbloom.api.Ranking;
import dev.depbloom.api.TemporalLinkPredictor;
import java.nio.file.Path;
import java.util.List;

/**
 * Using a trained model from Java: load a run folder, feed it events as they arrive, ask for link
 * probabilities and a ranking, save the state. Compiled by {@code mvn verify}; run it with
 *
 * <pre>
 * java -cp "target/classes:target/test-classes:target/lib/*" \
 *     dev.depbloom.examples.LinkPredictionExample runs/tgn-... [USER PAGE PAGE ...]
 * </pre>
 *
 * <p>The default ids are the embedded Wikipedia's (users 0..8226, pages 8227..9226).
 */
public final class LinkPredictionExample {
  private LinkPredictionExample() {}

  public static void main(String[] args) {
    Path run = Path.of(args[0]);
    long user = args.length > 1 ? Long.parseLong(args[1]) : 0;
    long[] pages = {8227, 8228, 8229, 8230};
    if (args.length > 2) {
      pages = new long[args.length - 2];
      for (int i = 2; i < args.length; i++) {
        pages[i - 2] = Long.parseLong(args[i]);
      }
    }
    try (TemporalLinkPredictor predictor = TemporalLinkPredictor.load(run)) {
      double now = predictor.newestTime(); // the last event the run saw
      // two edits arrive: memory and neighbor index are brought up to date (one batch, version 1)
      long version =
          predictor.observe(
              List.of(
                  new Interaction(user, pages[0], now + 10),
                  new Interaction(user, pages[1], now + 20)));
      float p = predictor.score(user, pages[1], now + 30);
      System.out.printf("version %d: P(%d -> %d) = %.4f%n", version, user, pages[1], p);
      Ranking top = predictor.rank(user, pages, now + 30, 3);
      for (RankedNode n : top.top()) {
        System.out.printf("  %d  %.4f%n", n.node(), n.score());
      }
      predictor.snapshot(run.resolve("serving").resolve("example.snapshot"));
    }
  }
}
