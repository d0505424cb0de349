package dev.depbloom;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package map of src/main (docs/architecture.md, "Code layout"): each package uses only the
 * packages its entry of {@link #MAY_USE} names, the map itself has no cycle, and no two packages
 * depend on each other in the code, sub-packages included (a sub-package such as {@code
 * schedule.depbloom} may import its parent, never the other way round). Then the rules of the
 * design that cut across packages: the families' insides, the round engine and its observers, the
 * API's surface.
 */
class ArchitectureTest {
  /**
   * The design: what each package may use of the project (besides itself; the JDK and the libraries
   * are not listed). A package's entry names the packages it is allowed to import, not all that lie
   * below it: a new dependency is a design change made here, in review. The layers of
   * docs/architecture.md are the order this map keeps (no package uses one to its right).
   */
  private static final Map<String, List<String>> MAY_USE =
      Map.ofEntries(
          entry("data"),
          entry("data.io", "data"),
          entry("data.store", "data"),
          entry("data.synthetic", "data"),
          entry("data.load", "data", "data.io", "data.store"),
          entry("batch", "data"),
          entry("sampling", "data"),
          entry("partition", "data"),
          // the generator's ProgressListener is the profile's progress callback
          entry("profile", "data", "data.synthetic", "batch", "sampling", "partition"),
          entry("tensor", "data"),
          // plain data about a run: timers, trace, round costs and recorded kernels
          entry("observe", "tensor"),
          entry("projection", "data", "tensor", "observe"),
          entry("memory", "tensor"),
          entry("nn", "tensor"),
          entry("model.config", "data", "sampling"),
          entry("model", "data", "batch", "sampling", "tensor", "memory", "nn", "model.config"),
          // what one device runs; it names of observe only the Stage vocabulary
          entry(
              "step",
              "data",
              "batch",
              "sampling",
              "tensor",
              "observe",
              "memory",
              "nn",
              "model.config",
              "model"),
          entry(
              "eval",
              "data",
              "batch",
              "sampling",
              "tensor",
              "observe",
              "memory",
              "nn",
              "model.config",
              "model",
              "step"),
          entry("device", "data", "tensor", "memory"),
          // the round engine: no timer, trace or projection (theRoundEngineImportsNoObserver)
          entry(
              "schedule",
              "data",
              "batch",
              "sampling",
              "tensor",
              "observe",
              "memory",
              "model.config",
              "model",
              "step",
              "device"),
          entry("schedule.sequential", "data", "batch", "model.config", "schedule"),
          entry("schedule.disttgl", "data", "batch", "observe", "model.config", "schedule"),
          entry(
              "schedule.depbloom",
              "data",
              "batch",
              "sampling",
              "partition",
              "profile",
              "tensor",
              "observe",
              "memory",
              "model.config",
              "model",
              "step",
              "device",
              "schedule"),
          // the listeners of the round's events
          entry("recording", "tensor", "observe", "memory", "step", "schedule"),
          entry(
              "train",
              "data",
              "data.load",
              "tensor",
              "observe",
              "memory",
              "model.config",
              "model",
              "step",
              "eval",
              "device",
              "schedule",
              "recording"),
          // the API: a trained run served; it trains through nothing but train's types
          entry(
              "api",
              "data",
              "batch",
              "sampling",
              "tensor",
              "memory",
              "model.config",
              "model",
              "step",
              "eval",
              "schedule",
              "train"),
          entry("serve", "api"),
          entry(
              "bench",
              "data",
              "batch",
              "sampling",
              "partition",
              "profile",
              "tensor",
              "observe",
              "projection",
              "model.config",
              "model",
              "step",
              "eval",
              "device",
              "schedule",
              "schedule.sequential",
              "schedule.disttgl",
              "schedule.depbloom",
              "recording",
              "train",
              "api",
              "serve"),
          entry(
              "cli",
              "data",
              "data.load",
              "data.store",
              "data.synthetic",
              "partition",
              "profile",
              "tensor",
              "observe",
              "projection",
              "model.config",
              "step",
              "eval",
              "device",
              "schedule",
              "train",
              "api",
              "serve",
              "bench"));

  private static Map.Entry<String, List<String>> entry(String pkg, String... mayUse) {
    return Map.entry(pkg, List.of(mayUse));
  }

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.depbloom");
  }

  @Test
  void noPackageDependsOnAPackageThatDependsOnIt() {
    slices().matching("dev.depbloom.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void theMapHasNoCycle() {
    Map<String, Integer> state = new java.util.HashMap<>(); // 1: on the path, 2: done
    for (String p : MAY_USE.keySet()) {
      assertEquals(List.of(), cycleFrom(p, state, new ArrayList<>()), "a cycle in MAY_USE");
    }
  }

  private static List<String> cycleFrom(String p, Map<String, Integer> state, List<String> path) {
    Integer st = state.get(p);
    if (st != null) {
      return st == 1 ? new ArrayList<>(path.subList(path.indexOf(p), path.size())) : List.of();
    }
    state.put(p, 1);
    path.add(p);
    for (String q : MAY_USE.getOrDefault(p, List.of())) {
      List<String> c = cycleFrom(q, state, path);
      if (!c.isEmpty()) {
        return c;
      }
    }
    path.remove(path.size() - 1);
    state.put(p, 2);
    return List.of();
  }

  @Test
  void everyPackageOfTheCodeHasItsEntry() {
    noClasses()
        .should()
        .resideOutsideOfPackages(
            MAY_USE.keySet().stream().map(p -> "dev.depbloom." + p).toArray(String[]::new))
        .because("every package of src/main states what it may use in ArchitectureTest.MAY_USE")
        .check(classes);
  }

  @Test
  void eachPackageUsesOnlyWhatItMay() {
    for (Map.Entry<String, List<String>> e : MAY_USE.entrySet()) {
      String pkg = "dev.depbloom." + e.getKey();
      Set<String> allowed = new HashSet<>();
      allowed.add(pkg);
      e.getValue().forEach(p -> allowed.add("dev.depbloom." + p));
      noClasses()
          .that()
          .resideInAPackage(pkg)
          .should()
          .dependOnClassesThat(
              DescribedPredicate.describe(
                  "are of a package " + e.getKey() + " may not use",
                  (JavaClass t) -> {
                    String p = t.getBaseComponentType().getPackageName();
                    return p.startsWith("dev.depbloom") && !allowed.contains(p);
                  }))
          .because(e.getKey() + " may use " + e.getValue() + " (ArchitectureTest.MAY_USE)")
          .check(classes);
    }
  }

  /**
   * DepBloom's techniques (refinement with its micro-batch chain and overlay, the critical-path
   * commit, the window-end exchange, the temporal windows) are named only inside {@code
   * schedule.depbloom}: the engine reaches them through its interfaces ({@code Refinement}, {@code
   * CommitPolicy}, {@code WriteExchange}, {@code step.ReadThrough}), and other packages name only
   * the family's face: its config record (with the records nested in it) and its {@code
   * ScheduleFamily}; its schedules are built through {@code ScheduleFamilies}.
   */
  @Test
  void depBloomsTechniquesAreNamedOnlyInTheirFamily() {
    onlyTheFaceIsNamedOutside("depbloom", "are DepBloom technique classes")
        .because("techniques are the depbloom family's own; outside it, only its face is named")
        .check(classes);
  }

  /**
   * Every schedule family is built only through the registry: outside its folder, no class names a
   * family's schedules or helpers, only its config record and its {@code ScheduleFamily} (which the
   * registry finds with {@code ServiceLoader}). So a family's folder can change alone, and a new
   * one needs no edit elsewhere. (The depbloom family's folder is held to this by the rule above.)
   */
  @Test
  void aFamilyIsNamedOutsideItsFolderOnlyByItsFace() {
    for (String name : List.of("sequential", "disttgl")) {
      onlyTheFaceIsNamedOutside(name, "are the insides of the " + name + " family")
          .because("schedules are built through ScheduleFamilies, never named")
          .check(classes);
    }
  }

  /** No class outside family {@code name}'s folder names a class of it but its face. */
  private static ArchRule onlyTheFaceIsNamedOutside(String name, String insides) {
    String family = "dev.depbloom.schedule." + name;
    return noClasses()
        .that()
        .resideOutsideOfPackage(family)
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                insides, (JavaClass c) -> c.getPackageName().equals(family) && !familyFace(c)));
  }

  /**
   * The round engine ({@code schedule}, the families' folders and the {@code step} it drives) knows
   * no observer: it tells what happened as {@code schedule.RoundEvent}s to {@code RoundListener}s,
   * and a task measures itself into a {@code step.StageClock}. Stage timers, the Chrome trace, the
   * round costs and recorded work, the projection and the listeners that fill them ({@code
   * recording}) lie outside it. Of {@code observe} it names only the vocabulary: the {@code Stage}
   * names and a schedule's {@code MemoryPlacement}.
   */
  @Test
  void theRoundEngineImportsNoObserver() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.depbloom.schedule..", "dev.depbloom.step..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "are observers (of observe: all but Stage and MemoryPlacement; projection;"
                    + " recording)",
                (JavaClass t) -> observer(t.getBaseComponentType())))
        .because("the engine emits RoundEvents; timing, trace and work recording listen to them")
        .check(classes);
  }

  private static boolean observer(JavaClass c) {
    String p = c.getPackageName();
    return p.startsWith("dev.depbloom.projection")
        || p.startsWith("dev.depbloom.recording")
        || (p.equals("dev.depbloom.observe")
            && !List.of("Stage", "MemoryPlacement").contains(c.getSimpleName()));
  }

  /** A family's config (the records nested in it included) and its family class. */
  private static boolean familyFace(JavaClass c) {
    String topLevel = c.getName().substring(c.getPackageName().length() + 1).split("\\$")[0];
    return topLevel.endsWith("Config") || topLevel.endsWith("Family");
  }

  /**
   * The API is the {@code api} package's public types: their public constructors, methods and
   * fields take and return only {@code api} types, the JDK's, primitives and arrays of these, so
   * that no internal type becomes part of what a user compiles against.
   */
  @Test
  void theApiExposesOnlyApiAndJdkTypes() {
    List<String> leaks = new ArrayList<>();
    for (JavaClass c : classes) {
      if (!c.getPackageName().equals("dev.depbloom.api")
          || !c.getModifiers().contains(JavaModifier.PUBLIC)) {
        continue;
      }
      for (JavaCodeUnit m : c.getCodeUnits()) {
        if (!m.getModifiers().contains(JavaModifier.PUBLIC)) {
          continue;
        }
        List<JavaClass> types = new ArrayList<>(m.getRawParameterTypes());
        types.add(m.getRawReturnType());
        for (JavaClass t : types) {
          if (!exposable(t)) {
            leaks.add(m.getFullName() + " exposes " + t.getName());
          }
        }
      }
      for (JavaField f : c.getFields()) {
        if (f.getModifiers().contains(JavaModifier.PUBLIC) && !exposable(f.getRawType())) {
          leaks.add(f.getFullName() + " exposes " + f.getRawType().getName());
        }
      }
    }
    assertEquals(List.of(), leaks);
  }

  private static boolean exposable(JavaClass t) {
    if (t.isArray()) {
      return exposable(t.getComponentType());
    }
    return t.isPrimitive()
        || t.getPackageName().startsWith("java.")
        || t.getPackageName().equals("dev.depbloom.api");
  }
}
