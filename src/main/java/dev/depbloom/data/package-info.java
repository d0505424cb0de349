/**
 * Events as columns ({@link dev.depbloom.data.EventStream}), feature matrices, the chronological
 * {@link dev.depbloom.data.Split}, node id maps, the seeded {@link dev.depbloom.data.RandomStreams}
 * and the input errors every layer reports with. The bottom layer: imports no other package of the
 * project (its sub-packages import it, never the other way round).
 */
package dev.depbloom.data;
