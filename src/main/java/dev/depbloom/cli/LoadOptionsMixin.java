package dev.depbloom.cli;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.load.ColumnMapping;
import dev.depbloom.data.load.LoadOptions;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** The options every command that reads event data shares: format, columns, strictness. */
final class LoadOptionsMixin {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      converter = DataFormatConverter.class,
      description = {
        "Input format; detected from the path and the first line when omitted.",
        "tgl: directory with edges.csv (,src,dst,time,int_roll,ext_roll) + optional"
            + " edge_features.pt / node_features.pt.",
        "jodie: user_id,item_id,timestamp,state_label,features... (items offset after users).",
        "dyglib: ml_X.csv (,u,i,ts,label,idx) + ml_X.npy + ml_X_node.npy.",
        "snap: 'src dst time [weight...]', whitespace-separated, # comments.",
        "snap-signed: 'src,dst,rating,time' without header.",
        "csv: header CSV (see --columns).",
        "binary: the project's event store."
      })
  DataFormat format;

  @Option(
      names = "--columns",
      paramLabel = "MAPPING",
      description = {
        "Column mapping by header name, e.g. src=source,dst=destination,time=timestamp,features=w+x"
            + " (feature columns joined by + or ;; implies --format csv), or by 1-based position,"
            + " e.g. src=1,dst=2,time=3,features=5, for any delimited file with or without"
            + " header (other columns are ignored). Without it, well-known header names are"
            + " mapped: src|source|u|user_id, dst|destination|i|item_id, time|timestamp|ts;"
            + " label|state_label|idx are ignored; other numeric columns become edge features."
      })
  String columns;

  @Option(
      names = "--strict",
      description = "Reject input that is not sorted by time (default: sort it stably and warn).")
  boolean strict;

  @Option(
      names = "--bipartite",
      negatable = true,
      description = {
        "Treat the graph as bipartite (or not, with --no-bipartite); detected when omitted:"
            + " bipartite when no node is both a source and a destination."
      })
  Boolean bipartite;

  /** The loader options, with warnings printed to {@code err}. */
  LoadOptions toLoadOptions(PrintWriter err) {
    ColumnMapping mapping = columns != null ? ColumnMapping.parse(columns) : null;
    return new LoadOptions(
        format,
        mapping,
        strict,
        bipartite,
        message -> {
          err.println("depbloom: warning: " + message);
          err.flush();
        });
  }
}
