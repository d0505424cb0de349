package dev.depbloom.data.synthetic;

/** Told how far a long computation has come; the command line prints it, tests ignore it. */
@FunctionalInterface
public interface ProgressListener {
  /** Listens to nothing. */
  ProgressListener NONE = (stage, done, total) -> {};

  /** {@code done} of {@code total} units of {@code stage} are finished. */
  void progress(String stage, long done, long total);
}
