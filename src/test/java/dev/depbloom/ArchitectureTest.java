package dev.depbloom;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package map of src/main (README, "Code layout"): the layers follow the data flow, a layer
 * imports only the layers below it, and no two packages depend on each other, sub-packages included
 * (a sub-package such as {@code schedule.depbloom} may import its parent, never the other way
 * round).
 */
class ArchitectureTest {
  /** The layers, lowest first; packages of one layer do not depend on each other in a cycle. */
  private static final List<List<String>> LAYERS =
      List.of(
          List.of("data"),
          List.of("data.io"),
          List.of("data.store"),
          List.of("data.synthetic"),
          List.of("data.load"),
          List.of("batch"),
          List.of("sampling"),
          List.of("partition"),
          List.of("profile"),
          List.of("tensor"),
          List.of("observe"),
          List.of("projection"),
          List.of("memory"),
          List.of("nn"),
          List.of("model.config"),
          List.of("model"),
          List.of("step"),
          List.of("eval"),
          List.of("device"),
          List.of("schedule"),
          List.of("schedule.depbloom", "schedule.disttgl", "schedule.sequential"),
          List.of("recording"),
          List.of("train"),
          List.of("api"),
          List.of("serve"),
          List.of("bench"),
          List.of("cli"));

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.depbloom");
  }

  private static String[] packages(List<List<String>> layers) {
    return layers.stream()
        .flatMap(List::stream)
        .map(p -> "dev.depbloom." + p)
        .toArray(String[]::new);
  }

  @Test
  void noPackageDependsOnAPackageThatDependsOnIt() {
    slices().matching("dev.depbloom.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void everyPackageOfTheCodeIsInALayer() {
    noClasses()
        .should()
        .resideOutsideOfPackages(packages(LAYERS))
        .because("every package of src/main belongs to one layer of ArchitectureTest.LAYERS")
        .check(classes);
  }

  @Test
  void aLayerImportsOnlyTheLayersBelowIt() {
    for (int i = 0; i + 1 < LAYERS.size(); i++) {
      String[] layer = packages(LAYERS.subList(i, i + 1));
      String[] above = packages(LAYERS.subList(i + 1, LAYERS.size()));
      noClasses()
          .that()
          .resideInAnyPackage(layer)
          .should()
          .dependOnClassesThat(resideInAnyPackage(above))
          .because(Arrays.toString(layer) + " lies below " + Arrays.toString(above))
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
    String family = "dev.depbloom.schedule.depbloom";
    noClasses()
        .that()
        .resideOutsideOfPackage(family)
        .should()
        .dependOnClassesThat(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "are DepBloom technique classes",
                (com.tngtech.archunit.core.domain.JavaClass c) ->
                    c.getPackageName().equals(family) && !familyFace(c)))
        .because("techniques are the depbloom family's own; outside it, only its face is named")
        .check(classes);
  }

  /**
   * Every schedule family is built only through the registry: outside its folder, no class names a
   * family's schedules or helpers, only its config record and its {@code ScheduleFamily} (which the
   * registry finds with {@code ServiceLoader}). So a family's folder can change alone, and a new
   * one needs no edit elsewhere.
   */
  @Test
  void aFamilyIsNamedOutsideItsFolderOnlyByItsFace() {
    for (String name : List.of("sequential", "disttgl", "depbloom")) {
      String family = "dev.depbloom.schedule." + name;
      noClasses()
          .that()
          .resideOutsideOfPackage(family)
          .should()
          .dependOnClassesThat(
              com.tngtech.archunit.base.DescribedPredicate.describe(
                  "are the insides of the " + name + " family",
                  (JavaClass c) -> c.getPackageName().equals(family) && !familyFace(c)))
          .because("schedules are built through ScheduleFamilies, never named")
          .check(classes);
    }
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
            com.tngtech.archunit.base.DescribedPredicate.describe(
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

  @Test
  void theLayersListEveryPackageOnce() {
    List<String> all = Arrays.asList(packages(LAYERS));
    assertEquals(new HashSet<>(all).size(), all.size(), "a package in two layers: " + all);
  }
}
