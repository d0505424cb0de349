package dev.depbloom.nn;

import org.bytedeco.pytorch.GeneratorOptional;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;

/**
 * Re-initialisation of parameters held by built-in modules.
 *
 * <p>Parameters are always held by built-in modules ({@code LinearImpl}, {@code GRUCellImpl}, ...)
 * and read through their accessors when used: those return references to the module's own members,
 * which never move. A tensor returned by {@code register_parameter} is a reference into the
 * module's parameter dictionary, which moves when more parameters are registered; keeping it
 * crashes the JVM.
 */
final class Init {
  private Init() {}

  /** Fills {@code parameter} in place from {@code N(0, std)}. */
  static void normal(Tensor parameter, double std) {
    try (NoGradGuard g = new NoGradGuard()) {
      parameter.normal_(0, std, new GeneratorOptional());
    }
  }

  /** Copies {@code values} into {@code parameter} in place. */
  static void copy(Tensor parameter, Tensor values) {
    try (NoGradGuard g = new NoGradGuard()) {
      parameter.copy_(values);
    }
  }
}
