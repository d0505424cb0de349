/**
 * The {@code depbloom} commands (picocli), their shared options as mixins, run set-up and the
 * rendezvous of processes. The top layer: may import every other package.
 */
package dev.depbloom.cli;
