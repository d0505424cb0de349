package dev.depbloom.cli;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.store.EventStoreWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code depbloom convert IN OUT}: loads a data set once and writes it as a binary event store,
 * which later runs load by memory mapping in seconds.
 */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Converts a temporal graph data set into a binary event store (a directory with"
          + " manifest.json and one little-endian file per column), which loads in seconds.",
      ""
    })
final class ConvertCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "IN", description = "Data set to read.")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "Event store directory to write.")
  Path out;

  @CommandLine.Mixin LoadOptionsMixin load;

  @Option(names = "--force", description = "Replace OUT if it is an existing event store.")
  boolean force;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    EventStoreWriter.checkTarget(out.toAbsolutePath().normalize(), force);
    long start = System.nanoTime();
    EventStream events = EventLoader.load(in, load.toLoadOptions(spec.commandLine().getErr()));
    long loaded = System.nanoTime();
    EventStoreWriter.write(events, out, force);
    long written = System.nanoTime();
    spec.commandLine()
        .getOut()
        .printf(
            "wrote %s: %,d events, %,d nodes; loaded in %.1f s, written in %.1f s%n",
            out,
            events.eventCount(),
            events.nodeCount(),
            (loaded - start) / 1e9,
            (written - loaded) / 1e9);
    return 0;
  }
}
