/**
 * The dependency profile of a stream before any training (docs/profile.md): lost dependencies,
 * cross-chain events, intra-batch staleness, hot/cold rows, and from them the recommended window,
 * partitioner, chains and micro-batches. Imports {@code data} (and its synthetic progress
 * listener), {@code batch}, {@code sampling} and {@code partition}.
 */
package dev.depbloom.profile;
