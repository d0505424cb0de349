package dev.depbloom.data.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * Recognises gzip data by its magic bytes ({@code 1f 8b}), not by the file name, and decompresses
 * it transparently. Concatenated gzip members (as {@code cat a.gz b.gz} makes) read as one stream.
 */
public final class GzipSniffer {
  private static final int BUFFER_BYTES = 1 << 16;

  private GzipSniffer() {}

  /**
   * The decompressed content of {@code raw} when it starts with the gzip magic, otherwise {@code
   * raw} itself (buffered). The returned stream supports {@code mark}/{@code reset}.
   */
  public static BufferedInputStream decompressIfGzip(InputStream raw) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, BUFFER_BYTES);
    if (!startsWithGzipMagic(in)) {
      return in;
    }
    return new BufferedInputStream(new GZIPInputStream(in, BUFFER_BYTES), BUFFER_BYTES);
  }

  /** True when the next two bytes of {@code in} are the gzip magic; does not consume them. */
  public static boolean startsWithGzipMagic(BufferedInputStream in) throws IOException {
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    return b0 == 0x1f && b1 == 0x8b;
  }
}
