package dev.depbloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.api.TemporalLinkPredictor;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module boundary (src/main/java/module-info.java): module {@code dev.depbloom} exports {@code
 * dev.depbloom.api} and nothing else, so a module that requires it compiles against the API and
 * cannot name an internal type, public or not. The tests themselves run on the class path, where
 * the boundary does not hold; here javac compiles a small consumer module on the module path, with
 * the compiled main classes as module {@code dev.depbloom} and the main dependency jars of this
 * JVM's class path.
 */
class ModuleBoundaryTest {
  private static final String MODULE = "dev.depbloom";

  /** Jars only the tests use: not needed by dev.depbloom, and kept off the module path. */
  private static final Pattern TEST_ONLY =
      Pattern.compile("junit|archunit|opentest4j|apiguardian|surefire");

  private static final String CONSUMER_MODULE = "module consumer {\n  requires dev.depbloom;\n}\n";

  @TempDir Path dir;

  @Test
  void theModuleExportsExactlyTheApiPackage() {
    ModuleDescriptor d = descriptor();
    assertFalse(d.isOpen(), "an open module lets every caller reflect on every package");
    Set<String> exported =
        d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    assertEquals(Set.of("dev.depbloom.api"), exported);
    for (ModuleDescriptor.Exports e : d.exports()) {
      assertFalse(e.isQualified(), "the API is exported to every module: " + e);
    }
  }

  @Test
  void theModuleOpensPackagesOnlyToTheLibrariesThatReflect() {
    for (ModuleDescriptor.Opens o : descriptor().opens()) {
      assertTrue(o.isQualified(), "opened to every module: " + o.source());
    }
  }

  @Test
  void theModuleProvidesTheFamiliesTheServicesFileLists() throws IOException {
    String service = "dev.depbloom.schedule.ScheduleFamily";
    List<String> listed =
        Files.readAllLines(mainClasses().resolve("META-INF/services/" + service)).stream()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    List<String> provided =
        descriptor().provides().stream()
            .filter(p -> p.service().equals(service))
            .flatMap(p -> p.providers().stream())
            .toList();
    assertEquals(listed, provided, "module-info's provides and META-INF/services differ");
    assertTrue(descriptor().uses().contains(service));
  }

  @Test
  void aConsumerModuleCompilesAgainstTheApi() throws IOException {
    String source =
        """
        package consumer;

        import dev.depbloom.api.Interaction;
        import dev.depbloom.api.TemporalLinkPredictor;
        import java.nio.file.Path;
        import java.util.List;

        public final class Consumer {
          public static float scoreAfter(Path run) {
            try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
              p.observe(List.of(new Interaction(0, 1, p.newestTime() + 1)));
              return p.score(0, 1, TemporalLinkPredictor.NEWEST);
            }
          }
        }
        """;
    List<Diagnostic<? extends JavaFileObject>> errors = compileConsumer(source);
    assertTrue(errors.isEmpty(), () -> "the consumer does not compile: " + describe(errors));
  }

  @Test
  void aConsumerModuleCannotNameAnInternalType() throws IOException {
    String source =
        """
        package consumer;

        import dev.depbloom.train.Trainer;

        public final class Consumer {
          public static Class<?> internal() {
            return Trainer.class;
          }
        }
        """;
    List<Diagnostic<? extends JavaFileObject>> errors = compileConsumer(source);
    assertFalse(errors.isEmpty(), "a consumer module named dev.depbloom.train.Trainer");
    assertTrue(
        errors.stream()
            .anyMatch(
                e ->
                    e.getCode().equals("compiler.err.package.not.visible")
                        && e.getMessage(null).contains("dev.depbloom.train")
                        && e.getMessage(null).contains("does not export")),
        () -> "expected 'package dev.depbloom.train is not visible', got: " + describe(errors));
  }

  /** The errors of compiling module {@code consumer} with {@code source} as consumer.Consumer. */
  private List<Diagnostic<? extends JavaFileObject>> compileConsumer(String source)
      throws IOException {
    Path src = dir.resolve("src");
    Path moduleInfo = src.resolve("module-info.java");
    Path consumer = src.resolve("consumer").resolve("Consumer.java");
    Files.createDirectories(consumer.getParent());
    Files.writeString(moduleInfo, CONSUMER_MODULE);
    Files.writeString(consumer, source);
    Path out = Files.createDirectories(dir.resolve("out"));

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      // javac in process would default to this JVM's class path, where every package is visible
      files.setLocation(StandardLocation.CLASS_PATH, List.of());
      List<String> options =
          List.of("--module-path", modulePath(), "-d", out.toString(), "-proc:none");
      boolean ok =
          javac
              .getTask(
                  null,
                  files,
                  diagnostics,
                  options,
                  null,
                  files.getJavaFileObjects(moduleInfo, consumer))
              .call();
      List<Diagnostic<? extends JavaFileObject>> errors =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
              .collect(Collectors.toList());
      assertEquals(ok, errors.isEmpty(), () -> describe(diagnostics.getDiagnostics()));
      return errors;
    }
  }

  /** The compiled main classes, then the jars of this JVM's class path that main needs. */
  private static String modulePath() {
    Stream<String> jars =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(p -> p.endsWith(".jar"))
            .filter(p -> !TEST_ONLY.matcher(Path.of(p).getFileName().toString()).find());
    return Stream.concat(Stream.of(mainClasses().toString()), jars)
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static ModuleDescriptor descriptor() {
    return ModuleFinder.of(mainClasses())
        .find(MODULE)
        .orElseThrow(() -> new AssertionError("no module-info.class in " + mainClasses()))
        .descriptor();
  }

  /** Where the main classes were loaded from: target/classes under Maven. */
  private static Path mainClasses() {
    try {
      return Path.of(
          TemporalLinkPredictor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String describe(List<Diagnostic<? extends JavaFileObject>> ds) {
    return ds.stream().map(d -> d.getMessage(null)).collect(Collectors.joining("\n"));
  }
}
