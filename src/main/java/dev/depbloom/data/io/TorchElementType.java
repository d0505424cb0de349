package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Element types of torch storages, named as {@code torch.save} pickles them, read as float. */
enum TorchElementType {
  FLOAT32("torch.FloatStorage", 4),
  FLOAT64("torch.DoubleStorage", 8),
  FLOAT16("torch.HalfStorage", 2),
  BFLOAT16("torch.BFloat16Storage", 2),
  INT64("torch.LongStorage", 8),
  INT32("torch.IntStorage", 4),
  INT16("torch.ShortStorage", 2),
  INT8("torch.CharStorage", 1),
  UINT8("torch.ByteStorage", 1),
  BOOL("torch.BoolStorage", 1);

  private final String storageName;
  private final int bytes;

  TorchElementType(String storageName, int bytes) {
    this.storageName = storageName;
    this.bytes = bytes;
  }

  int bytes() {
    return bytes;
  }

  static TorchElementType of(String storageName, Path file) {
    for (TorchElementType t : values()) {
      if (t.storageName.equals(storageName)) {
        return t;
      }
    }
    throw new DataFormatException(
        file, 0, "has storage type " + storageName + "; expected a float, integer or bool storage");
  }

  /** The element at byte {@code at} of a little-endian buffer, as float. */
  float read(ByteBuffer b, int at) {
    return switch (this) {
      case FLOAT32 -> b.getFloat(at);
      case FLOAT64 -> (float) b.getDouble(at);
      case FLOAT16 -> halfToFloat(b.getShort(at));
      case BFLOAT16 -> Float.intBitsToFloat((b.getShort(at) & 0xffff) << 16);
      case INT64 -> (float) b.getLong(at);
      case INT32 -> (float) b.getInt(at);
      case INT16 -> b.getShort(at);
      case INT8 -> b.get(at);
      case UINT8 -> b.get(at) & 0xff;
      case BOOL -> b.get(at) != 0 ? 1f : 0f;
    };
  }

  /** IEEE 754 binary16 to float; exact, since every half value is a float value. */
  static float halfToFloat(short half) {
    int bits = half & 0xffff;
    int exponent = (bits >>> 10) & 0x1f;
    int mantissa = bits & 0x3ff;
    float magnitude;
    if (exponent == 0) {
      magnitude = mantissa * 0x1p-24f; // zero or subnormal
    } else if (exponent == 31) {
      magnitude = mantissa == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      magnitude = Float.intBitsToFloat(((exponent - 15 + 127) << 23) | (mantissa << 13));
    }
    return (bits & 0x8000) != 0 ? -magnitude : magnitude;
  }
}
