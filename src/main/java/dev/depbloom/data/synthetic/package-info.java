/**
 * The generator of synthetic temporal graphs (communities, node arrivals, alias tables) that
 * benchmarks and tests use. Imports {@code data} only.
 */
package dev.depbloom.data.synthetic;
