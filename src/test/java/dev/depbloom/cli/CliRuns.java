package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.data.DataFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs of the command line in this JVM, and what a run folder says, for the tests of the command
 * line and of what it writes.
 */
public final class CliRuns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CliRuns() {}

  /** What a run of the command line printed, and its exit status. */
  public record Outcome(int status, String out, String err) {
    /** The last line of standard output as JSON (the {@code --json} summary). */
    public JsonNode summary() {
      List<String> lines = out.strip().lines().toList();
      try {
        return JSON.readTree(lines.get(lines.size() - 1));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Standard error, line by line. */
    public List<String> errLines() {
      return err.lines().toList();
    }

    /** Asserts exit status 0, with standard error as the message. */
    public Outcome succeeded() {
      assertEquals(0, status, err);
      return this;
    }
  }

  /** Runs {@code args} in process, capturing both outputs; asserts nothing. */
  public static Outcome execute(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int status = cl.execute(args);
    return new Outcome(status, out.toString(), err.toString());
  }

  /** As {@link #execute(String...)}. */
  public static Outcome execute(List<String> args) {
    return execute(args.toArray(new String[0]));
  }

  /** Runs {@code args} in process, asserts exit status 0 and returns the {@code --json} summary. */
  static JsonNode runInProcess(List<String> args) {
    return run(args).summary();
  }

  /** Runs {@code args} in process and asserts exit status 0. */
  static Outcome run(List<String> args) {
    return execute(args).succeeded();
  }

  /**
   * CollegeMsg's first 300 events as a TGL data directory in {@code dir} whose {@code ext_roll}
   * makes the first {@code train} events training events, the next {@code val} validation events
   * and the rest test events (instead of 70/15/15).
   */
  static Path collegeMsgWithSplit(Path dir, int train, int val) {
    try {
      List<String> events = Files.readAllLines(DataFiles.fixture("cuts/CollegeMsg-head300.txt"));
      StringBuilder csv = new StringBuilder(",src,dst,time,int_roll,ext_roll\n");
      for (int i = 0; i < events.size(); i++) {
        String[] f = events.get(i).trim().split(" ");
        int split = i < train ? 0 : i < train + val ? 1 : 2;
        csv.append(i).append(',').append(f[0]).append(',').append(f[1]).append(',').append(f[2]);
        csv.append(",0,").append(split).append('\n');
      }
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("edges.csv"), csv);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The last finished epoch a run's {@code state.json} records (0 while it is being replaced). */
  static int lastEpoch(Path state) {
    try {
      return JSON.readTree(state.toFile()).get("lastEpoch").asInt();
    } catch (IOException e) {
      return 0; // being replaced right now
    }
  }
}
