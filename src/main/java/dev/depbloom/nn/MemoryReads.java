package dev.depbloom.nn;

import org.bytedeco.pytorch.Tensor;

/**
 * What a batch reads from node memory, deduplicated twice: D distinct nodes carry memory and mail;
 * U unique reads (node, read time) point at their node and carry the time deltas. A memory updater
 * computes one updated memory per unique read.
 *
 * @param memory {@code [D, dim]} memory of the distinct nodes
 * @param mail {@code [D, m, mailDim]} their mailboxes
 * @param readNode {@code [U]} int64: the distinct node of each read
 * @param sinceUpdate {@code [U]} read time minus the node's memory time (TGL's {@code ts - mem_ts})
 * @param sinceMail {@code [U, m]} read time minus each mail's time (transformer updater)
 */
public record MemoryReads(
    Tensor memory, Tensor mail, Tensor readNode, Tensor sinceUpdate, Tensor sinceMail) {}
