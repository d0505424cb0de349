package dev.depbloom.model.config;

import dev.depbloom.data.InputException;

/** A configuration mistake; the message names the source and the key path. */
public final class ConfigException extends InputException {
  public ConfigException(String message) {
    super(message);
  }
}
