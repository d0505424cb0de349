package dev.depbloom.data;

/** The input formats the loaders understand; {@code BINARY} is the project's own event store. */
public enum DataFormat {
  /**
   * TGL data directory: {@code edges.csv} ({@code ,src,dst,time,int_roll,ext_roll}) + {@code .pt}.
   */
  TGL,
  /** JODIE CSV: {@code user_id,item_id,timestamp,state_label,features...}. */
  JODIE,
  /** DyGLib: {@code ml_X.csv} + {@code ml_X.npy} + {@code ml_X_node.npy}. */
  DYGLIB,
  /** SNAP whitespace edge list: {@code src dst time [weight...]}. */
  SNAP,
  /** SNAP signed network CSV: {@code src,dst,rating,time}; the rating is a 1-dim edge feature. */
  SNAP_SIGNED,
  /** CSV with a header whose columns the user maps with {@code --columns}. */
  CSV,
  /** The project's binary event store, written by {@code depbloom convert}. */
  BINARY
}
