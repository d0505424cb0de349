/**
 * A model's config as TGL defines it: four sections ({@code sampling}, {@code memory}, {@code gnn},
 * {@code train}) read from YAML with checks that name the key, written back explicitly, and the
 * model zoo (the one place a model's name is looked at). The file's fifth section, {@code
 * schedule}, is handed to the schedule layer through {@link
 * dev.depbloom.model.config.SectionReader}. Imports {@code data} and {@code sampling}.
 */
package dev.depbloom.model.config;
