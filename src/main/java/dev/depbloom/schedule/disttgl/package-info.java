/**
 * DistTGL (Zhou et al., VLDB 2024; amazon-science/disttgl): mini-batch parallelism inside memory
 * groups that walk the stream from staggered starts. Imports {@code schedule} and the layers below
 * it. {@link DistTglConfig} and {@link DistTglFamily} read, resolve and build it.
 */
package dev.depbloom.schedule.disttgl;
