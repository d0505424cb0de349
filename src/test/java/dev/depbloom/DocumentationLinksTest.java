package dev.depbloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and of the pages under {@code docs/} leads somewhere: the file
 * exists, and a {@code #fragment} names a heading of the target page (GitHub's anchors: lower case,
 * punctuation dropped, spaces as hyphens). Links to other sites are not followed.
 */
class DocumentationLinksTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  @Test
  void everyRelativeLinkOfTheDocumentationResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : pages()) {
      String text = Files.readString(page);
      Matcher m = LINK.matcher(withoutCode(text));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("<")) {
          continue; // http:, https:, mailto: ...
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(page + ": " + target + " (no such file)");
        } else if (fragment != null
            && resolved.toString().endsWith(".md")
            && !anchors(resolved).contains(fragment)) {
          broken.add(page + ": " + target + " (no such heading)");
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  /** README.md and every Markdown page under docs/. */
  private static List<Path> pages() throws IOException {
    List<Path> out = new ArrayList<>();
    out.add(Path.of("README.md").toAbsolutePath());
    if (Files.isDirectory(Path.of("docs"))) {
      try (Stream<Path> s = Files.walk(Path.of("docs").toAbsolutePath())) {
        s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
      }
    }
    return out;
  }

  /** The text with fenced and inline code blanked out (links inside code are not links). */
  private static String withoutCode(String text) {
    return text.replaceAll("(?s)```.*?```", "").replaceAll("`[^`\\n]*`", "");
  }

  /** GitHub's anchors of a page's headings (a repeated heading gets -1, -2, ...). */
  static Set<String> anchors(Path page) throws IOException {
    Set<String> out = new HashSet<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher h = HEADING.matcher(line);
      if (fenced || !h.matches()) {
        continue;
      }
      String slug =
          h.group(1)
              .toLowerCase(Locale.ROOT)
              .replaceAll("`", "")
              .replaceAll("[^\\p{L}\\p{N} _-]", "")
              .replace(' ', '-');
      String unique = slug;
      for (int n = 1; out.contains(unique); n++) {
        unique = slug + "-" + n;
      }
      out.add(unique);
    }
    return out;
  }
}
