/**
 * Partitioners that cut a DepBloom temporal window into sub-chains ({@link
 * dev.depbloom.partition.ContiguousPartitioner}, {@link
 * dev.depbloom.partition.TopologyPartitioner}, chosen by {@link
 * dev.depbloom.partition.PartitionerKind}) and the partition they return. Imports {@code data}
 * only; how good a partition is, is the profile's to measure.
 */
package dev.depbloom.partition;
