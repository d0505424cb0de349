/**
 * The project's binary event store: checksummed columns, a manifest, memory-mapped reading and
 * writing. Imports {@code data} only.
 */
package dev.depbloom.data.store;
