package dev.depbloom.data.store;

/**
 * The columns of an event store: each one file of little-endian values, named in the manifest under
 * {@link #key()}. {@code E} is the event count, {@code N} the node count.
 */
public enum StoreColumn {
  /** Source node of every event, dense id: int32 {@code [E]}. */
  SRC("src", "src.i32", "int32", 4),
  /** Destination node of every event, dense id: int32 {@code [E]}. */
  DST("dst", "dst.i32", "int32", 4),
  /** Event time, non-decreasing: float64 {@code [E]}. */
  TIME("time", "time.f64", "float64", 8),
  /** Optional TGL {@code ext_roll} split label (0 train, 1 val, 2 test): uint8 {@code [E]}. */
  SPLIT("split", "split.u8", "uint8", 1),
  /** Original id of every dense node id, strictly increasing: int64 {@code [N]}. */
  NODE_IDS("node_ids", "node_ids.i64", "int64", 8),
  /** Optional edge features, row-major: float32 {@code [E, edgeFeatureDim]}. */
  EDGE_FEATURES("edge_features", "edge_features.f32", "float32", 4),
  /** Optional node features, row-major: float32 {@code [N, nodeFeatureDim]}. */
  NODE_FEATURES("node_features", "node_features.f32", "float32", 4);

  private final String key;
  private final String fileName;
  private final String dtype;
  private final int elementBytes;

  StoreColumn(String key, String fileName, String dtype, int elementBytes) {
    this.key = key;
    this.fileName = fileName;
    this.dtype = dtype;
    this.elementBytes = elementBytes;
  }

  /** The column's name in the manifest. */
  public String key() {
    return key;
  }

  /** The file that holds the column, inside the store directory. */
  public String fileName() {
    return fileName;
  }

  /** The element type, in NumPy's spelling. */
  public String dtype() {
    return dtype;
  }

  public int elementBytes() {
    return elementBytes;
  }

  /** True for the feature columns, whose checksums are verified only on request. */
  public boolean isFeature() {
    return this == EDGE_FEATURES || this == NODE_FEATURES;
  }
}
