package dev.depbloom.observe;

/**
 * Where a schedule keeps node memory and mailboxes on real GPUs, which decides the host-device
 * traffic of a round (docs/projection.md, "The round model").
 */
public enum MemoryPlacement {
  /**
   * On the device: TGL on one GPU, and DepBloom, where a chain's view stays on its devices for a
   * whole window and rows cross the link only to the chain's other devices, at merges and at
   * prefill handoffs.
   */
  DEVICE,
  /**
   * In host shared memory, served by one daemon process per memory group (DistTGL, amazon-science/
   * disttgl {@code mailbox_daemon.py}): every round the daemon applies the group's writes and then
   * gathers each trainer's reads, one trainer after the other, and every trainer copies its reads
   * to the GPU and its writes back through pageable memory.
   */
  HOST_DAEMON
}
